package main

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReleaseIsTheChangelogs: the version a binary reports when none was
// stamped is the newest release of CHANGELOG.md.
func TestReleaseIsTheChangelogs(t *testing.T) {
	text, err := os.ReadFile("../../CHANGELOG.md")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$`).FindSubmatch(text)
	require.NotNil(t, m, "CHANGELOG.md names a release")
	assert.Equal(t, string(m[1]), release)
}

// TestUnstampedReportsTheRelease: a build with no version stamped reports
// the release, not "dev".
func TestUnstampedReportsTheRelease(t *testing.T) {
	old := version
	t.Cleanup(func() { version = old })
	version = ""
	assert.Equal(t, release, buildVersion().Version)
}
