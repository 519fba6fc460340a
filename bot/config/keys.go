package config

import (
	"bytes"
	"encoding"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/twentyone-bot/twentyone/game"
)

// The config file and the environment are applied by one walk over the
// Config struct's yaml tags: a key is a path of yaml tags, its environment
// variable is derived from the path, and its value is parsed from a string
// the same way wherever it came from. Adding a field to Config adds its key,
// its variable and its parsing at once. A field of type game.ChatSettings
// holds a key for each setting with a config key (settings.go).

// configKey is one leaf of the config: a key that takes a value.
type configKey struct {
	// Path is the key's path: "telegram.webhook.url".
	Path string
	// Env is its environment variable: "TWENTYONE_TELEGRAM_WEBHOOK_URL".
	Env string
	// index locates the field in Config.
	index []int
	typ   reflect.Type
	// setting is the setting the key sets, in the game.ChatSettings
	// index locates; nil for any other key.
	setting *game.Field
}

// child is a key under a mapping: a field of its struct, or a setting
// of a game.ChatSettings field.
type child struct {
	index   int
	setting *game.Field
}

// children returns the keys directly under a struct of type t, by name.
func children(t reflect.Type) map[string]child {
	out := make(map[string]child)
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type == settingsType {
			for _, s := range settingKeys() {
				out[s.Config] = child{index: i, setting: &s}
			}
			continue
		}
		if name := yamlName(f); name != "" {
			out[name] = child{index: i}
		}
	}
	return out
}

var (
	durationType        = reflect.TypeFor[time.Duration]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// isLeaf reports whether a field of type t takes a value rather than
// holding keys.
func isLeaf(t reflect.Type) bool {
	return t.Kind() != reflect.Struct || reflect.PointerTo(t).Implements(textUnmarshalerType)
}

// configKeys returns every key of Config, in the order of the struct.
func configKeys() []configKey {
	var keys []configKey
	var walk func(t reflect.Type, prefix string, index []int)
	walk = func(t reflect.Type, prefix string, index []int) {
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Type == settingsType {
				for _, s := range settingKeys() {
					path := prefix + s.Config
					keys = append(keys, configKey{Path: path, Env: envName(path), index: append(slices.Clone(index), i), typ: f.Type, setting: &s})
				}
				continue
			}
			name := yamlName(f)
			if name == "" {
				continue
			}
			path := prefix + name
			idx := append(slices.Clone(index), i)
			if isLeaf(f.Type) {
				keys = append(keys, configKey{Path: path, Env: envName(path), index: idx, typ: f.Type})
				continue
			}
			walk(f.Type, path+".", idx)
		}
	}
	walk(reflect.TypeFor[Config](), "", nil)
	return keys
}

func yamlName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" {
		return ""
	}
	return name
}

// envName returns the environment variable of a key path.
func envName(path string) string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(path, ".", "_"))
}

// linkVariable reports whether a TWENTYONE_ variable is one that
// Kubernetes (for a Service named twentyone: TWENTYONE_SERVICE_HOST,
// TWENTYONE_PORT_9121_TCP, ...) or Docker's legacy links (TWENTYONE_NAME,
// TWENTYONE_ENV_...) set on their own. Such a variable names no key and is
// no typo of one: refusing it would stop the bot where its operator never
// wrote it.
func linkVariable(name string) bool {
	rest := strings.TrimPrefix(name, EnvPrefix)
	return rest == "PORT" || rest == "NAME" ||
		strings.HasPrefix(rest, "PORT_") || strings.HasPrefix(rest, "SERVICE_") || strings.HasPrefix(rest, "ENV_")
}

// applyEnv applies the TWENTYONE_* variables of environ. A variable that
// names no key is an error, unless a container platform sets it (see
// linkVariable); an empty one is ignored, as if unset.
func applyEnv(cfg *Config, environ []string, src sources) error {
	byEnv := make(map[string]configKey)
	for _, k := range configKeys() {
		byEnv[k.Env] = k
	}
	root := reflect.ValueOf(cfg).Elem()
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, EnvPrefix) {
			continue
		}
		k, ok := byEnv[name]
		if !ok && linkVariable(name) {
			continue
		}
		if !ok {
			return &Error{Source: name, Msg: "no such config key (a TWENTYONE_ variable is TWENTYONE_ and a key path upper-cased with dots as underscores, such as TWENTYONE_TELEGRAM_TOKEN)"}
		}
		if value == "" {
			continue
		}
		var err error
		if k.setting != nil {
			err = setSetting(root.FieldByIndex(k.index), *k.setting, value)
		} else {
			err = setString(root.FieldByIndex(k.index), value, k.Path == "telegram.token")
		}
		if err != nil {
			return &Error{Key: k.Path, Source: name, Msg: err.Error(), Err: err}
		}
		src[k.Path] = name
	}
	return nil
}

