package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

// release is the version of this source: the newest release in
// CHANGELOG.md. A binary built without a stamped version reports it.
const release = "1.0.0"

// Set by the linker: -ldflags "-X main.version=v1.2.3 -X main.commit=abc123"
// (scripts/build-static.sh does, from a git tag). When empty, the build
// info Go records stands in, and then release.
var (
	version string
	commit  string
)

// Version describes the running binary.
type Version struct {
	Version   string
	Commit    string
	GoVersion string
	Platform  string
}

// String is the line `twentyone version` prints.
func (v Version) String() string {
	return fmt.Sprintf("twentyone %s (commit %s, %s, %s)", v.Version, v.Commit, v.GoVersion, v.Platform)
}

// buildVersion returns the version set by the linker, or else the one
// recorded in the build info (the module version and the VCS revision),
// or else release.
func buildVersion() Version {
	v := Version{Version: version, Commit: commit, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info, ok := debug.ReadBuildInfo(); ok {
		if v.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v.Version = info.Main.Version
		}
		if v.Commit == "" {
			var rev, modified string
			for _, s := range info.Settings {
				switch s.Key {
				case "vcs.revision":
					rev = s.Value
				case "vcs.modified":
					modified = s.Value
				}
			}
			if rev != "" {
				v.Commit = rev
				if modified == "true" {
					v.Commit += "-dirty"
				}
			}
		}
	}
	if v.Version == "" {
		v.Version = release
	}
	if v.Commit == "" {
		v.Commit = "unknown"
	}
	return v
}

func (c *CLI) version(_ context.Context, args []string) error {
	f := c.newFlags("version", "version", "Prints the version, the commit and the Go version the binary was built with.", false)
	if err := f.parse(args); err != nil {
		return err
	}
	fmt.Fprintln(c.Stdout, buildVersion())
	return nil
}
