package main

// Helpers of the Docker image's test (docker_test.go): the docker and
// Compose commands, README.md's recipes read from README.md itself, the
// address containers reach this host at, and containers of the image
// running against our Bot API server there.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

// Bounds of the Docker test's waits.
const (
	// commandLimit bounds one docker or Compose command.
	commandLimit = 2 * time.Minute
	// healthLimit bounds the wait for "healthy": the image's first health
	// check runs 30 s (its interval) after the start.
	healthLimit = 100 * time.Second
)

// dockerEnv is what the checks of one image share.
type dockerEnv struct {
	image   string
	prefix  string // of every container, volume and Compose project the test makes
	gateway string // this host's address on Docker's bridge, which containers reach
	recipes recipes
}

// newDockerEnv returns the environment of the image TWENTYONE_DOCKER_IMAGE
// names, and skips the test without one. It fails when the engine does
// not answer or a container cannot reach this host.
func newDockerEnv(t *testing.T) *dockerEnv {
	t.Helper()
	image := os.Getenv("TWENTYONE_DOCKER_IMAGE")
	if image == "" {
		t.Skip("TWENTYONE_DOCKER_IMAGE is not set: scripts/ci-docker.sh builds the image and sets it")
	}
	run := os.Getenv("TWENTYONE_DOCKER_RUN")
	if run == "" {
		run = fmt.Sprintf("go%d", time.Now().UnixNano()%1e9)
	}
	d := &dockerEnv{image: image, prefix: "twentyone-test-" + run, recipes: readRecipes(t)}
	docker(t, "image", "inspect", "-f", "{{.Id}}", image)
	d.gateway = bridgeGateway(t)

	// A container reaches our Bot API server here, or nothing below can work.
	srv := d.botAPI(t)
	code, out, errOut := runCommand(t, "", nil, "docker", "run", "--rm", "busybox",
		"wget", "-q", "-O", "/dev/null", fmt.Sprintf(srv.Endpoint(), srv.Token(), "getMe"))
	require.Zero(t, code, "a container cannot reach our Bot API server at %s (is a firewall dropping what comes in from Docker's bridge?): %s%s", srv.URL(), out, errOut)
	srv.Close()
	return d
}

// name returns a name for something the test makes, unique to this run.
func (d *dockerEnv) name(what string) string { return d.prefix + "-" + what }

// bridgeGateway returns the address of this host on Docker's default
// bridge network: the network's gateway, else the bridge interface's
// IPv4 address (Debian's dockerd 20.10 records no gateway).
func bridgeGateway(t *testing.T) string {
	t.Helper()
	out := docker(t, "network", "inspect", "bridge", "-f",
		`{{range .IPAM.Config}}{{.Gateway}} {{end}}|{{index .Options "com.docker.network.bridge.name"}}`)
	gateways, bridge, _ := strings.Cut(out, "|")
	for _, g := range strings.Fields(gateways) {
		if ip := net.ParseIP(g); ip != nil && ip.To4() != nil {
			return g
		}
	}
	if bridge == "" {
		bridge = "docker0"
	}
	iface, err := net.InterfaceByName(bridge)
	require.NoError(t, err, "Docker's bridge %q: the test must run on the engine's host", bridge)
	addrs, err := iface.Addrs()
	require.NoError(t, err)
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok && ipn.IP.To4() != nil {
			return ipn.IP.String()
		}
	}
	t.Fatalf("Docker's bridge %q has no IPv4 address", bridge)
	return ""
}

// botAPI starts our Bot API server where containers reach it, for the
// test.
func (d *dockerEnv) botAPI(t *testing.T) *telegramtest.Server {
	t.Helper()
	srv := telegramtest.New()
	require.NoError(t, srv.Listen(net.JoinHostPort(d.gateway, "0")))
	t.Cleanup(srv.Close)
	return srv
}

// runCommand runs name args in dir (the test's working directory when
// empty) with the environment plus env, and returns its exit code, stdout
// and stderr. It fails the test if the command cannot start or runs past
// commandLimit.
func runCommand(t *testing.T, dir string, env []string, name string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	require.NoError(t, ctx.Err(), "%s %s did not end within %s", name, strings.Join(args, " "), commandLimit)
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		return ee.ExitCode(), out.String(), errOut.String()
	}
	require.NoError(t, err, "%s %s", name, strings.Join(args, " "))
	return 0, out.String(), errOut.String()
}

// docker runs docker args, requires it to succeed and returns its stdout
// without the surrounding space.
func docker(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := runCommand(t, "", nil, "docker", args...)
	require.Zero(t, code, "docker %s: %s%s", strings.Join(args, " "), out, errOut)
	return strings.TrimSpace(out)
}

// dockerPoll calls cond every quarter second until it holds; the test
// fails if it does not within limit.
func dockerPoll(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, limit)
		}
		<-tick.C
	}
}

