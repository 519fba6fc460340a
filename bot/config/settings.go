package config

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/game"
)

// The settings of a chat nobody configured (TableConfig.Settings) are
// keys of their own: each setting of game.Fields with a Config key is the
// key table.CONFIG, read from a string by its kind, checked by its row
// (game.Field.Check) and told in this package's words. A new setting is a
// new key here with nothing written for it.

// settingsType is the type whose fields are the settings' keys.
var settingsType = reflect.TypeFor[game.ChatSettings]()

// settingKeys returns the keys of the settings, in the order of
// game.Fields: those of the settings with a config key.
func settingKeys() []game.Field {
	var out []game.Field
	for _, f := range game.Fields() {
		if f.Config != "" {
			out = append(out, f)
		}
	}
	return out
}

// setSetting parses s as a value of the setting f, by its kind, into the
// settings v holds (a game.ChatSettings).
func setSetting(v reflect.Value, f game.Field, s string) error {
	val, err := parseSetting(f, s)
	if err != nil {
		return err
	}
	f.Set(v.Addr().Interface().(*game.ChatSettings), val)
	return nil
}

// parseSetting reads a value of the setting f: a whole number; a duration
// with a unit ("60s", "10m"); bet options as game.ParseBetOptions reads
// them; a toggle on or off (or true or false); a language auto or one the
// bot speaks.
func parseSetting(f game.Field, s string) (game.Value, error) {
	t := strings.TrimSpace(s)
	switch f.Kind {
	case game.FieldNumber:
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return game.Value{}, fmt.Errorf("want a whole number, not %q", s)
		}
		return game.Value{N: n}, nil
	case game.FieldDuration:
		d, err := time.ParseDuration(t)
		if err != nil {
			return game.Value{}, fmt.Errorf("want a duration with a unit, such as 60s or 10m, not %q", s)
		}
		return game.Value{N: int64(d)}, nil
	case game.FieldBets:
		opts, err := game.ParseBetOptions(s)
		return game.Value{Bets: opts}, err
	case game.FieldToggle:
		switch strings.ToLower(t) {
		case "on", "true":
			return game.Value{On: true}, nil
		case "off", "false":
			return game.Value{On: false}, nil
		}
		return game.Value{}, fmt.Errorf("want on or off, not %q", s)
	case game.FieldLanguage:
		if s == "auto" {
			return game.Value{}, nil
		}
		if !i18n.Lang(s).Valid() {
			return game.Value{}, fmt.Errorf("must be auto or one of %s, not %q", langList(), s)
		}
		return game.Value{Text: s}, nil
	}
	return game.Value{}, fmt.Errorf("cannot set a setting of kind %d", f.Kind)
}

// formatSetting writes a value of the setting f as the config file takes
// it: the language "auto" while not decided.
func formatSetting(f game.Field, v game.Value) string {
	if f.Kind == game.FieldLanguage && v.Text == "" {
		return "auto"
	}
	return f.Format(v)
}

// validateSettings checks each setting with a config key, in the order of
// game.Fields, and returns the first problem, naming the key.
func validateSettings(c game.ChatSettings, src sources) error {
	for _, f := range settingKeys() {
		err := f.Check(c)
		var e *game.SettingError
		if !errors.As(err, &e) {
			continue
		}
		key := "table." + f.Config
		switch e.Problem {
		case game.ProblemRange:
			if f.AtLeast != "" {
				return src.bad(key, "must be at most %s, not %s", f.Format(game.Value{N: f.Max}), f.Format(e.Value))
			}
			return src.bad(key, "must be from %s to %s, not %s", f.Format(game.Value{N: f.Min}), f.Format(game.Value{N: f.Max}), f.Format(e.Value))
		case game.ProblemBelow:
			other := e.Other.Format(e.OtherValue)
			if e.Other.Config != "" {
				other = src.ref("table."+e.Other.Config, other)
			}
			return src.bad(key, "must be at least %s, not %s", other, f.Format(e.Value))
		case game.ProblemBetCount:
			if len(e.Value.Bets) == 0 {
				return src.bad(key, "must list at least one bet option, such as %q", f.Format(f.Default))
			}
		}
		return src.bad(key, "%s", strings.TrimPrefix(err.Error(), game.ErrInvalidSettings.Error()+": "))
	}
	return nil
}

// settingsLine describes the settings for a log line:
// "stake=10 entry_limit=100 bet_options="x1, x2" … language=auto".
func settingsLine(c game.ChatSettings) string {
	var parts []string
	for _, f := range settingKeys() {
		v := formatSetting(f, f.Get(c))
		if strings.ContainsAny(v, " ,") {
			v = strconv.Quote(v)
		}
		parts = append(parts, f.Config+"="+v)
	}
	return strings.Join(parts, " ")
}
