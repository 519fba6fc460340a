package main

import (
	"debug/elf"
	"os/exec"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStaticBuild checks the binary that scripts/build-static.sh builds,
// the script the Dockerfile runs (the end-to-end tests run that same
// build): it is static and stripped, and stamped with its version.
func TestStaticBuild(t *testing.T) {
	bin := twentyoneBinary(t)
	if runtime.GOOS != "linux" {
		t.Skip("the image is Linux")
	}
	f, err := elf.Open(bin)
	require.NoError(t, err)
	defer f.Close()
	for _, p := range f.Progs {
		assert.NotEqual(t, elf.PT_INTERP, p.Type, "a static binary has no interpreter")
		assert.NotEqual(t, elf.PT_DYNAMIC, p.Type, "a static binary has no dynamic section")
	}
	assert.Nil(t, f.Section(".symtab"), "stripped (-s)")

	out, err := exec.Command(bin, "version").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Regexp(t, `^twentyone v9\.9\.9-test \(commit 0123abc, go1\.\d+.*, linux/`+runtime.GOARCH+`\)\n$`, string(out))

	out, err = exec.Command(bin, "-h").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "twentyone [run] [-config FILE]")
}
