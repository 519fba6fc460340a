package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/game"
)

// declaredKeys parses keys.go, keyscut.go, keysverify.go and keysapp.go and returns every Key constant: name to
// value; and the keys of every setting's texts (SettingKeys), named
// "Field" and their key: plain text.
func declaredKeys(t *testing.T) map[string]Key {
	t.Helper()
	keys := map[string]Key{}
	for _, file := range []string{"keys.go", "keyscut.go", "keysverify.go", "keysapp.go"} {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		require.NoError(t, err)
		declaredIn(t, f, keys)
	}
	require.NotEmpty(t, keys)
	for _, f := range game.Fields() {
		for _, k := range SettingKeys(f) {
			keys["Field "+string(k)] = k
		}
	}
	return keys
}

// declaredIn adds the Key constants the file declares to keys.
func declaredIn(t *testing.T, f *ast.File, keys map[string]Key) {
	t.Helper()
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			typ, ok := vs.Type.(*ast.Ident)
			require.True(t, ok && typ.Name == "Key", "constant %s must be declared as a Key", vs.Names[0])
			for i, name := range vs.Names {
				lit := vs.Values[i].(*ast.BasicLit)
				v, err := strconv.Unquote(lit.Value)
				require.NoError(t, err)
				keys[name.Name] = Key(v)
			}
		}
	}
}

func TestCataloguesHoldEveryDeclaredKeyAndNoOther(t *testing.T) {
	keys := declaredKeys(t)
	values := map[Key]string{}
	for name, k := range keys {
		other, dup := values[k]
		assert.False(t, dup, "%s and %s share the key %q", name, other, k)
		values[k] = name
	}
	for _, lang := range Langs() {
		cat := catalogues[lang]
		require.NotNil(t, cat, lang)
		for name, k := range keys {
			s, ok := cat[k]
			if assert.True(t, ok, "%s: %s (%q) is missing", lang, name, k) {
				assert.NotEmpty(t, strings.TrimSpace(s), "%s: %s is empty", lang, name)
			}
		}
		for k := range cat {
			_, ok := values[k]
			assert.True(t, ok, "%s: %q is not a declared key", lang, k)
		}
	}
}

func TestEveryLanguageHasACatalogueAndNoOther(t *testing.T) {
	for _, lang := range Langs() {
		assert.Contains(t, catalogues, lang, "%s has no catalogue", lang)
		assert.True(t, lang.Valid(), lang)
	}
	for lang := range catalogues {
		assert.Contains(t, Langs(), lang, "the catalogue %s is not a language of Langs", lang)
	}
}

func TestCataloguesHoldTheSameKeys(t *testing.T) {
	// Each catalogue against every other, so that a key added to one
	// language is missed in no other, whichever was written first.
	for _, a := range Langs() {
		for _, b := range Langs() {
			if a == b {
				continue
			}
			var missing []string
			for k := range catalogues[a] {
				if _, ok := catalogues[b][k]; !ok {
					missing = append(missing, string(k))
				}
			}
			slices.Sort(missing)
			assert.Empty(t, missing, "%s misses keys that %s has", b, a)
		}
	}
}

// verbRE matches a placeholder: %s, %[2]s, or %% (no placeholder).
var verbRE = regexp.MustCompile(`%(\[\d+\])?[^\[]|%$`)

// placeholders returns the placeholders of s in argument order ("1s", "2s"),
// and the verbs that are not allowed.
func placeholders(s string) (args []string, bad []string) {
	next := 1
	for _, m := range verbRE.FindAllString(s, -1) {
		if m == "%%" {
			continue
		}
		verb := m[len(m)-1:]
		if verb != "s" {
			bad = append(bad, m)
		}
		n := next
		if strings.HasPrefix(m, "%[") {
			v, err := strconv.Atoi(m[2:strings.IndexByte(m, ']')])
			if err != nil {
				bad = append(bad, m)
			}
			n = v
		}
		args = append(args, strconv.Itoa(n)+verb)
		next = n + 1
	}
	slices.SortFunc(args, func(a, b string) int { // numerically: 2s before 10s
		x, _ := strconv.Atoi(strings.TrimRight(a, "sdvq"))
		y, _ := strconv.Atoi(strings.TrimRight(b, "sdvq"))
		return x - y
	})
	return args, bad
}

