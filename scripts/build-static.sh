#!/bin/sh
# Builds the static twentyone binary exactly as the Docker image does: the
# Dockerfile's build stage runs this script, and so does the test
# TestStaticBuild (cmd/twentyone/build_test.go) in CI.
#
#   scripts/build-static.sh [OUT]        (default OUT: ./twentyone)
#
# VERSION and COMMIT, if set, are stamped into the binary (twentyone version);
# otherwise they come from git when there is a repository: the tag the commit
# is at (with no tag, nothing is stamped and the binary reports the version of
# its source, the newest in CHANGELOG.md), and the commit, else "unknown".
# GOOS and GOARCH are passed through, for cross builds.
set -eu

out=${1:-twentyone}
case $out in
/*) ;;
*) out=$(pwd)/$out ;;
esac
cd "$(dirname "$0")/.."

if [ -z "${VERSION:-}" ]; then
	VERSION=$(git describe --tags --exact-match --dirty 2>/dev/null || true)
fi
if [ -z "${COMMIT:-}" ]; then
	COMMIT=$(git rev-parse HEAD 2>/dev/null || echo unknown)
fi

CGO_ENABLED=0 go build \
	-trimpath \
	-buildvcs=false \
	-ldflags "-s -w ${VERSION:+-X main.version=$VERSION} -X main.commit=$COMMIT" \
	-o "$out" \
	./cmd/twentyone