// recipes are README.md's Docker commands, as written there.
type recipes struct {
	build   string     // the "docker build" line (scripts/ci-docker.sh runs it)
	run     []string   // the "docker run" command of "With Docker", as arguments
	backup  [][]string // "docker exec ... backup" and "docker cp", as arguments
	restore string     // the "docker run ... busybox" shell line of the restore
}

// README.md's placeholders and names that the test's commands replace.
const (
	readmeToken     = "TWENTYONE_TELEGRAM_TOKEN=123456789:AAH..."
	readmeContainer = "twentyone"
	readmeVolume    = "twentyone-data:/data"
	readmePort      = "127.0.0.1:9121:9121"
	readmeImage     = "twentyone"
)

// readRecipes reads the commands from README.md's code blocks: those of
// "### With Docker" and "## Backup and restore".
func readRecipes(t *testing.T) recipes {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	var r recipes
	for _, line := range codeLines(string(raw), "### With Docker") {
		switch {
		case strings.HasPrefix(line, "docker build "):
			r.build = line
		case strings.HasPrefix(line, "docker run "):
			r.run = plainArgs(t, line)
		}
	}
	require.NotEmpty(t, r.build, "README.md's With Docker has a docker build command")
	require.NotEmpty(t, r.run, "README.md's With Docker has a docker run command")
	for _, line := range codeLines(string(raw), "## Backup and restore") {
		switch {
		case strings.HasPrefix(line, "docker exec "), strings.HasPrefix(line, "docker cp "):
			r.backup = append(r.backup, plainArgs(t, line))
		case strings.HasPrefix(line, "docker run ") && strings.Contains(line, " busybox "):
			r.restore = line
		}
	}
	require.Len(t, r.backup, 2, "README.md's Backup and restore has a docker exec and a docker cp command")
	require.NotEmpty(t, r.restore, "README.md's Backup and restore has a docker run ... busybox command")
	return r
}

