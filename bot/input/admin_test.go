package input

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/botapi"
	"github.com/twentyone-bot/twentyone/bot/clock"
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
	api, err := botapi.New(ctx, botapi.Options{Token: srv.Token(), Endpoint: srv.Endpoint(), Transport: srv.Client().Transport})
	require.NoError(t, err)
	a := newAdmins(api, clock.System{}, time.Minute)

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
			ok, err := a.is(ctx, tt.chat, tt.user)
			require.NoError(t, err)
			assert.Equal(t, tt.want, ok)
			ok, err = a.seems(ctx, tt.chat, tt.user)
			require.NoError(t, err)
			assert.Equal(t, tt.want, ok)
			if !tt.want || tt.chat > 0 {
				assert.Equal(t, asked, srv.Calls().Count("getChatMember"), "Telegram is not asked")
			} else {
				assert.Equal(t, asked+1, srv.Calls().Count("getChatMember"), "is asks afresh, seems takes its answer")
			}
		})
	}
}
