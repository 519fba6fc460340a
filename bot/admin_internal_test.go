package bot

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// TestTheUserIsTheAdminOfTheirPrivateChat: in a private chat (a positive
// chat id, the user's own) its user is the admin and nobody else is, and
// user 0 is nobody's admin; none of these asks Telegram.
func TestTheUserIsTheAdminOfTheirPrivateChat(t *testing.T) {
	srv := telegramtest.StartTest(t)
	alice := srv.AddUser(telegramtest.User{FirstName: "Alice"})
	dm := srv.PrivateChat(alice)
	group := srv.NewGroup("Game night", alice)
	ctx := context.Background()
	b := newInternalBot(t, srv)
	t.Cleanup(func() { assert.NoError(t, b.Close(ctx)) })

	tests := []struct {
		name       string
		chat, user int64
		want       bool
	}{
		{"the group's creator", group.ID, alice.ID, true},
		{"a user in their private chat", dm.ID, alice.ID, true},
		{"another user in someone's private chat", dm.ID, alice.ID + 1, false},
		{"user 0 in the group", group.ID, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asked := srv.Calls().Count("getChatMember")
			ok, err := b.isAdmin(ctx, tt.chat, tt.user)
			require.NoError(t, err)
			assert.Equal(t, tt.want, ok)
			ok, err = b.seemsAdmin(ctx, tt.chat, tt.user)
			require.NoError(t, err)
			assert.Equal(t, tt.want, ok)
			if !tt.want || tt.chat > 0 {
				assert.Equal(t, asked, srv.Calls().Count("getChatMember"), "Telegram is not asked")
			}
		})
	}
}
