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

var seedGroups = []seedGroup{
	{title: "Game night", members: []int{0, 1, 2, 3}},
	{title: "Office", members: []int{1, 2, 4}},
}

// seed registers the users and creates the groups, then adds the bot to
// each as its creator does in a client: the bot gets my_chat_member and
// greets the group once it polls.
func seed(srv *telegramtest.Server) ([]telegramtest.Chat, error) {
	users := make([]telegramtest.User, len(SeedUsers))
	for i, u := range SeedUsers {
		users[i] = srv.AddUser(u)
	}
	chats := make([]telegramtest.Chat, 0, len(seedGroups))
	for _, g := range seedGroups {
		spec := telegramtest.ChatSpec{Type: telegramtest.ChatGroup, Title: g.title, BotStatus: telegramtest.StatusLeft}
		for _, i := range g.members {
			spec.Members = append(spec.Members, users[i].ID)
		}
		spec.Creator = spec.Members[0]
		chat, err := srv.AddChat(spec)
		if err != nil {
			return nil, fmt.Errorf("group %q: %w", g.title, err)
		}
		if err := srv.AddBot(chat.ID, spec.Creator); err != nil {
			return nil, fmt.Errorf("adding the bot to %q: %w", g.title, err)
		}
		chats = append(chats, chat)
	}
	return chats, nil
}
