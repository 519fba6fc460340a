package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Set by the linker: -ldflags "-X main.version=v1.2.3 -X main.commit=abc123"
// (scripts/build-static.sh does). When empty, the build info Go records
// stands in.
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
// recorded in the build info: the module version and the VCS revision.
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
		v.Version = "dev"
	}
	if v.Commit == "" {
		v.Commit = "unknown"
	}
	return v
}
