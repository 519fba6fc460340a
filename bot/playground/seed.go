package playground

import (
	"fmt"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// SeedUsers are the users every playground starts with, in id order (the
// ids are the same at every start, so that a kept database finds its
// players again). Иван speaks Russian: a table he opens first is in Russian.
var SeedUsers = []telegramtest.User{
	{FirstName: "Alice", LastName: "Archer", Username: "alice", LanguageCode: "en"},
	{FirstName: "Bob", LastName: "Baker", Username: "bob", LanguageCode: "en"},
	{FirstName: "Carol", LastName: "Cooper", Username: "carol", LanguageCode: "en"},
	{FirstName: "Dave", LastName: "Dyer", Username: "dave", LanguageCode: "en"},
	{FirstName: "Иван", LastName: "Петров", Username: "ivan", LanguageCode: "ru"},
}

// seedGroup is a group the playground starts with: its title and its
// members as indexes into SeedUsers, the creator first.
type seedGroup struct {
	title   string
	members []int
}

// seedGroups are the groups the bot is added to.
var seedGroups = []seedGroup{
	{title: "Game night", members: []int{0, 1, 2, 3}},
	{title: "Office", members: []int{1, 2, 4}},
}

// seedBotless is the group the bot is not a member of, where it plays
// through inline mode and guest mode only (issue 28). It is made after
// the others, so that every group keeps its id from one start to the next.
var seedBotless = seedGroup{title: "Book club", members: []int{0, 1, 2, 4}}

// seedUserChat is the private chat between two users (Alice and Bob, as
// indexes into SeedUsers), which the bot is no party to.
var seedUserChat = [2]int{0, 1}

// seeded are the chats seed made.
type seeded struct {
	groups   []telegramtest.Chat // with the bot, in seedGroups' order
	userChat telegramtest.Chat
	botless  telegramtest.Chat
}

// seed registers the users and creates the chats: the groups, to each of
// which the bot is then added as its creator does in a client (the bot
// gets my_chat_member and greets the group once it polls); the group
// without the bot; the chat between two users.
func seed(srv *telegramtest.Server) (seeded, error) {
	users := make([]telegramtest.User, len(SeedUsers))
	for i, u := range SeedUsers {
		users[i] = srv.AddUser(u)
	}
	group := func(g seedGroup) (telegramtest.Chat, int64, error) {
		spec := telegramtest.ChatSpec{Type: telegramtest.ChatGroup, Title: g.title, BotStatus: telegramtest.StatusLeft}
		for _, i := range g.members {
			spec.Members = append(spec.Members, users[i].ID)
		}
		spec.Creator = spec.Members[0]
		chat, err := srv.AddChat(spec)
		if err != nil {
			return telegramtest.Chat{}, 0, fmt.Errorf("group %q: %w", g.title, err)
		}
		return chat, spec.Creator, nil
	}
	var s seeded
	for _, g := range seedGroups {
		chat, creator, err := group(g)
		if err != nil {
			return seeded{}, err
		}
		if err := srv.AddBot(chat.ID, creator); err != nil {
			return seeded{}, fmt.Errorf("adding the bot to %q: %w", g.title, err)
		}
		s.groups = append(s.groups, chat)
	}
	var err error
	if s.botless, _, err = group(seedBotless); err != nil {
		return seeded{}, err
	}
	if s.userChat, err = srv.NewUserChat(users[seedUserChat[0]], users[seedUserChat[1]]); err != nil {
		return seeded{}, fmt.Errorf("the chat between %s and %s: %w", users[seedUserChat[0]].FirstName, users[seedUserChat[1]].FirstName, err)
	}
	return s, nil
}
