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
)

// declaredKeys parses keys.go and returns every Key constant: name to value.
func declaredKeys(t *testing.T) map[string]Key {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "keys.go", nil, 0)
	require.NoError(t, err)
	keys := map[string]Key{}
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
	require.NotEmpty(t, keys)
	return keys
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

func TestNounsHaveEveryPluralForm(t *testing.T) {
	forms := map[Lang]int{EN: 2, RU: 3}
	for name, k := range declaredKeys(t) {
		if !strings.HasPrefix(name, "Noun") {
			continue
		}
		for _, lang := range Langs() {
			parts := strings.Split(catalogues[lang][k], "|")
			assert.Len(t, parts, forms[lang], "%s %s", lang, name)
			for _, p := range parts {
				assert.NotEmpty(t, p, "%s %s", lang, name)
			}
		}
	}
}

// countedNounRE matches a placeholder followed by a noun whose form depends
// on the number before it (1 фишка, 2 фишки, 5 фишек; 1 chip, 2 chips).
var countedNounRE = regexp.MustCompile(`%(\[\d+\])?s[ \x{00a0}]+(фиш|игрок|результат|стук|круг|колод|chip|player|result|knock|circle|deck)`)

func TestCountedNounsAgreeWithTheirNumber(t *testing.T) {
	// A number put before such a noun would have one form for every
	// number; Count gives each number its own.
	for name, k := range declaredKeys(t) {
		for _, lang := range Langs() {
			assert.NotRegexp(t, countedNounRE, catalogues[lang][k], "%s %s: a number with a noun goes through Count", lang, name)
		}
	}
	for _, tt := range []struct {
		n      int64
		en, ru string
	}{
		{1, "Need at least 1\u00a0player.", "Нужно хотя бы 1\u00a0игрок."},
		{2, "Need at least 2\u00a0players.", "Нужно хотя бы 2\u00a0игрока."},
		{5, "Need at least 5\u00a0players.", "Нужно хотя бы 5\u00a0игроков."},
	} {
		assert.Equal(t, tt.en, T(EN, PopNeedPlayers, Count(EN, NounPlayers, tt.n)))
		assert.Equal(t, tt.ru, T(RU, PopNeedPlayers, Count(RU, NounPlayers, tt.n)))
	}
}

func TestT(t *testing.T) {
	assert.Equal(t, "Bet 10", T(EN, PopBet, "10"))
	assert.Equal(t, "Ставка 10", T(RU, PopBet, "10"))
	assert.Equal(t, "Bet 10", T(Lang("de"), PopBet, "10"), "an unknown language falls back to English")
	assert.Equal(t, "no.such.key", T(EN, Key("no.such.key")))
	assert.Equal(t, "This table has moved on.", T(EN, PopOutdated))
	assert.Equal(t, "English", Name(EN))
	assert.Equal(t, "Русский", Name(RU))
}

// utf16Len counts what Telegram counts: UTF-16 code units.
func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }
