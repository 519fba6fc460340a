package game_test

// The test vectors of docs/FAIRNESS.md, read from the doc itself so that
// the values live in one place, and the check script the doc gives, run
// with python3 on them.

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
	"github.com/twentyone-bot/twentyone/game/gametest"
)

const fairnessDoc = "../docs/FAIRNESS.md"

// docVectors returns the vectors of docs/FAIRNESS.md: every ```text block
// whose first line is "vector: …", as its "name: value" lines.
func docVectors(t *testing.T) []map[string]string {
	t.Helper()
	doc, err := os.ReadFile(fairnessDoc)
	require.NoError(t, err)
	var out []map[string]string
	var cur map[string]string
	for _, line := range strings.Split(string(doc), "\n") {
		switch {
		case line == "```text":
			cur = map[string]string{}
		case line == "```" && cur != nil:
			if _, ok := cur["vector"]; ok {
				out = append(out, cur)
			}
			cur = nil
		case cur != nil:
			name, value, ok := strings.Cut(line, ":")
			require.True(t, ok, "a vector's line is name: value: %q", line)
			require.NotContains(t, cur, name, "%q twice", name)
			cur[name] = strings.TrimSpace(value)
		}
	}
	return out
}

// refOrder derives an order as the doc's steps say, written apart from
// game's code; reject false skips the rejection of step 4, as a careless
// implementation would.
func refOrder(k []byte, codes []string, reject bool) []string {
	var words []uint32
	for j := uint64(0); len(words) < 8*len(codes); j++ {
		m := hmac.New(sha256.New, k)
		m.Write(binary.BigEndian.AppendUint64(nil, j))
		b := m.Sum(nil)
		for i := 0; i < len(b); i += 4 {
			words = append(words, binary.BigEndian.Uint32(b[i:]))
		}
	}
	order := slices.Clone(codes)
	for i := len(order) - 1; i >= 1; i-- {
		m := uint64(i + 1)
		r := uint64(words[0])
		words = words[1:]
		for reject && r >= 1<<32-(1<<32)%m {
			r = uint64(words[0])
			words = words[1:]
		}
		j := r % m
		order[i], order[j] = order[j], order[i]
	}
	return order
}

