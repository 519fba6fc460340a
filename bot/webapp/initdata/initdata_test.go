package initdata_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
)

// published is the example initData of docs.telegram-mini-apps.com
// ("Validating"), signed by Telegram for the bot publishedToken; its hash
// was checked once with the Python below (True).
const (
	publishedToken = "5768337691:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx8"
	published      = "query_id=AAHdF6IQAAAAAN0XohDhrOrc" +
		"&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%7D" +
		"&auth_date=1662771648" +
		"&hash=c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2"
	publishedDate = 1662771648
)

// ours is a direct link's initData (start_param, chat_type, chat_instance,
// the third-party signature, a name with '&', a space and Cyrillic),
// signed independently of this package, once, by this Python 3.11:
//
//	import hmac, hashlib, urllib.parse, json
//	def sign(token, fields):
//	    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
//	    dcs = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
//	    return hmac.new(secret, dcs.encode(), hashlib.sha256).hexdigest()
//	token = "123456:TEST-token_for_initdata"
//	user = json.dumps({"id": 42, "first_name": "Ann & Бо", "last_name": "Smith",
//	    "username": "ann", "language_code": "uk", "allows_write_to_pm": True},
//	    ensure_ascii=False, separators=(",", ":"))
//	fields = {"user": user, "chat_instance": "-8428209589180549439",
//	    "chat_type": "supergroup", "start_param": "AQAAAAAAAAAA-_9",
//	    "auth_date": "1765000000", "signature": "abc-DEF_123"}
//	fields["hash"] = sign(token, fields)
//	print(urllib.parse.urlencode(fields, quote_via=urllib.parse.quote))
const (
	oursToken = "123456:TEST-token_for_initdata"
	ours      = "user=%7B%22id%22%3A42%2C%22first_name%22%3A%22Ann%20%26%20%D0%91%D0%BE%22%2C%22last_name%22%3A%22Smith%22%2C%22username%22%3A%22ann%22%2C%22language_code%22%3A%22uk%22%2C%22allows_write_to_pm%22%3Atrue%7D" +
		"&chat_instance=-8428209589180549439&chat_type=supergroup&start_param=AQAAAAAAAAAA-_9" +
		"&auth_date=1765000000&signature=abc-DEF_123" +
		"&hash=05fcde4d25ca8f045df622bd9e11bfe78d2e6990842ba07585f34d6834b01bde"
	oursDate = 1765000000
)

func TestValidateVectors(t *testing.T) {
	tests := []struct {
		name  string
		token string
		raw   string
		now   time.Time
		want  initdata.Data
	}{
		{
			name: "published by docs.telegram-mini-apps.com", token: publishedToken, raw: published,
			now: time.Unix(publishedDate+30, 0),
			want: initdata.Data{
				AuthDate: time.Unix(publishedDate, 0),
				User: initdata.User{ID: 279058397, FirstName: "Vladislav", LastName: "Kibenko",
					Username: "vdkfrost", LanguageCode: "ru", IsPremium: true},
				QueryID: "AAHdF6IQAAAAAN0XohDhrOrc",
				Hash:    "c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2",
			},
		},
		{
			name: "signed by Python: a direct link, the signature field kept in the check", token: oursToken, raw: ours,
			now: time.Unix(oursDate, 0),
			want: initdata.Data{
				AuthDate: time.Unix(oursDate, 0),
				User: initdata.User{ID: 42, FirstName: "Ann & Бо", LastName: "Smith", Username: "ann",
					LanguageCode: "uk", AllowsWriteToPM: true},
				StartParam:   "AQAAAAAAAAAA-_9",
				ChatType:     "supergroup",
				ChatInstance: "-8428209589180549439",
				Hash:         "05fcde4d25ca8f045df622bd9e11bfe78d2e6990842ba07585f34d6834b01bde",
			},
		},
		{
			name: "fields in another order, the hash first", token: publishedToken,
			raw: "hash=c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2&auth_date=1662771648" +
				"&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%7D" +
				"&query_id=AAHdF6IQAAAAAN0XohDhrOrc",
			now: time.Unix(publishedDate, 0),
			want: initdata.Data{
				AuthDate: time.Unix(publishedDate, 0),
				User: initdata.User{ID: 279058397, FirstName: "Vladislav", LastName: "Kibenko",
					Username: "vdkfrost", LanguageCode: "ru", IsPremium: true},
				QueryID: "AAHdF6IQAAAAAN0XohDhrOrc",
				Hash:    "c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := initdata.NewSecret(tt.token).Validate(tt.raw, tt.now, time.Hour)
			require.NoError(t, err)
			assert.True(t, tt.want.AuthDate.Equal(got.AuthDate), "auth_date %s", got.AuthDate)
			got.AuthDate = tt.want.AuthDate
			assert.Equal(t, tt.want, got)
		})
	}
}

