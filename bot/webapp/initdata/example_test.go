package initdata_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/twentyone-bot/twentyone/bot/webapp/initdata"
)

// The server derives the secret once from the bot's token and checks the
// initData of every request with it.
func ExampleSecret_Validate() {
	secret := initdata.NewSecret("123456:TEST-token_for_initdata")
	signedAt := time.Unix(1765000000, 0)
	raw := secret.Sign(initdata.Data{
		AuthDate:   signedAt,
		User:       initdata.User{ID: 42, FirstName: "Ann", LanguageCode: "uk"},
		StartParam: "AQAAAAAAAAAA-_9",
	})

	d, err := secret.Validate(raw, signedAt.Add(time.Minute), time.Hour)
	fmt.Println(d.User.ID, d.User.FirstName, d.StartParam, err)

	_, err = secret.Validate(raw, signedAt.Add(2*time.Hour), time.Hour)
	fmt.Println(errors.Is(err, initdata.ErrExpired))

	_, err = initdata.NewSecret("654321:another-bot").Validate(raw, signedAt, time.Hour)
	fmt.Println(errors.Is(err, initdata.ErrBadHash))
	// Output:
	// 42 Ann AQAAAAAAAAAA-_9 <nil>
	// true
	// true
}

// BenchmarkValidate is the cost of checking one request's initData.
func BenchmarkValidate(b *testing.B) {
	secret := initdata.NewSecret(oursToken)
	now := time.Unix(oursDate, 0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := secret.Validate(ours, now, time.Hour); err != nil {
			b.Fatal(err)
		}
	}
}
