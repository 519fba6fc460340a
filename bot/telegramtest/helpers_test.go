package telegramtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// start runs a server for the test and connects the real client to it.
func start(t *testing.T, opts ...telegramtest.Option) (*telegramtest.Server, *tgbotapi.BotAPI) {
	t.Helper()
	srv := telegramtest.StartTest(t, opts...)
	api, err := tgbotapi.NewBotAPIWithClient(srv.Token(), srv.Endpoint(), srv.Client())
	require.NoError(t, err)
	return srv, api
}

// deadline returns a context that ends well before the test would hang.
func deadline(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// asAPIError extracts tgbotapi's error.
func asAPIError(t *testing.T, err error) *tgbotapi.Error {
	t.Helper()
	require.Error(t, err)
	var apiErr *tgbotapi.Error
	require.True(t, errors.As(err, &apiErr), "want a Bot API error, got %T: %v", err, err)
	return apiErr
}

// rawResponse is a Bot API answer decoded loosely, to check its exact shape.
type rawResponse struct {
	Status      int
	OK          bool            `json:"ok"`
	Result      json.RawMessage `json:"result"`
	ErrorCode   int             `json:"error_code"`
	Description string          `json:"description"`
	Parameters  map[string]any  `json:"parameters"`
}

// call posts a form request to a method and decodes the answer.
func call(t *testing.T, srv *telegramtest.Server, method string, form url.Values) rawResponse {
	t.Helper()
	resp, err := srv.Client().PostForm(srv.URL()+"/bot"+srv.Token()+"/"+method, form)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out rawResponse
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	out.Status = resp.StatusCode
	return out
}

// rawUpdates fetches pending updates as raw JSON objects, to read fields
// tgbotapi v5.5.1 does not know.
func rawUpdates(t *testing.T, srv *telegramtest.Server, offset int) []map[string]any {
	t.Helper()
	form := url.Values{}
	if offset != 0 {
		form.Set("offset", itoa(offset))
	}
	resp := call(t, srv, "getUpdates", form)
	require.True(t, resp.OK, "getUpdates: %s", resp.Description)
	var out []map[string]any
	require.NoError(t, json.Unmarshal(resp.Result, &out))
	return out
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// keyboard builds an inline keyboard of callback buttons, one row.
func keyboard(pairs ...string) tgbotapi.InlineKeyboardMarkup {
	var row []tgbotapi.InlineKeyboardButton
	for i := 0; i+1 < len(pairs); i += 2 {
		row = append(row, tgbotapi.NewInlineKeyboardButtonData(pairs[i], pairs[i+1]))
	}
	return tgbotapi.NewInlineKeyboardMarkup(row)
}

// drain confirms every pending update so the next getUpdates starts clean.
func drain(t *testing.T, api *tgbotapi.BotAPI) int {
	t.Helper()
	updates, err := api.GetUpdates(tgbotapi.UpdateConfig{})
	require.NoError(t, err)
	next := 0
	if len(updates) > 0 {
		next = updates[len(updates)-1].UpdateID + 1
		_, err = api.GetUpdates(tgbotapi.UpdateConfig{Offset: next})
		require.NoError(t, err)
	}
	return next
}

// getMe fetches getMe's result as a raw JSON object, to read the fields
// tgbotapi v5.5.1 does not know.
func getMe(t *testing.T, srv *telegramtest.Server) map[string]any {
	t.Helper()
	resp := call(t, srv, "getMe", url.Values{})
	require.True(t, resp.OK, resp.Description)
	var me map[string]any
	require.NoError(t, json.Unmarshal(resp.Result, &me))
	return me
}