// sentinels are the errors every refusal wraps exactly one of.
var sentinels = []error{initdata.ErrMissing, initdata.ErrMalformed, initdata.ErrBadHash, initdata.ErrExpired}

func TestValidateRefuses(t *testing.T) {
	secret := initdata.NewSecret(publishedToken)
	now := time.Unix(publishedDate, 0)
	user := `{"id":7,"first_name":"Bo"}`
	date := fmt.Sprint(publishedDate)
	signed := func(fields map[string]string) string { return secret.SignFields(fields) }
	tests := []struct {
		name string
		raw  string
		want error
	}{
		{"nothing", "", initdata.ErrMissing},
		{"longer than MaxLen", published + "&x=" + strings.Repeat("a", initdata.MaxLen), initdata.ErrMalformed},
		{"more than MaxFields", published + strings.Repeat("&a=1", initdata.MaxFields), initdata.ErrMalformed},
		{"a field without '='", published + "&x", initdata.ErrMalformed},
		{"an empty field", published + "&", initdata.ErrMalformed},
		{"an empty key", published + "&=1", initdata.ErrMalformed},
		{"bad percent-encoding", published + "&x=%zz", initdata.ErrMalformed},
		{"a key twice", published + "&auth_date=1", initdata.ErrMalformed},
		{"the hash twice", published + "&hash=c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2", initdata.ErrMalformed},
		{"no hash", strings.Split(published, "&hash=")[0], initdata.ErrMalformed},
		{"an empty hash", strings.Split(published, "&hash=")[0] + "&hash=", initdata.ErrMalformed},
		{"a short hash", published[:len(published)-2], initdata.ErrMalformed},
		{"an uppercase hash", strings.Split(published, "&hash=")[0] + "&hash=C501B71E775F74CE10E377DEA85A7EA24ECD640B223EA86DFE453E0EAED2E2B2", initdata.ErrMalformed},
		{"a line feed in a value", signed(map[string]string{"auth_date": date, "user": user, "x": "a\nb"}), initdata.ErrMalformed},
		{"a line feed in a key", signed(map[string]string{"auth_date": date, "user": user, "x\ny": "1"}), initdata.ErrMalformed},
		{"the user changed", strings.Replace(published, "279058397", "279058398", 1), initdata.ErrBadHash},
		{"auth_date changed", strings.Replace(published, "1662771648", "1662771649", 1), initdata.ErrBadHash},
		{"a field left out", strings.Replace(published, "query_id=AAHdF6IQAAAAAN0XohDhrOrc&", "", 1), initdata.ErrBadHash},
		{"a field added", published + "&start_param=table", initdata.ErrBadHash},
		{"another bot's token", initdata.NewSecret(oursToken).SignFields(map[string]string{"auth_date": date, "user": user}), initdata.ErrBadHash},
		{"a hash of zeros", strings.Split(published, "&hash=")[0] + "&hash=" + strings.Repeat("0", 64), initdata.ErrBadHash},
		{"signed, no auth_date", signed(map[string]string{"user": user}), initdata.ErrMalformed},
		{"signed, no user", signed(map[string]string{"auth_date": date}), initdata.ErrMalformed},
		{"signed, user null", signed(map[string]string{"auth_date": date, "user": "null"}), initdata.ErrMalformed},
		{"signed, user not JSON", signed(map[string]string{"auth_date": date, "user": "{id:7}"}), initdata.ErrMalformed},
		{"signed, user without an id", signed(map[string]string{"auth_date": date, "user": `{"first_name":"Bo"}`}), initdata.ErrMalformed},
		{"signed, user with a negative id", signed(map[string]string{"auth_date": date, "user": `{"id":-7}`}), initdata.ErrMalformed},
		{"signed, user id a string", signed(map[string]string{"auth_date": date, "user": `{"id":"7"}`}), initdata.ErrMalformed},
		{"signed, user and more", signed(map[string]string{"auth_date": date, "user": user + "{}"}), initdata.ErrMalformed},
		{"signed, receiver not JSON", signed(map[string]string{"auth_date": date, "user": user, "receiver": "x"}), initdata.ErrMalformed},
		{"signed, chat not JSON", signed(map[string]string{"auth_date": date, "user": user, "chat": "[]"}), initdata.ErrMalformed},
		{"signed, auth_date negative", signed(map[string]string{"auth_date": "-5", "user": user}), initdata.ErrMalformed},
		{"signed, auth_date with a sign", signed(map[string]string{"auth_date": "+" + date, "user": user}), initdata.ErrMalformed},
		{"signed, auth_date in exponent form", signed(map[string]string{"auth_date": "1e9", "user": user}), initdata.ErrMalformed},
		{"signed, auth_date too large", signed(map[string]string{"auth_date": "99999999999999999999", "user": user}), initdata.ErrMalformed},
		{"signed, can_send_after not a number", signed(map[string]string{"auth_date": date, "user": user, "can_send_after": "soon"}), initdata.ErrMalformed},
		{"signed, start_param empty", signed(map[string]string{"auth_date": date, "user": user, "start_param": ""}), initdata.ErrMalformed},
		{"signed, start_param with a space", signed(map[string]string{"auth_date": date, "user": user, "start_param": "a b"}), initdata.ErrMalformed},
		{"signed, start_param too long", signed(map[string]string{"auth_date": date, "user": user, "start_param": strings.Repeat("a", initdata.MaxStartParam+1)}), initdata.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := secret.Validate(tt.raw, now, time.Hour)
			require.Error(t, err)
			assert.Equal(t, initdata.Data{}, d, "nothing returned with a refusal")
			for _, s := range sentinels {
				assert.Equal(t, s == tt.want, errors.Is(err, s), "%v wraps %v", err, s)
			}
		})
	}
}