// applyYAML applies a YAML config file. Unknown keys, keys given twice and
// values of the wrong shape are errors; a key given as null keeps its
// default.
func applyYAML(cfg *Config, data []byte, file string, src sources) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // an empty file
		}
		return &Error{Source: file, Msg: err.Error(), Err: err}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return &Error{Source: file, Msg: "holds more than one YAML document"}
	}
	if len(doc.Content) == 0 {
		return nil
	}
	w := yamlWalker{file: file, src: src}
	return w.apply(doc.Content[0], reflect.ValueOf(cfg).Elem(), "")
}

type yamlWalker struct {
	file string
	src  sources
}

func (w yamlWalker) err(n *yaml.Node, path, format string, args ...any) error {
	return &Error{Key: path, Source: fmt.Sprintf("%s line %d", w.file, n.Line), Msg: fmt.Sprintf(format, args...)}
}

func (w yamlWalker) apply(n *yaml.Node, v reflect.Value, path string) error {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil // keep the default
	}
	t := v.Type()
	switch {
	case !isLeaf(t):
		if n.Kind != yaml.MappingNode {
			return w.err(n, path, "want a mapping of keys, not %s", describeNode(n))
		}
		return w.mapping(n, v, path)
	case t.Kind() == reflect.Slice && !reflect.PointerTo(t).Implements(textUnmarshalerType):
		if n.Kind != yaml.SequenceNode {
			return w.err(n, path, "want a list, such as [1, 2], not %s", describeNode(n))
		}
		s := reflect.MakeSlice(t, len(n.Content), len(n.Content))
		for i, item := range n.Content {
			for item.Kind == yaml.AliasNode {
				item = item.Alias
			}
			if item.Kind != yaml.ScalarNode {
				return w.err(item, path, "item %d: want a single value, not %s", i+1, describeNode(item))
			}
			if err := setString(s.Index(i), item.Value, false); err != nil {
				return w.err(item, path, "item %d: %v", i+1, err)
			}
		}
		v.Set(s)
	default:
		if n.Kind != yaml.ScalarNode {
			return w.err(n, path, "want a single value, not %s", describeNode(n))
		}
		if err := setString(v, n.Value, path == "telegram.token"); err != nil {
			return w.err(n, path, "%v", err)
		}
	}
	w.src[path] = fmt.Sprintf("%s line %d", w.file, n.Line)
	return nil
}

func (w yamlWalker) mapping(n *yaml.Node, v reflect.Value, path string) error {
	fields := children(v.Type())
	seen := make(map[string]bool)
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind != yaml.ScalarNode {
			return w.err(kn, path, "a key must be a plain name, not %s", describeNode(kn))
		}
		if kn.Value == "<<" {
			return w.err(kn, path, "merge keys (<<) are not supported")
		}
		key := kn.Value
		if path != "" {
			key = path + "." + kn.Value
		}
		c, ok := fields[kn.Value]
		if !ok {
			return w.err(kn, key, "unknown key")
		}
		if seen[kn.Value] {
			return w.err(kn, key, "given twice")
		}
		seen[kn.Value] = true
		var err error
		if c.setting != nil {
			err = w.setting(vn, v.Field(c.index), *c.setting, key)
		} else {
			err = w.apply(vn, v.Field(c.index), key)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// setting applies the value of a setting's key to the settings v holds.
func (w yamlWalker) setting(n *yaml.Node, v reflect.Value, f game.Field, path string) error {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil // keep the default
	}
	if n.Kind != yaml.ScalarNode {
		return w.err(n, path, "want a single value, not %s", describeNode(n))
	}
	if err := setSetting(v, f, n.Value); err != nil {
		return w.err(n, path, "%v", err)
	}
	w.src[path] = fmt.Sprintf("%s line %d", w.file, n.Line)
	return nil
}

func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("%q", n.Value)
	}
	return "an empty value"
}

// setString parses s into v, by v's type: a string, a bool, a whole number,
// a duration, a comma-separated list of those, or a TextUnmarshaler. The
// error does not quote s when secret.
func setString(v reflect.Value, s string, secret bool) error {
	quoted := strconv.Quote(s)
	if secret {
		quoted = "the value"
	}
	if u, ok := v.Addr().Interface().(encoding.TextUnmarshaler); ok {
		return u.UnmarshalText([]byte(s))
	}
	t := v.Type()
	switch {
	case t == durationType:
		d, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("want a duration with a unit, such as 60s or 10m, not %s", quoted)
		}
		v.SetInt(int64(d))
	case t.Kind() == reflect.String:
		v.SetString(s)
	case t.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("want true or false, not %s", quoted)
		}
		v.SetBool(b)
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, t.Bits())
		if err != nil {
			return fmt.Errorf("want a whole number, not %s", quoted)
		}
		v.SetInt(n)
	case t.Kind() == reflect.Slice:
		var parts []string
		for p := range strings.SplitSeq(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				parts = append(parts, p)
			}
		}
		list := reflect.MakeSlice(t, len(parts), len(parts))
		for i, p := range parts {
			if err := setString(list.Index(i), p, secret); err != nil {
				return fmt.Errorf("item %d: %w", i+1, err)
			}
		}
		v.Set(list)
	default:
		// A Config field of a type this walk cannot parse: a bug, caught by
		// the tests that set every key.
		return fmt.Errorf("cannot set a %s", t)
	}
	return nil
}
