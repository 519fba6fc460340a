package main

import (
	"debug/elf"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStaticBuild builds the binary with the script the Dockerfile runs and
// checks that it is static and that its version subcommand runs.
func TestStaticBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the image is Linux")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	bin := filepath.Join(t.TempDir(), "twentyone")
	build := exec.Command("sh", filepath.Join("..", "..", "scripts", "build-static.sh"), bin)
	build.Env = append(build.Environ(), "VERSION=v9.9.9-test", "COMMIT=0123abc")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)

	f, err := elf.Open(bin)
	require.NoError(t, err)
	defer f.Close()
	for _, p := range f.Progs {
		assert.NotEqual(t, elf.PT_INTERP, p.Type, "a static binary has no interpreter")
		assert.NotEqual(t, elf.PT_DYNAMIC, p.Type, "a static binary has no dynamic section")
	}
	assert.Nil(t, f.Section(".symtab"), "stripped (-s)")

	out, err = exec.Command(bin, "version").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Regexp(t, `^twentyone v9\.9\.9-test \(commit 0123abc, go1\.\d+.*, linux/`+runtime.GOARCH+`\)\n$`, string(out))

	out, err = exec.Command(bin, "-h").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "twentyone [run] [-config FILE]")
}