func TestVectors(t *testing.T) {
	vectors := docVectors(t)
	require.GreaterOrEqual(t, len(vectors), 5, "docs/FAIRNESS.md gives at least five vectors")
	var covered struct{ notCut, tap2, longText, reshuffled, rejected bool }
	for _, v := range vectors {
		t.Run(v["vector"], func(t *testing.T) {
			seed, err := game.ParseSeed(v["seed"])
			require.NoError(t, err)
			head, err := game.ParseSeed(v["head"])
			require.NoError(t, err)
			link, err := strconv.ParseUint(v["link"], 10, 32)
			require.NoError(t, err)
			require.NoError(t, game.VerifyLink(seed, uint32(link), head))
			g, err := strconv.ParseUint(v["game"], 10, 64)
			require.NoError(t, err)
			c, err := strconv.ParseUint(v["circle"], 10, 32)
			require.NoError(t, err)
			d, err := strconv.ParseUint(v["deck"], 10, 32)
			require.NoError(t, err)
			var cut []byte
			if v["cut"] == "-" {
				assert.Equal(t, "(not cut)", v["cut text"])
			} else {
				cut, err = hex.DecodeString(v["cut"])
				require.NoError(t, err)
				assert.Equal(t, v["cut text"], string(cut), "the cut's hex is its text's UTF-8")
			}
			cards := gametest.Cards(v["cards"])
			require.Equal(t, len(strings.Fields(v["cards"])), len(cards))
			assert.True(t, slices.IsSorted(cards), "cards in canonical order")

			msg := append([]byte("ochko-cut-v1"), 0)
			msg = binary.BigEndian.AppendUint64(msg, g)
			msg = binary.BigEndian.AppendUint32(msg, uint32(c))
			msg = binary.BigEndian.AppendUint32(msg, uint32(d))
			msg = binary.BigEndian.AppendUint32(msg, uint32(len(cut)))
			msg = append(msg, cut...)
			assert.Equal(t, v["msg"], hex.EncodeToString(msg))
			mac := hmac.New(sha256.New, seed[:])
			mac.Write(msg)
			k := mac.Sum(nil)
			assert.Equal(t, v["K"], hex.EncodeToString(k))
			mac = hmac.New(sha256.New, k)
			mac.Write(make([]byte, 8))
			b0 := mac.Sum(nil)
			assert.Equal(t, v["B_0"], hex.EncodeToString(b0))

			order, err := game.DeriveOrder(seed, g, uint32(c), uint32(d), cut, cards)
			require.NoError(t, err)
			want := strings.Fields(v["order"])
			assert.Equal(t, want, strings.Fields(codesOf(order)), "game.DeriveOrder gives the doc's order")
			assert.Equal(t, want, refOrder(k, strings.Fields(v["cards"]), true), "the doc's steps give its order")
			dealt := gametest.Cards(v["dealt"])
			require.NotEmpty(t, dealt)
			assert.Equal(t, order[:len(dealt)], dealt)

			rec := &game.CutRecord{Head: head, Link: uint32(link), Seed: seed, Game: g, Circle: uint32(c), Deck: uint32(d),
				Cut: cut, Cards: cards, Dealt: dealt}
			assert.Equal(t, v["record"], rec.String())
			parsed, err := game.ParseRecord(v["record"])
			require.NoError(t, err)
			got, err := parsed.Verify()
			require.NoError(t, err)
			assert.Equal(t, order, got)

			if r, ok := v["rejected"]; ok {
				m := uint64(len(cards))
				w0 := uint64(binary.BigEndian.Uint32(b0))
				limit := 1<<32 - (1<<32)%m
				require.GreaterOrEqual(t, w0, limit, "the first word is rejected")
				assert.True(t, strings.HasPrefix(r, "w_0 = "+hex.EncodeToString(b0[:4])+": m = "+strconv.FormatUint(m, 10)+
					", limit = 2^32 - "+strconv.FormatUint(1<<32-limit, 10)+" = "+strconv.FormatUint(limit, 16)+"; w_1 = "+hex.EncodeToString(b0[4:8])), r)
				assert.NotEqual(t, want, refOrder(k, strings.Fields(v["cards"]), false), "without the rejection, another order")
				covered.rejected = true
			}
			covered.notCut = covered.notCut || len(cut) == 0 && len(cards) == game.DeckSize
			covered.tap2 = covered.tap2 || string(cut) == "tap:2" && len(cards) == game.DeckSize
			covered.longText = covered.longText || bytes.ContainsFunc(cut, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) &&
				bytes.ContainsFunc(cut, func(r rune) bool { return r >= 0x1F000 }) && len(cut) > 64
			covered.reshuffled = covered.reshuffled || len(cards) == 14 && g == 17 && c == 3 && d == 2
		})
	}
	assert.True(t, covered.notCut, "a full deck not cut")
	assert.True(t, covered.tap2, "a full deck cut with tap:2")
	assert.True(t, covered.longText, "a long cut of Cyrillic text and an emoji")
	assert.True(t, covered.reshuffled, "a deck of 14 cards, deck 2 of circle 3 of game 17")
	assert.True(t, covered.rejected, "a vector whose first word is rejected")
}

// codesOf returns the cards' codes separated by spaces.
func codesOf(cards []game.Card) string {
	s := make([]string, len(cards))
	for i, c := range cards {
		s[i] = c.Code()
	}
	return strings.Join(s, " ")
}

// docScript returns the check script of docs/FAIRNESS.md, written to a
// file, and the python3 to run it with. With no python3 it skips the test,
// but fails it under CI (.ci/run installs python3, so that CI never skips).
func docScript(t *testing.T) (python, script string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is not installed: CI must run the check script of docs/FAIRNESS.md (.ci/run installs it)")
		}
		t.Skip("python3 is not installed: the check script of docs/FAIRNESS.md cannot run here (.ci/run installs it)")
	}
	doc, err := os.ReadFile(fairnessDoc)
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(doc), "<!-- check_deck.py begins -->\n```python\n")
	require.True(t, ok, "the script's start marker")
	body, _, ok := strings.Cut(rest, "```\n<!-- check_deck.py ends -->")
	require.True(t, ok, "the script's end marker")
	lines := strings.Count(body, "\n")
	assert.LessOrEqual(t, lines, 60, "a short script")
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "import") {
			assert.Equal(t, "import hashlib, hmac, sys", line, "the standard library only")
		}
	}
	script = filepath.Join(t.TempDir(), "check_deck.py")
	require.NoError(t, os.WriteFile(script, []byte(body), 0o600))
	return python, script
}

