package initdata_test

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
)

// FuzzValidate feeds Validate anything: it never panics, every refusal
// wraps exactly one of the sentinels and returns no data, and what it
// accepts keeps Data's promises.
func FuzzValidate(f *testing.F) {
	secret := initdata.NewSecret(publishedToken)
	for _, seed := range []string{
		published, ours, "", "&", "=", "hash=", "a=%", "a=%zz&hash=00",
		secret.SignFields(map[string]string{"auth_date": "1662771648", "user": `{"id":1}`}),
		secret.SignFields(map[string]string{"auth_date": "1662771648", "user": `{"id":1}`, "start_param": "x y"}),
		secret.Sign(initdata.Data{AuthDate: time.Unix(publishedDate, 0), User: initdata.User{ID: 9, FirstName: "Z"}, StartParam: "abc"}),
	} {
		f.Add(seed)
	}
	now := time.Unix(publishedDate, 0)
	f.Fuzz(func(t *testing.T, raw string) {
		d, err := secret.Validate(raw, now, 365*24*time.Hour)
		if err != nil {
			n := 0
			for _, s := range sentinels {
				if errors.Is(err, s) {
					n++
				}
			}
			require.Equal(t, 1, n, "%v wraps one sentinel", err)
			require.Equal(t, initdata.Data{}, d)
			return
		}
		require.Positive(t, d.User.ID)
		require.Len(t, d.Hash, 64)
		require.True(t, strings.Contains(raw, "hash="+d.Hash))
		require.True(t, d.StartParam == "" || initdata.ValidStartParam(d.StartParam))
		again, err := secret.Validate(raw, now, 365*24*time.Hour)
		require.NoError(t, err)
		require.Equal(t, d, again, "deterministic")
	})
}

// FuzzSignRoundTrip signs any user and start parameter and finds them
// again with Validate.
func FuzzSignRoundTrip(f *testing.F) {
	f.Add(int64(42), "Ann & Бо", "O'Neil", "AQID-_9", int64(publishedDate))
	f.Add(int64(1), "a\nb=c&d", "%zz+", "x", int64(0))
	secret := initdata.NewSecret(oursToken)
	f.Fuzz(func(t *testing.T, id int64, first, last, start string, at int64) {
		if id <= 0 || !utf8.ValidString(first) || !utf8.ValidString(last) || at < 0 || at > 1<<40 {
			t.Skip()
		}
		if start != "" && !initdata.ValidStartParam(start) {
			t.Skip()
		}
		d := initdata.Data{AuthDate: time.Unix(at, 0), User: initdata.User{ID: id, FirstName: first, LastName: last}, StartParam: start}
		got, err := secret.Validate(secret.Sign(d), d.AuthDate, time.Second)
		require.NoError(t, err)
		d.Hash, d.AuthDate = got.Hash, got.AuthDate
		assert.Equal(t, d, got)
	})
}