// codeLines returns the lines of the code blocks of README's section
// heading (to the next heading of any level), a line ending in a backslash
// joined to the next.
func codeLines(readme, heading string) []string {
	var lines []string
	in, block, cont := false, false, ""
	for line := range strings.SplitSeq(readme, "\n") {
		switch {
		case strings.HasPrefix(line, "#") && !block:
			in = line == heading
		case !in:
		case strings.HasPrefix(line, "```"):
			block = !block
		case block:
			line = cont + strings.TrimSpace(line)
			if s, ok := strings.CutSuffix(line, `\`); ok {
				cont = s
				continue
			}
			cont = ""
			lines = append(lines, line)
		}
	}
	return lines
}

// plainArgs splits a command of README into its arguments, and fails if
// the line has what only a shell would read (quotes, variables, ...).
func plainArgs(t *testing.T, line string) []string {
	t.Helper()
	require.NotRegexp(t, `['"$\x60|&;<>()*?\\]`, line, "a command the test runs without a shell")
	return strings.Fields(line)
}

// replaceArg replaces in args the one argument old by news, and fails if
// old is not there exactly once: README changed.
func replaceArg(t *testing.T, args []string, old string, news ...string) []string {
	t.Helper()
	at := -1
	for i, a := range args {
		if a == old {
			require.Equal(t, -1, at, "%q twice in README's %q", old, strings.Join(args, " "))
			at = i
		}
	}
	require.NotEqual(t, -1, at, "no %q in README's %q", old, strings.Join(args, " "))
	return append(append(append([]string{}, args[:at]...), news...), args[at+1:]...)
}

// replaceFlag replaces the value old of the one flag in args by value,
// and fails if README's command has not that flag with that value.
func replaceFlag(t *testing.T, args []string, flag, old, value string) []string {
	t.Helper()
	args = replaceArg(t, args, flag, flag) // there once
	i := slices.Index(args, flag)
	require.Less(t, i+1, len(args))
	require.Equal(t, old, args[i+1], "README's %s", flag)
	args[i+1] = value
	return args
}

// runOptions vary README's docker run command.
type runOptions struct {
	flags     []string // added after "docker run"
	noRestart bool     // without README's --restart unless-stopped, so that an exit stays one
	endpoint  string   // the Bot API endpoint; empty: the server's
}

// container is one container of the image.
type container struct {
	t    *testing.T
	name string
}

// run starts a container of the image with README's docker run command,
// on the named volume, against srv: the command as written but for the
// container's name, the volume, the token (srv's), the endpoint and the
// rate limits (added), and the host's port (a free one, as no test may
// need a fixed port). The container and the volume are removed at the
// end of the test; the container's log is shown if it failed.
func (d *dockerEnv) run(t *testing.T, what, volume string, srv *telegramtest.Server, o runOptions) *container {
	t.Helper()
	c := &container{t: t, name: d.name(what)}
	if o.endpoint == "" {
		o.endpoint = srv.Endpoint()
	}
	args := d.recipes.run
	args = replaceFlag(t, args, "--name", readmeContainer, c.name)
	args = replaceArg(t, args, readmeToken, "TWENTYONE_TELEGRAM_TOKEN="+srv.Token(),
		"-e", "TWENTYONE_TELEGRAM_API_ENDPOINT="+o.endpoint,
		"-e", "TWENTYONE_TELEGRAM_RATE_LIMITS=false")
	args = replaceArg(t, args, readmeVolume, volume+":/data")
	args = replaceArg(t, args, readmePort, "127.0.0.1::9121")
	require.Equal(t, readmeImage, args[len(args)-1], "README's docker run ends with the image")
	args[len(args)-1] = d.image
	require.Equal(t, []string{"docker", "run", "-d"}, args[:3])
	if o.noRestart {
		args = replaceFlag(t, args, "--restart", "unless-stopped", "no")
	}
	args = append(append(append([]string{}, args[:3]...), o.flags...), args[3:]...)

	t.Cleanup(func() { _, _, _ = runCommand(t, "", nil, "docker", "volume", "rm", "-f", volume) })
	t.Cleanup(func() {
		if t.Failed() {
			_, out, errOut := runCommand(t, "", nil, "docker", "logs", "--tail", "200", c.name)
			t.Logf("docker logs %s:\n%s%s", c.name, out, errOut)
		}
		_, _, _ = runCommand(t, "", nil, "docker", "rm", "-f", c.name)
	})
	code, out, errOut := runCommand(t, "", nil, args[0], args[1:]...)
	require.Zero(t, code, "%s: %s%s", strings.Join(args, " "), out, errOut)
	return c
}

// inspect returns the container's docker inspect -f format.
func (c *container) inspect(format string) string {
	c.t.Helper()
	return docker(c.t, "inspect", "-f", format, c.name)
}

// waitHealthy waits until Docker's health check calls the container
// healthy.
func (c *container) waitHealthy() {
	c.t.Helper()
	start := time.Now()
	dockerPoll(c.t, c.name+" becomes healthy", healthLimit, func() bool {
		state := c.inspect("{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{end}}")
		if state == "exited" || state == "dead" || strings.HasSuffix(state, " unhealthy") {
			c.t.Fatalf("%s is %s", c.name, state)
		}
		return state == "running healthy"
	})
	c.t.Logf("%s healthy %s after the wait began", c.name, time.Since(start).Round(time.Millisecond))
}

// adminURL returns the base URL of the admin server as published on
// this host, once /readyz answers 200 there.
func (c *container) adminURL() string {
	c.t.Helper()
	hostPort := strings.Fields(docker(c.t, "port", c.name, "9121/tcp"))
	require.NotEmpty(c.t, hostPort)
	base := "http://" + hostPort[0]
	dockerPoll(c.t, base+"/readyz answers 200", waitLimit, func() bool {
		resp, err := http.Get(base + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return base
}

// stop stops the container as `docker stop` does and requires that the
// bot exited by itself with code 0 within the 10 s Docker gives it.
func (c *container) stop() {
	c.t.Helper()
	start := time.Now()
	docker(c.t, "stop", c.name)
	took := time.Since(start)
	c.t.Logf("docker stop %s took %s", c.name, took.Round(time.Millisecond))
	require.Less(c.t, took, stopLimit, "docker stop waits 10 s before SIGKILL")
	require.Equal(c.t, "0 false", c.inspect("{{.State.ExitCode}} {{.State.OOMKilled}}"), "exit code 0")
}

// procStatus returns the fields of /proc/PID/status of the container's
// process, read on this host.
func (c *container) procStatus() map[string]string {
	c.t.Helper()
	pid := c.inspect("{{.State.Pid}}")
	raw, err := os.ReadFile(filepath.Join("/proc", pid, "status"))
	require.NoError(c.t, err, "the container's process, seen from its host")
	fields := map[string]string{}
	for line := range strings.SplitSeq(string(raw), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			fields[k] = strings.Join(strings.Fields(v), " ")
		}
	}
	return fields
}

// volumeOwners returns "uid:gid" of each path of the volume, as busybox
// (the image of README's restore recipe) sees them.
func volumeOwners(t *testing.T, volume string, paths ...string) []string {
	t.Helper()
	out := docker(t, append([]string{"run", "--rm", "-v", volume + ":/data", "busybox", "stat", "-c", "%u:%g"}, paths...)...)
	return strings.Fields(out)
}

// compose is Compose v2 (the docker plugin) if there is one, else v1.
func composeCommand(t *testing.T) []string {
	t.Helper()
	if code, _, _ := runCommand(t, "", nil, "docker", "compose", "version"); code == 0 {
		return []string{"docker", "compose"}
	}
	if _, err := exec.LookPath("docker-compose"); err == nil {
		return []string{"docker-compose"}
	}
	t.Skip("neither docker compose nor docker-compose is installed (scripts/ci-docker.sh installs docker-compose)")
	return nil
}

var hexCommit = regexp.MustCompile(`^[0-9a-f]{40}$`)