// runScript runs the script on record (as its argument, or on standard
// input when stdin) and returns its output and exit code.
func runScript(t *testing.T, python, script, record string, stdin bool) (stdout, stderr string, code int) {
	t.Helper()
	arg := record
	if stdin {
		arg = "-"
	}
	cmd := exec.Command(python, script, arg)
	if stdin {
		cmd.Stdin = strings.NewReader(record + "\n")
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return out.String(), errOut.String(), exit.ExitCode()
	}
	require.NoError(t, err)
	return out.String(), errOut.String(), 0
}

func TestCheckDeckScript(t *testing.T) {
	python, script := docScript(t)
	for _, v := range docVectors(t) {
		t.Run(v["vector"], func(t *testing.T) {
			for _, stdin := range []bool{false, true} {
				out, errOut, code := runScript(t, python, script, v["record"], stdin)
				require.Equal(t, 0, code, "stdin %v: %s%s", stdin, out, errOut)
				assert.Contains(t, out, "order: "+v["order"]+"\n")
				seed, err := game.ParseSeed(v["seed"])
				require.NoError(t, err)
				assert.Contains(t, out, "commitment: "+seed.Hash().String())
				assert.True(t, strings.HasSuffix(out, "\nOK\n"), out)
				assert.Empty(t, errOut)
			}
			changes := gametest.RecordChanges(v["record"])
			for _, field := range []string{"head", "link", "seed", "game", "circle", "deck", "cut", "dealt"} {
				changed, ok := changes[field]
				require.True(t, ok, "a change of %s", field)
				require.NotEqual(t, v["record"], changed)
				out, errOut, code := runScript(t, python, script, changed, false)
				assert.Equal(t, 1, code, "%s changed: %s%s", field, out, errOut)
				assert.True(t, strings.HasPrefix(errOut, "FAIL: "), "%s changed: %q", field, errOut)
				assert.NotContains(t, out, "OK", "%s changed", field)
				// The Go check fails on the same change.
				r, err := game.ParseRecord(changed)
				require.NoError(t, err, field)
				_, err = r.Verify()
				assert.Error(t, err, field)
			}
		})
	}

	// Records of the old scheme.
	d := game.Deck{Cards: gametest.Cards("Th 6s Ac 9d Kc")}
	d.Salt[3] = 0x5e
	old := (&game.SaltRecord{Commitment: d.Commitment(), Deck: d}).String()
	out, errOut, code := runScript(t, python, script, old, false)
	require.Equal(t, 0, code, out+errOut)
	assert.Equal(t, "order: Th 6s Ac 9d Kc\nOK\n", out)
	out, errOut, code = runScript(t, python, script, strings.Replace(old, "Th6s", "6sTh", 1), false)
	assert.Equal(t, 1, code, out+errOut)
	assert.Equal(t, "FAIL: the preimage does not hash to the commitment\n", errOut)

	// Not records: exit 2.
	v := docVectors(t)[0]
	for name, bad := range map[string]string{
		"empty":         "",
		"another thing": "hello world",
		"field missing": strings.Replace(v["record"], " game=1", "", 1),
		"seed not hex":  strings.Replace(v["record"], "seed=", "seed=zz", 1),
		"card unknown":  strings.Replace(v["record"], "dealt=7c", "dealt=1c", 1),
		"dealt empty":   v["record"][:strings.Index(v["record"], "dealt=")+len("dealt=")],
		"not canonical": strings.Replace(v["record"], "cards=6s6h", "cards=6h6s", 1),
	} {
		out, errOut, code := runScript(t, python, script, bad, false)
		assert.Equal(t, 2, code, "%s: %s%s", name, out, errOut)
		assert.True(t, strings.HasPrefix(errOut, "FAIL: "), "%s: %q", name, errOut)
		r, err := game.ParseRecord(bad)
		assert.ErrorIs(t, err, game.ErrInvalidInput, name)
		assert.Nil(t, r)
	}
}
