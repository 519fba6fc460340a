package telegramtest

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// tMeHosts are the domains of Telegram's t.me links (td's
// LinkManager::get_link_info).
var tMeHosts = []string{"t.me", "telegram.me", "telegram.dog"}

// maxStartParameter is the longest start parameter a deep link carries
// (Bot API, "Deep linking": up to 64 characters of A-Z, a-z, 0-9, _ and -).
const maxStartParameter = 64

// OpenLink acts as a user who taps a link, in a message or on a URL button,
// in a Telegram client. Only the bot's deep link is modelled,
// https://t.me/<bot username>?start=<parameter>: the client opens the
// user's private chat with the bot and shows a Start button, even to a user
// who started the bot before; pressing it (which also unblocks a bot the
// user blocked, queueing my_chat_member kicked → member) sends "/start
// <parameter>". A parameter that is not 1 to 64 of A-Z a-z 0-9 _ - is
// dropped, as td's LinkManager does (is_valid_start_parameter): the message
// is a bare "/start". It returns the message sent. Any other link is
// ErrInvalid.
func (s *Server) OpenLink(fromID int64, link string) (ChatMessage, error) {
	param, err := s.startParameter(link)
	if err != nil {
		return ChatMessage{}, err
	}
	if err := s.unblock(fromID); err != nil {
		return ChatMessage{}, err
	}
	text := "/start"
	if param != "" {
		text += " " + param
	}
	return s.Post(Post{ChatID: fromID, From: fromID, Text: text})
}

// startParameter reads the bot's deep link: its start parameter, "" when
// it has none that is valid.
func (s *Server) startParameter(link string) (string, error) {
	param, _, err := s.deepLink(link)
	return param, err
}

// deepLink reads the bot's deep link, https://t.me/<bot>?start=<param>
// (http, and the hosts telegram.me and telegram.dog, too; without a
// scheme as the Bot API docs write it, "t.me/your_bot?start=XXXX"): its
// start parameter and whether it has one that is valid, "" and false
// when it has none or one of other characters or too long.
func (s *Server) deepLink(link string) (string, bool, error) {
	if !strings.Contains(link, "://") {
		link = "https://" + link
	}
	u, err := url.Parse(link)
	if err != nil {
		return "", false, fmt.Errorf("link %q: %w", link, ErrInvalid)
	}
	host := strings.ToLower(u.Host)
	known := false
	for _, h := range tMeHosts {
		known = known || host == h
	}
	name := strings.Trim(u.Path, "/")
	if !known || (u.Scheme != "https" && u.Scheme != "http") || !strings.EqualFold(name, s.cfg.bot.Username) {
		return "", false, fmt.Errorf("link %q is not the bot's deep link (the only link modelled): %w", link, ErrInvalid)
	}
	param := u.Query().Get("start")
	if len(param) > maxStartParameter || strings.Trim(param, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") != "" {
		return "", false, nil
	}
	return param, param != "", nil
}

// unblock undoes the user's block of the bot, if any, as pressing Start
// in the bot's chat does.
func (s *Server) unblock(userID int64) error {
	s.mu.Lock()
	c, ok := s.w.chats[userID]
	blocked := ok && c.chat.Type == ChatPrivate && c.bot.status == StatusKicked
	s.mu.Unlock()
	if !blocked {
		return nil
	}
	return s.BlockBot(userID, false)
}

// getChat answers with the chat's ChatFullInfo, as far as it is modelled:
// id, type, title, names, is_forum, and the two fields the Bot API always
// sends (accent_color_id, max_reaction_count). getChat needs only read
// access (Client.cpp, process_get_chat_query: AccessRights::Read): a basic
// group answers even after the bot left it, or after its upgrade; a
// supergroup answers 403 to a bot that is not a member (none is public
// here) or was kicked.
func (s *Server) getChat(_ context.Context, p params) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	raw := strings.TrimSpace(p.str("chat_id"))
	if raw == "" {
		return nil, errChatIDEmpty
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	c := s.w.chats[id]
	if err != nil || c == nil {
		return nil, errChatNotFound // no @username is found: chats have none here
	}
	if c.chat.Type == ChatSupergroup {
		switch c.bot.status {
		case StatusKicked:
			return nil, forbidden("bot was kicked from the supergroup chat")
		case StatusLeft:
			return nil, forbidden("bot is not a member of the supergroup chat")
		}
	}
	return chatFullInfo{Chat: c.chat, MaxReactionCount: 11}, nil
}

// chatFullInfo is getChat's answer.
type chatFullInfo struct {
	Chat
	AccentColorID    int `json:"accent_color_id"`
	MaxReactionCount int `json:"max_reaction_count"`
}