func TestValidateWindow(t *testing.T) {
	secret := initdata.NewSecret(publishedToken)
	signedAt := time.Unix(publishedDate, 0)
	const maxAge = 10 * time.Minute
	tests := []struct {
		name string
		now  time.Time
		ok   bool
	}{
		{"signed now", signedAt, true},
		{"as old as maxAge", signedAt.Add(maxAge), true},
		{"a second older than maxAge", signedAt.Add(maxAge + time.Second), false},
		{"a day old", signedAt.Add(24 * time.Hour), false},
		{"FutureSkew ahead of our clock", signedAt.Add(-initdata.FutureSkew), true},
		{"a second more ahead", signedAt.Add(-initdata.FutureSkew - time.Second), false},
		{"a year ahead", signedAt.AddDate(-1, 0, 0), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := secret.Validate(published, tt.now, maxAge)
			if tt.ok {
				require.NoError(t, err)
				assert.Equal(t, int64(279058397), d.User.ID)
				return
			}
			assert.ErrorIs(t, err, initdata.ErrExpired)
			assert.NotErrorIs(t, err, initdata.ErrBadHash)
		})
	}
}

func TestSignRoundTrip(t *testing.T) {
	secret := initdata.NewSecret(oursToken)
	at := time.Unix(oursDate, 0)
	tests := []struct {
		name string
		d    initdata.Data
	}{
		{"the least: a user and a date", initdata.Data{AuthDate: at, User: initdata.User{ID: 1, FirstName: "A"}}},
		{"a direct link from a group", initdata.Data{
			AuthDate: at, User: initdata.User{ID: 5000000001, FirstName: "Ann & Бо = 1+1", LastName: "O'Neil\n2",
				Username: "ann", LanguageCode: "ru", IsPremium: true, AllowsWriteToPM: true, PhotoURL: "https://t.me/i/userpic/320/a.svg"},
			StartParam: "AQID-_" + strings.Repeat("z", initdata.MaxStartParam-6), ChatType: "group", ChatInstance: "-1",
		}},
		{"the attachment menu", initdata.Data{
			AuthDate: at, User: initdata.User{ID: 2, FirstName: "B", IsBot: false},
			Receiver: &initdata.User{ID: 3, FirstName: "C", IsBot: true},
			Chat:     &initdata.Chat{ID: -100123, Type: "supergroup", Title: "Cards & co", Username: "cards"},
			QueryID:  "AAHdF6IQ", CanSendAfter: 90 * time.Second,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := secret.Sign(tt.d)
			got, err := secret.Validate(raw, at, time.Minute)
			require.NoError(t, err, raw)
			assert.Len(t, got.Hash, 64)
			assert.True(t, strings.HasSuffix(raw, "&hash="+got.Hash), "hash last")
			assert.True(t, tt.d.AuthDate.Equal(got.AuthDate))
			want := tt.d
			want.Hash, want.AuthDate = got.Hash, got.AuthDate
			assert.Equal(t, want, got)
			_, err = initdata.NewSecret(publishedToken).Validate(raw, at, time.Minute)
			assert.ErrorIs(t, err, initdata.ErrBadHash, "another bot's secret refuses it")
		})
	}
}

