#!/usr/bin/env bash
# Builds the Docker image as README.md says and tests it (.ci/run calls this
# after the test suite; it runs anywhere as root, or with sudo):
#
#   scripts/ci-docker.sh
#
# 1. install: Debian's docker.io where there is no engine nor dockerd,
#    docker-compose where there is no Compose at all, busybox-static when a
#    stand-in needs it (apt-get, with sudo when not root);
# 2. engine: the one `docker info` answers, else a dockerd of our own in a
#    temporary directory, stopped by its pid at the end (with all it holds);
# 3. base images: those the Dockerfile and README's restore recipe name
#    (golang:1.26, gcr.io/distroless/static-debian12:nonroot, busybox),
#    pulled when missing; where no registry answers, local stand-ins under
#    the same names: the builder from this machine's Go toolchain, the
#    runtime a root filesystem like distroless's (passwd and group with
#    nonroot = 65532, CA certificates, zoneinfo), busybox from Debian's
#    busybox-static;
# 4. build: README's "With Docker" build command, read from README.md and
#    run as it is written, on the Dockerfile as it is; the machine's local
#    CAs (/usr/local/share/ca-certificates, where TLS may be intercepted)
#    go into scripts/build-ca/ for it, the way README documents;
# 5. test: go test -run TestDockerImage ./cmd/twentyone with the image's
#    name (cmd/twentyone/docker_test.go), which runs README's run, backup,
#    restore and Compose recipes against our Bot API server; -parallel 8,
#    as its checks wait on containers (the health check's first 30 s), not
#    on the two cores.
#
# At its end it removes the containers, volumes and networks the test made
# (by the run's name prefix), the CA files it put, and its own dockerd. It
# prints how long each phase took.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# The names the Dockerfile's FROM lines and README's restore recipe use.
builder_image=golang:1.26
runtime_image=gcr.io/distroless/static-debian12:nonroot
busybox_image=busybox

work=$(mktemp -d "${TMPDIR:-/tmp}/twentyone-ci-docker.XXXXXX")
run_id=ci$(date +%s)$$
export TWENTYONE_DOCKER_RUN=$run_id

sudo=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
	sudo="sudo"
fi

say() { printf '%s\n' "--- ci-docker: $*"; }
die() {
	printf '%s\n' "ci-docker: $*" >&2
	exit 1
}