func TestPlaceholdersAgreeBetweenLanguages(t *testing.T) {
	for name, k := range declaredKeys(t) {
		want, bad := placeholders(en[k])
		assert.Empty(t, bad, "en %s: only %%s placeholders", name)
		for i, a := range want {
			assert.Equal(t, strconv.Itoa(i+1)+"s", a, "en %s: placeholders must use every argument once", name)
		}
		for _, lang := range Langs() {
			got, bad := placeholders(catalogues[lang][k])
			assert.Empty(t, bad, "%s %s: only %%s placeholders", lang, name)
			assert.Equal(t, want, got, "%s %s: placeholders differ from English", lang, name)
			if len(got) == 0 {
				assert.NotContains(t, catalogues[lang][k], "%", "%s %s: a string without arguments is printed as is", lang, name)
			}
		}
	}
}

func TestPlaceholderParser(t *testing.T) {
	tests := []struct {
		s    string
		want []string
		bad  []string
	}{
		{"plain", nil, nil},
		{"%s and %s", []string{"1s", "2s"}, nil},
		{"%[2]s then %[1]s", []string{"1s", "2s"}, nil},
		{"100%% sure %s", []string{"1s"}, nil},
		{"%d", []string{"1d"}, []string{"%d"}},
		{"%v %q", []string{"1v", "2q"}, []string{"%v", "%q"}},
	}
	for _, tt := range tests {
		t.Run(tt.s, func(t *testing.T) {
			got, bad := placeholders(tt.s)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.bad, bad)
		})
	}
}

// plainPrefixes are the key names whose strings are plain text.
var plainPrefixes = []string{"Pop", "Btn", "Desc", "Bet", "Unit", "Noun", "Rank", "Field", "LangName"}