// TestSignFieldsMatchesPython signs ours's fields with this package and
// finds the hash Python computed.
func TestSignFieldsMatchesPython(t *testing.T) {
	raw := initdata.NewSecret(oursToken).SignFields(map[string]string{
		"user":          `{"id":42,"first_name":"Ann & Бо","last_name":"Smith","username":"ann","language_code":"uk","allows_write_to_pm":true}`,
		"chat_instance": "-8428209589180549439",
		"chat_type":     "supergroup",
		"start_param":   "AQAAAAAAAAAA-_9",
		"auth_date":     "1765000000",
		"signature":     "abc-DEF_123",
		"hash":          "left out",
	})
	assert.True(t, strings.HasSuffix(raw, "&hash=05fcde4d25ca8f045df622bd9e11bfe78d2e6990842ba07585f34d6834b01bde"), raw)
	assert.Equal(t, 1, strings.Count(raw, "hash="))
}

// TestZeroSecretValidatesNothing: a Secret left zero (a field never set)
// would be a key anyone can sign with; it accepts nothing, not even what
// it signed itself.
func TestZeroSecretValidatesNothing(t *testing.T) {
	var zero initdata.Secret
	at := time.Unix(oursDate, 0)
	raw := zero.Sign(initdata.Data{AuthDate: at, User: initdata.User{ID: 1, FirstName: "A"}})
	_, err := zero.Validate(raw, at, time.Hour)
	assert.ErrorIs(t, err, initdata.ErrBadHash)
	_, err = zero.Validate(published, time.Unix(publishedDate, 0), time.Hour)
	assert.ErrorIs(t, err, initdata.ErrBadHash)
}

func TestSecretNeverPrinted(t *testing.T) {
	secret := initdata.NewSecret(publishedToken)
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%X", "%d", "%q"} {
		assert.Equal(t, "initdata.Secret(redacted)", fmt.Sprintf(verb, secret), verb)
	}
	assert.Equal(t, "{initdata.Secret(redacted)}", fmt.Sprintf("%v", struct{ S initdata.Secret }{secret}))
}

func TestRefusalsQuoteNothing(t *testing.T) {
	secret := initdata.NewSecret(publishedToken)
	raw := strings.Replace(published, "Vladislav", "SECRETNAME", 1)
	for _, r := range []string{raw, raw + "&x=%zz", raw + "&auth_date=SECRETNAME", raw + "&SECRETNAME"} {
		_, err := secret.Validate(r, time.Unix(publishedDate, 0), time.Hour)
		require.Error(t, err)
		assert.NotContains(t, err.Error(), "SECRETNAME")
		assert.NotContains(t, err.Error(), "c501b71e")
	}
}

func TestValidStartParam(t *testing.T) {
	tests := []struct {
		p  string
		ok bool
	}{
		{"a", true},
		{"AZaz09_-", true},
		{strings.Repeat("x", initdata.MaxStartParam), true},
		{"", false},
		{strings.Repeat("x", initdata.MaxStartParam+1), false},
		{"a=b", false},
		{"a.b", false},
		{"a+b", false},
		{"a/b", false},
		{"é", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.ok, initdata.ValidStartParam(tt.p), "%q", tt.p)
	}
}