# Phase timing: phase NAME starts a phase and ends the one before.
timings=""
phase_name=""
phase_start=0
now() { date +%s.%N; }
phase_end() {
	if [ -n "$phase_name" ]; then
		local took
		took=$(awk -v a="$phase_start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
		say "$phase_name took ${took}s"
		timings="$timings$(printf '%-12s %7ss' "$phase_name" "$took")"$'\n'
		phase_name=""
	fi
}
phase() {
	phase_end
	phase_name=$1
	phase_start=$(now)
	say "$1"
}
script_start=$(now)

# Cleanup, whatever happened.
own_dockerd_pid=""
ca_added=()
cleanup() {
	local code=$?
	set +e
	phase_end
	if docker info >/dev/null 2>&1; then
		local ids
		mapfile -t ids < <(docker ps -aq --filter "name=twentyone-test-$run_id")
		if [ ${#ids[@]} -gt 0 ]; then
			say "removing the containers the test left: ${ids[*]}"
			docker rm -f "${ids[@]}" >/dev/null
		fi
		mapfile -t ids < <(docker volume ls -q --filter "name=twentyone-test-$run_id")
		if [ ${#ids[@]} -gt 0 ]; then
			say "removing the volumes the test left: ${ids[*]}"
			docker volume rm -f "${ids[@]}" >/dev/null
		fi
		mapfile -t ids < <(docker network ls -q --filter "name=twentyone-test-$run_id")
		if [ ${#ids[@]} -gt 0 ]; then
			say "removing the networks the test's Compose project left: ${ids[*]}"
			docker network rm "${ids[@]}" >/dev/null
		fi
		# Compose's volume has the fixed name README gives: remove it only
		# when the test's own project made it.
		if [ "$(docker volume inspect -f '{{index .Labels "com.docker.compose.project"}}' twentyone-data 2>/dev/null)" = "twentyone-test-$run_id-compose" ]; then
			say "removing the volume twentyone-data the test's Compose project left"
			docker volume rm -f twentyone-data >/dev/null
		fi
	fi
	for f in "${ca_added[@]}"; do
		rm -f "$f"
	done
	if [ -n "$own_dockerd_pid" ] && $sudo kill -0 "$own_dockerd_pid" 2>/dev/null; then
		say "stopping our dockerd (pid $own_dockerd_pid)"
		$sudo kill -TERM "$own_dockerd_pid" 2>/dev/null
		for _ in $(seq 1 60); do
			$sudo kill -0 "$own_dockerd_pid" 2>/dev/null || break
			sleep 0.5
		done
		if $sudo kill -0 "$own_dockerd_pid" 2>/dev/null; then
			say "dockerd (pid $own_dockerd_pid) still runs 30 s after SIGTERM: SIGKILL"
			$sudo kill -KILL "$own_dockerd_pid"
		fi
	fi
	$sudo rm -rf "$work"
	total=$(awk -v a="$script_start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
	say "times:"
	printf '%s' "$timings"
	printf '%-12s %7ss\n' total "$total"
	exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

apt_updated=""
apt_install() {
	if [ -z "$apt_updated" ]; then
		$sudo apt-get update
		apt_updated=1
	fi
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "$@"
}

compose_available() {
	docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null 2>&1
}

# --- 1. install
phase install
missing=""
if ! docker info >/dev/null 2>&1 && ! command -v dockerd >/dev/null 2>&1; then
	missing="$missing docker.io"
fi
if ! command -v docker >/dev/null 2>&1; then
	missing="$missing docker.io"
fi
if ! compose_available; then
	missing="$missing docker-compose"
fi
if [ -n "$missing" ]; then
	# shellcheck disable=SC2086 # one word a package
	apt_install $missing
else
	say "nothing to install"
fi
docker --version
if docker compose version >/dev/null 2>&1; then
	docker compose version
else
	docker-compose version --short
fi

# --- 2. engine
phase engine
if docker info >/dev/null 2>&1; then
	say "using the running engine ($(docker info -f '{{.ServerVersion}}, data root {{.DockerRootDir}}'))"
else
	mkdir -p "$work/root" "$work/exec"
	sock="$work/docker.sock"
	$sudo dockerd --data-root "$work/root" --exec-root "$work/exec" \
		--pidfile "$work/dockerd.pid" --host "unix://$sock" --group "$(id -gn)" \
		>"$work/dockerd.log" 2>&1 &
	# dockerd's pid, or sudo's, which passes the signal on: stopped at the
	# end, even if it never answers.
	own_dockerd_pid=$!
	export DOCKER_HOST="unix://$sock"
	for _ in $(seq 1 120); do
		if docker info >/dev/null 2>&1; then
			break
		fi
		if ! kill -0 "$own_dockerd_pid" 2>/dev/null; then
			cat "$work/dockerd.log" >&2
			die "dockerd exited before it answered"
		fi
		sleep 0.5
	done
	if ! docker info >/dev/null 2>&1; then
		cat "$work/dockerd.log" >&2
		die "dockerd did not answer within 60 s"
	fi
	say "started dockerd $(docker info -f '{{.ServerVersion}}') (pid $own_dockerd_pid, data root $work/root)"
fi

# --- 3. base images
phase "base images"

# The machine's CA bundle, and what a stand-in gets: Debian's own CAs when
# the machine adds local ones (those go into scripts/build-ca/ below, as a
# real golang image behind this machine's proxy would need them), else all.
local_cas=$(find /usr/local/share/ca-certificates -type f -name '*.crt' 2>/dev/null | sort || true)
standin_cas() {
	if [ -n "$local_cas" ] && [ -d /usr/share/ca-certificates/mozilla ]; then
		cat /usr/share/ca-certificates/mozilla/*.crt
	else
		cat /etc/ssl/certs/ca-certificates.crt
	fi
}

static_busybox() {
	if ! dpkg -s busybox-static >/dev/null 2>&1; then
		apt_install busybox-static >&2
	fi
	dpkg -L busybox-static | grep '/bin/busybox$' | head -1
}

# busybox_into DIR: a static busybox as DIR/bin/busybox, its applets as links.
busybox_into() {
	local bb a
	bb=$(static_busybox)
	mkdir -p "$1/bin"
	cp "$bb" "$1/bin/busybox"
	for a in $("$bb" --list); do
		[ "$a" = busybox ] || ln -s busybox "$1/bin/$a"
	done
}

standin_label="twentyone.ci-docker.stand-in"
std_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

standin_golang() {
	local goroot version stage
	goroot=$(go env GOROOT)
	version=$(go env GOVERSION)
	case $version in
	go1.26 | go1.26.*) ;;
	*) die "a stand-in for $builder_image needs Go 1.26 here, not $version" ;;
	esac
	stage="$work/golang"
	busybox_into "$stage"
	mkdir -p "$stage/etc/ssl/certs" "$stage/tmp" "$stage/root" "$stage/go/bin" "$stage/go/src"
	chmod 1777 "$stage/tmp"
	chmod -R 777 "$stage/go"
	printf 'root:x:0:0:root:/root:/bin/sh\n' >"$stage/etc/passwd"
	printf 'root:x:0:\n' >"$stage/etc/group"
	standin_cas >"$stage/etc/ssl/certs/ca-certificates.crt"
	# The toolchain where golang:1.26 has it (streamed from there when it is
	# there already, as on Go's own binary distribution).
	local from=(-C / usr/local/go)
	if [ "$goroot" != /usr/local/go ]; then
		mkdir -p "$stage/usr/local"
		cp -a "$goroot" "$stage/usr/local/go"
		from=()
	fi
	# The environment as golang:1.26 sets it; of its Debian userland only a
	# shell and the CA bundle.
	tar -c --owner=0 --group=0 --numeric-owner -C "$stage" . "${from[@]}" |
		docker import \
			-c "ENV PATH=/go/bin:/usr/local/go/bin:$std_path" \
			-c "ENV GOLANG_VERSION=${version#go}" \
			-c 'ENV GOPATH=/go' \
			-c 'ENV GOTOOLCHAIN=local' \
			-c 'WORKDIR /go' \
			-c "LABEL $standin_label=\"$builder_image from this machine's $version\"" \
			- "$builder_image" >/dev/null
}

standin_runtime() {
	local ctx="$work/runtime"
	mkdir -p "$ctx/rootfs/etc/ssl/certs" "$ctx/rootfs/tmp" "$ctx/rootfs/usr/share" "$ctx/home/nonroot"
	chmod 1777 "$ctx/rootfs/tmp"
	cat >"$ctx/rootfs/etc/passwd" <<-'EOF'
		root:x:0:0:root:/root:/sbin/nologin
		nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin
		nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin
	EOF
	cat >"$ctx/rootfs/etc/group" <<-'EOF'
		root:x:0:
		nobody:x:65534:
		tty:x:5:
		staff:x:50:
		nonroot:x:65532:
	EOF
	printf 'hosts: files dns\n' >"$ctx/rootfs/etc/nsswitch.conf"
	standin_cas >"$ctx/rootfs/etc/ssl/certs/ca-certificates.crt"
	if [ -d /usr/share/zoneinfo ]; then
		cp -a /usr/share/zoneinfo "$ctx/rootfs/usr/share/"
	fi
	cat >"$ctx/Dockerfile" <<-EOF
		FROM scratch
		COPY rootfs/ /
		COPY --chown=65532:65532 home/ /home/
		ENV PATH=$std_path SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt
		USER 65532
		WORKDIR /home/nonroot
		LABEL $standin_label="$runtime_image: passwd, group, CA certificates, zoneinfo"
	EOF
	docker build -q -t "$runtime_image" "$ctx" >/dev/null
}

standin_busybox() {
	local stage="$work/busybox"
	busybox_into "$stage"
	mkdir -p "$stage/etc" "$stage/tmp" "$stage/root"
	chmod 1777 "$stage/tmp"
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/home:/bin/false\n' >"$stage/etc/passwd"
	printf 'root:x:0:\nnobody:x:65534:\n' >"$stage/etc/group"
	tar -c --owner=0 --group=0 --numeric-owner -C "$stage" . |
		docker import -c "ENV PATH=$std_path" -c 'CMD ["sh"]' \
			-c "LABEL $standin_label=\"$busybox_image from Debian's busybox-static\"" \
			- "$busybox_image" >/dev/null
}

# base IMAGE MAKER: the image as it is here, else pulled, else made.
base() {
	local what
	if docker image inspect "$1" >/dev/null 2>&1; then
		what=$(docker image inspect -f "{{index .Config.Labels \"$standin_label\"}}" "$1")
		say "$1: here already${what:+ (a stand-in: $what)}"
	elif timeout 300 docker pull -q "$1" >/dev/null 2>"$work/pull.err"; then
		say "$1: pulled"
	else
		say "$1: cannot be pulled ($(tail -1 "$work/pull.err")): building a stand-in"
		"$2"
	fi
}
base "$builder_image" standin_golang
base "$runtime_image" standin_runtime
base "$busybox_image" standin_busybox

# --- 4. build
phase build
# The command as README.md's "With Docker" block has it: the line that
# starts with "docker build" in the first code block of that section.
build_cmd=$(awk '
	/^#+ / { section = ($0 == "### With Docker"); block = 0; next }
	section && /^```/ { if (block) exit; block = 1; next }
	section && block && /^docker build / { print; exit }
' README.md)
[ -n "$build_cmd" ] || die "README.md's \"### With Docker\" section has no \"docker build\" line in its first code block"
image=$(printf '%s\n' "$build_cmd" | sed -n 's/.* -t \([^ ]*\) .*/\1/p')
[ -n "$image" ] || die "README.md's build command names no image (-t NAME): $build_cmd"
for ca in $local_cas; do
	dest="scripts/build-ca/ci-docker-$(basename "$ca")"
	if [ ! -e "$dest" ]; then
		cp "$ca" "$dest"
		ca_added+=("$root/$dest")
	fi
done
if [ ${#ca_added[@]} -gt 0 ]; then
	say "the machine's local CAs, for the build: ${ca_added[*]#"$root"/}"
fi
say "README.md's command: $build_cmd"
sh -c "$build_cmd"
for f in "${ca_added[@]}"; do
	rm -f "$f"
done
ca_added=()
docker image inspect -f "$image: {{.Id}}, {{.Size}} bytes, version label {{index .Config.Labels \"org.opencontainers.image.version\"}}" "$image"
docker image ls "$image"

# --- 5. test
phase test
TWENTYONE_DOCKER_IMAGE=$image go test -race -count=1 -v -parallel 8 -run TestDockerImage ./cmd/twentyone
