package telegramtest_test

import (
	"context"
	"fmt"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// Example plays both sides: a user in a group and, inline, the bot under
// test talking to the server through the real client.
func Example() {
	srv, err := telegramtest.Start()
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	table := srv.NewGroup("Table", alice)
	api, err := tgbotapi.NewBotAPIWithClient(srv.Token(), srv.Endpoint(), srv.Client())
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	// A user starts a game; the bot reads the command and posts a keyboard.
	if _, err := srv.SendCommand(table.ID, alice.ID, "newgame"); err != nil {
		panic(err)
	}
	updates, err := api.GetUpdates(tgbotapi.UpdateConfig{Timeout: 5})
	if err != nil {
		panic(err)
	}
	fmt.Println("bot got:", updates[0].Message.Command())
	m := tgbotapi.NewMessage(table.ID, "<b>New game</b>: who plays?")
	m.ParseMode = tgbotapi.ModeHTML
	m.ReplyMarkup = tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonData("Join", "join")))
	if _, err := api.Send(m); err != nil {
		panic(err)
	}

	// The user presses Join; the bot answers the callback query.
	msg, err := srv.WaitForBotMessage(ctx, table.ID, telegramtest.HasButton("Join"))
	if err != nil {
		panic(err)
	}
	fmt.Println("chat shows:", msg.Text, msg.Labels())
	press, err := srv.PressButton(table.ID, alice.ID, "Join")
	if err != nil {
		panic(err)
	}
	updates, err = api.GetUpdates(tgbotapi.UpdateConfig{Offset: updates[0].UpdateID + 1, Timeout: 5})
	if err != nil {
		panic(err)
	}
	if _, err := api.Request(tgbotapi.NewCallback(updates[0].CallbackQuery.ID, "You joined")); err != nil {
		panic(err)
	}
	answer, err := press.Wait(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Println("user saw:", answer.Text)
	fmt.Println("calls:", srv.Calls().Total("getUpdates", "getMe"))
	// Output:
	// bot got: newgame
	// chat shows: New game: who plays? [Join]
	// user saw: You joined
	// calls: 2
}