func isPlain(name string) bool {
	for _, p := range plainPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// htmlTagRE matches the tags the HTML strings may hold.
var htmlTagRE = regexp.MustCompile(`</?(b|i|code)>`)

func TestStringsAreValidPlainTextOrHTML(t *testing.T) {
	for name, k := range declaredKeys(t) {
		for _, lang := range Langs() {
			s := catalogues[lang][k]
			if isPlain(name) {
				assert.NotContains(t, s, "<", "%s %s is plain text", lang, name)
				assert.NotContains(t, s, ">", "%s %s is plain text", lang, name)
				assert.NotContains(t, s, "&", "%s %s is plain text", lang, name)
				continue
			}
			var open []string
			for _, tag := range htmlTagRE.FindAllString(s, -1) {
				if tag[1] == '/' {
					if assert.NotEmpty(t, open, "%s %s: %s closes nothing", lang, name, tag) {
						assert.Equal(t, tag[2:len(tag)-1], open[len(open)-1], "%s %s: tags nest", lang, name)
						open = open[:len(open)-1]
					}
					continue
				}
				open = append(open, tag[1:len(tag)-1])
			}
			assert.Empty(t, open, "%s %s: unclosed tags", lang, name)
			rest := htmlTagRE.ReplaceAllString(s, "")
			assert.NotContains(t, rest, "<", "%s %s: only <b>, <i> and <code>", lang, name)
			assert.NotContains(t, rest, ">", "%s %s: write > as &gt;", lang, name)
			assert.NotContains(t, rest, "&", "%s %s: write & as &amp;", lang, name)
		}
	}
}

// pluralForms are how many plural forms each language's rule chooses
// from, as a noun's catalogue string lists them.
var pluralForms = map[Lang]int{EN: 2, RU: 3, UK: 3}

func TestNounsHaveEveryPluralForm(t *testing.T) {
	for _, lang := range Langs() {
		assert.Contains(t, pluralRules, lang, "%s has no plural rule", lang)
		assert.Contains(t, pluralForms, lang, "%s has no count of plural forms", lang)
		seen := map[int]bool{}
		for n := int64(-200); n <= 200; n++ {
			seen[pluralForm(lang, n)] = true
		}
		assert.Len(t, seen, pluralForms[lang], "%s: the rule chooses every form and no other", lang)
		for f := range seen {
			assert.True(t, f >= 0 && f < pluralForms[lang], "%s: form %d", lang, f)
		}
	}
	for name, k := range declaredKeys(t) {
		if !strings.HasPrefix(name, "Noun") {
			continue
		}
		for _, lang := range Langs() {
			parts := strings.Split(catalogues[lang][k], "|")
			assert.Len(t, parts, pluralForms[lang], "%s %s", lang, name)
			for _, p := range parts {
				assert.NotEmpty(t, p, "%s %s", lang, name)
			}
		}
	}
}

// countedNounRE matches a placeholder followed by a noun whose form depends
// on the number before it (1 фишка, 2 фишки, 5 фишек; 1 фішка, 2 фішки,
// 5 фішок; 1 chip, 2 chips).
var countedNounRE = regexp.MustCompile(`%(\[\d+\])?s[ \x{00a0}]+(фиш|игрок|результат|стук|круг|колод|фіш|гравц|гравець|кол|chip|player|result|knock|circle|deck)`)

func TestCountedNounsAgreeWithTheirNumber(t *testing.T) {
	// A number put before such a noun would have one form for every
	// number; Count gives each number its own.
	for name, k := range declaredKeys(t) {
		for _, lang := range Langs() {
			assert.NotRegexp(t, countedNounRE, catalogues[lang][k], "%s %s: a number with a noun goes through Count", lang, name)
		}
	}
	for _, tt := range []struct {
		n    int64
		want map[Lang]string
	}{
		{1, map[Lang]string{EN: "Need at least 1\u00a0player.", RU: "Нужно хотя бы 1\u00a0игрок.", UK: "Потрібно щонайменше 1\u00a0гравець."}},
		{2, map[Lang]string{EN: "Need at least 2\u00a0players.", RU: "Нужно хотя бы 2\u00a0игрока.", UK: "Потрібно щонайменше 2\u00a0гравці."}},
		{5, map[Lang]string{EN: "Need at least 5\u00a0players.", RU: "Нужно хотя бы 5\u00a0игроков.", UK: "Потрібно щонайменше 5\u00a0гравців."}},
	} {
		inEveryLang(t, strconv.FormatInt(tt.n, 10), tt.want, func(l Lang) string { return T(l, PopNeedPlayers, Count(l, NounPlayers, tt.n)) })
	}
}

// inEveryLang asserts that got gives, in each language of Langs, what want
// holds for it; a language want has nothing for fails, so that a new
// language cannot pass a test that never looked at it.
func inEveryLang(t *testing.T, context string, want map[Lang]string, got func(Lang) string) {
	t.Helper()
	for _, l := range Langs() {
		w, ok := want[l]
		if assert.True(t, ok, "%s: no expectation in %s", context, l) {
			assert.Equal(t, w, got(l), "%s %s", l, context)
		}
	}
}

func TestT(t *testing.T) {
	assert.Equal(t, "Bet 10", T(EN, PopBet, "10"))
	assert.Equal(t, "Ставка 10", T(RU, PopBet, "10"))
	assert.Equal(t, "Ставка 10", T(UK, PopBet, "10"))
	assert.Equal(t, "Ще 🂠", T(UK, BtnHit))
	assert.Equal(t, "Досить ✋", T(UK, BtnStand))
	assert.Equal(t, "Bet 10", T(Lang("de"), PopBet, "10"), "an unknown language falls back to English")
	assert.Equal(t, "no.such.key", T(EN, Key("no.such.key")))
	assert.Equal(t, "This table has moved on.", T(EN, PopOutdated))
	assert.Equal(t, "English", Name(EN))
	assert.Equal(t, "Русский", Name(RU))
	assert.Equal(t, "Українська", Name(UK))
	assert.Equal(t, "English", Name(Lang("de")), "an unknown language is named as English")
}

// russianOnly and ukrainianOnly are the letters of one of the two
// alphabets that the other lacks.
const (
	russianOnly   = "ЁёЪъЫыЭэ"
	ukrainianOnly = "ҐґЄєІіЇї"
)

func TestUkrainianIsWrittenInUkrainian(t *testing.T) {
	// A string carried over from Russian, or pasted into the wrong
	// catalogue, gives itself away by a letter the other alphabet lacks.
	// Language names are the exception: each catalogue names each
	// language as its speakers write it.
	for name, k := range declaredKeys(t) {
		if strings.HasPrefix(name, "LangName") {
			continue
		}
		assert.False(t, strings.ContainsAny(uk[k], russianOnly), "uk %s has a Russian letter: %q", name, uk[k])
		assert.False(t, strings.ContainsAny(ru[k], ukrainianOnly), "ru %s has a Ukrainian letter: %q", name, ru[k])
	}
}

// apostropheRE matches a word with an apostrophe inside it (п’ять).
var apostropheRE = regexp.MustCompile(`\p{L}['’ʼ]\p{L}`)

func TestUkrainianApostropheIsTypographic(t *testing.T) {
	// Ukrainian typography writes the apostrophe as ’ (U+2019), and the
	// catalogue keeps to that one mark.
	var words []string
	for name, k := range declaredKeys(t) {
		for _, w := range apostropheRE.FindAllString(uk[k], -1) {
			assert.Equal(t, "’", string([]rune(w)[1]), "uk %s: %q", name, w)
			words = append(words, w)
		}
	}
	assert.NotEmpty(t, words, "п’ять is in the catalogue: the test must see it")
}

// utf16Len counts what Telegram counts: UTF-16 code units.
func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }
