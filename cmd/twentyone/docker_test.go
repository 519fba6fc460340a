package main

// The Docker image, as README.md says to build and run it: README's
// commands read from README.md and run as written (but for names, the
// token and a free host port), against our Bot API server on this host's
// address on Docker's bridge. scripts/ci-docker.sh builds the image with
// README's command and runs this test with TWENTYONE_DOCKER_IMAGE set;
// without it the test skips.

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/twentyone-bot/twentyone/bot/callback"
	"github.com/twentyone-bot/twentyone/bot/i18n"
	"github.com/twentyone-bot/twentyone/bot/telegramtest"
)

func TestDockerImage(t *testing.T) {
	d := newDockerEnv(t)
	start := time.Now()
	t.Cleanup(func() { t.Logf("the Docker checks took %s", time.Since(start).Round(time.Millisecond)) })

	checks := []struct {
		name  string
		check func(*testing.T, *dockerEnv)
	}{
		{"no token: the hint and exit code 2", dockerNoToken},
		{"the image's user, labels and health check", dockerImageConfig},
		{"README's run, backup, restart and restore", dockerLifecycle},
		{"read-only root and no capabilities", dockerReadOnly},
		{"a volume another container made is root's", dockerRootOwnedVolume},
		{"healthy with the admin server off", dockerAdminOff},
		{"the Bot API unreachable at the start", dockerBotAPILate},
		{"Compose: config and up", dockerCompose},
		{"the Mini App on its own port", dockerApp},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.check(t, d)
		})
	}
}

// lobbyTitle starts the lobby message, the answer to /newgame.
var lobbyTitle = i18n.T(i18n.EN, i18n.TableTitleLobby)

// dockerNoToken: the image runs `twentyone run`, which without a token
// says how to get one and exits with code 2.
func dockerNoToken(t *testing.T, d *dockerEnv) {
	code, stdout, stderr := runCommand(t, "", nil, "docker", "run", "--rm", d.image)
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "No bot token is configured")
	assert.Contains(t, stderr, "@BotFather")
	assert.Contains(t, stderr, "TWENTYONE_TELEGRAM_TOKEN=")
}

// dockerImageConfig: the user is numeric 65532:65532; the version label is
// never empty (the binary's stamped version, else "unreleased") and the
// revision label is the binary's commit; the health check is the
// binary's own.
func dockerImageConfig(t *testing.T, d *dockerEnv) {
	format := `{{.Config.User}}|{{index .Config.Labels "org.opencontainers.image.version"}}|` +
		`{{index .Config.Labels "org.opencontainers.image.revision"}}|{{json .Config.Healthcheck.Test}}|{{.Config.StopSignal}}`
	fields := strings.Split(docker(t, "image", "inspect", "-f", format, d.image), "|")
	require.Len(t, fields, 5)
	user, label, revision, health, stopSignal := fields[0], fields[1], fields[2], fields[3], fields[4]
	assert.Equal(t, "65532:65532", user)
	assert.Equal(t, `["CMD","/twentyone","healthcheck"]`, health)
	assert.Equal(t, "SIGTERM", stopSignal)

	out := docker(t, "run", "--rm", d.image, "version")
	m := regexp.MustCompile(`^twentyone (\S+) \(commit (\S+), go1\.26\S*, linux/\w+\)$`).FindStringSubmatch(out)
	require.NotNil(t, m, "twentyone version: %q", out)
	version, commit := m[1], m[2]
	assert.Regexp(t, hexCommit, revision, "README's build passes the commit")
	assert.Equal(t, revision, commit, "the revision label is the binary's commit")
	if label != "unreleased" {
		assert.Equal(t, version, label, "a tagged build's label is the binary's version")
	}
	assert.NotEmpty(t, label)
}

// dockerLifecycle: README's run command; /newgame answered; the admin
// server published on the host; the process's user 65532; README's backup
// recipe makes a valid copy; healthy; docker stop within 10 s, exit code
// 0; the database files 65532's; a new container on the volume keeps the
// table; README's restore recipe into a new volume, on which a bot starts
// from the backup's state.
func dockerLifecycle(t *testing.T, d *dockerEnv) {
	srv := d.botAPI(t)
	tb := newTable(t, srv)
	volume := d.name("data")

	first := d.run(t, "first", volume, srv, runOptions{})
	tb.command(tb.alice, "newgame")
	lobby := tb.message(callback.Join, lobbyTitle, "Alice")
	resp, err := http.Get(first.adminURL() + "/metrics")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "/metrics on the published port")
	status := first.procStatus()
	assert.Equal(t, "65532 65532 65532 65532", status["Uid"], "the bot runs as 65532")
	assert.Equal(t, "65532 65532 65532 65532", status["Gid"])

	// README's backup recipe, in a directory of the test's.
	backupDir := t.TempDir()
	for _, recipe := range d.recipes.backup {
		args := slices.Clone(recipe)
		for i, a := range args {
			if a == readmeContainer {
				args[i] = first.name
			} else if rest, ok := strings.CutPrefix(a, readmeContainer+":"); ok {
				args[i] = first.name + ":" + rest
			}
		}
		code, out, errOut := runCommand(t, backupDir, nil, args[0], args[1:]...)
		require.Zero(t, code, "%s: %s%s", strings.Join(args, " "), out, errOut)
	}
	backup := filepath.Join(backupDir, "backup.db")
	audits := auditDatabase(t, backup)
	require.Len(t, audits, 1, "the backup holds the group")
	assert.Equal(t, tb.group.ID, audits[0].Chat)

	// After the backup, Bob sits down.
	assert.Equal(t, i18n.T(i18n.EN, i18n.PopJoined), tb.pressAndWait(tb.bob, lobby, callback.Join))
	first.waitHealthy()
	first.stop()
	assert.Equal(t, []string{"65532:65532", "65532:65532"}, volumeOwners(t, volume, "/data", "/data/twentyone.db"))
	assert.NotContains(t, docker(t, "logs", first.name), srv.Token(), "the token stays out of the log")
	docker(t, "rm", first.name)

	// A new container on the volume: the table kept Bob's seat. (The
	// lobby's buttons changed with his join: the old ones are stale.)
	second := d.run(t, "second", volume, srv, runOptions{})
	assert.Equal(t, i18n.T(i18n.EN, i18n.PopSeated), tb.pressAndWait(tb.bob, tb.message(callback.Join, "Alice", "Bob"), callback.Join),
		"the table survived the restart")
	second.stop()

	// README's restore recipe, as written but for the volume: a new one,
	// which busybox creates root's; the recipe hands it to 65532.
	restored := d.name("restored")
	t.Cleanup(func() { _, _, _ = runCommand(t, "", nil, "docker", "volume", "rm", "-f", restored) })
	require.Equal(t, 1, strings.Count(d.recipes.restore, readmeVolume), "README's restore names the volume once: %s", d.recipes.restore)
	recipe := strings.Replace(d.recipes.restore, readmeVolume, restored+":/data", 1)
	code, out, errOut := runCommand(t, backupDir, nil, "sh", "-c", recipe)
	require.Zero(t, code, "%s: %s%s", recipe, out, errOut)
	assert.Equal(t, []string{"65532:65532", "65532:65532"}, volumeOwners(t, restored, "/data", "/data/twentyone.db"))

	third := d.run(t, "restored", restored, srv, runOptions{})
	assert.Equal(t, i18n.T(i18n.EN, i18n.PopJoined), tb.pressAndWait(tb.bob, lobby, callback.Join),
		"the restored bot has the backup's table, from before Bob sat down (whose buttons are the lobby's first)")
	third.stop()
}

// dockerReadOnly: README's run with --read-only --cap-drop ALL answers
// and becomes healthy; the process has no capability left.
func dockerReadOnly(t *testing.T, d *dockerEnv) {
	srv := d.botAPI(t)
	tb := newTable(t, srv)
	c := d.run(t, "read-only", d.name("read-only-data"), srv, runOptions{flags: []string{"--read-only", "--cap-drop", "ALL"}})
	tb.command(tb.alice, "newgame")
	tb.message(callback.Join, lobbyTitle, "Alice")
	status := c.procStatus()
	assert.Equal(t, "0000000000000000", status["CapBnd"], "no capability in the bounding set")
	assert.Equal(t, "0000000000000000", status["CapEff"])
	assert.Equal(t, "true", c.inspect("{{.HostConfig.ReadonlyRootfs}}"))
	c.waitHealthy()
	c.stop()
}

// dockerRootOwnedVolume: on a volume another container created and wrote
// to (so that Docker does not give it the image's /data, owner included,
// when the bot's container first mounts it), as README's old restore
// recipe left it: /data is root's, and the bot, which cannot write there,
// exits with code 1, saying what to do.
func dockerRootOwnedVolume(t *testing.T, d *dockerEnv) {
	srv := d.botAPI(t)
	volume := d.name("root-owned")
	docker(t, "run", "--rm", "-v", volume+":/data", "busybox",
		"sh", "-c", "touch /data/twentyone.db && chown 65532:65532 /data/twentyone.db")
	assert.Equal(t, []string{"0:0", "65532:65532"}, volumeOwners(t, volume, "/data", "/data/twentyone.db"))
	c := d.run(t, "root-owned", volume, srv, runOptions{noRestart: true})
	assert.Equal(t, "1", docker(t, "wait", c.name), "exit code 1")
	_, _, errOut := runCommand(t, "", nil, "docker", "logs", c.name) // the bot's stderr
	assert.Contains(t, errOut, "/data", "the error names the directory")
	assert.Contains(t, errOut, "chown -R 65532:65532 /data", "the error says what to do, for the image's user")
}

// dockerAdminOff: with TWENTYONE_HTTP_LISTEN=off the health check asks the
// backup socket, and the container becomes healthy.
func dockerAdminOff(t *testing.T, d *dockerEnv) {
	srv := d.botAPI(t)
	tb := newTable(t, srv)
	c := d.run(t, "admin-off", d.name("admin-off-data"), srv, runOptions{flags: []string{"-e", "TWENTYONE_HTTP_LISTEN=off"}})
	tb.command(tb.alice, "newgame")
	tb.message(callback.Join, lobbyTitle, "Alice")
	c.waitHealthy()
	c.stop()
}

// dockerBotAPILate: started while the Bot API does not answer, the bot
// keeps running (no exit, no restart by Docker) and becomes ready once it
// answers.
func dockerBotAPILate(t *testing.T, d *dockerEnv) {
	srv := telegramtest.New()
	t.Cleanup(srv.Close)
	free := d.botAPI(t) // a port on the bridge, free once this server is closed
	addr := strings.TrimPrefix(free.URL(), "http://")
	free.Close()
	c := d.run(t, "api-late", d.name("api-late-data"), srv, runOptions{endpoint: "http://" + addr + "/bot%s/%s"})
	dockerPoll(t, "the bot tried the Bot API and failed", waitLimit, func() bool {
		_, _, errOut := runCommand(t, "", nil, "docker", "logs", c.name)
		return strings.Contains(errOut, "connection refused")
	})
	require.NoError(t, srv.Listen(addr))
	tb := newTable(t, srv)
	tb.command(tb.alice, "newgame")
	tb.message(callback.Join, lobbyTitle, "Alice")
	assert.Equal(t, "0 running", c.inspect("{{.RestartCount}} {{.State.Status}}"), "the bot waited for the Bot API without exiting")
	c.stop()
}

// dockerCompose: `docker compose config` passes, and `docker compose up
// -d` of the file, with .env holding the token and the endpoint, runs the
// image on the volume twentyone-data, answers, backs up through `docker
// compose exec` and becomes healthy.
func dockerCompose(t *testing.T, d *dockerEnv) {
	compose := composeCommand(t)
	if d.image != "twentyone" && d.image != "twentyone:latest" {
		t.Skipf("the Compose file runs the image twentyone:latest, not %s", d.image)
	}
	if code, _, _ := runCommand(t, "", nil, "docker", "volume", "inspect", "twentyone-data"); code == 0 {
		t.Skip("a volume named twentyone-data exists that this test did not make: the Compose file gives its volume that name, " +
			"so the test leaves the engine's alone (remove it, or use another engine)")
	}
	srv := d.botAPI(t)
	dir := t.TempDir()
	file, err := os.ReadFile(filepath.Join("..", "..", "docker-compose.yml"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "docker-compose.yml"), file, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte(strings.Join([]string{
		"TWENTYONE_TELEGRAM_TOKEN=" + srv.Token(),
		"TWENTYONE_TELEGRAM_API_ENDPOINT=" + srv.Endpoint(),
		"TWENTYONE_TELEGRAM_RATE_LIMITS=false",
	}, "\n")+"\n"), 0o600))
	project := d.name("compose")
	var port string
	composeRun := func(args ...string) (int, string, string) {
		t.Helper()
		all := append(slices.Clone(compose[1:]), args...)
		return runCommand(t, dir, []string{"COMPOSE_PROJECT_NAME=" + project, "ADMIN_PORT=" + port}, compose[0], all...)
	}

	code, out, errOut := composeRun("config")
	require.Zero(t, code, "compose config: %s%s", out, errOut)
	assert.Contains(t, out, "name: twentyone-data", "the volume's name is fixed")
	assert.NotContains(t, out, project+"_twentyone-data")

	t.Cleanup(func() {
		if t.Failed() {
			_, out, errOut := composeRun("logs", "--no-color", "--tail", "200")
			t.Logf("compose logs:\n%s%s", out, errOut)
		}
		if code, out, errOut := composeRun("down", "-v"); code != 0 {
			t.Errorf("compose down -v: %s%s", out, errOut)
		}
		if docker(t, "volume", "ls", "-q", "--filter", "name=^twentyone-data$") != "" {
			t.Errorf("compose down -v left the volume twentyone-data")
			_, _, _ = runCommand(t, "", nil, "docker", "volume", "rm", "-f", "twentyone-data")
		}
	})
	// The host's port is picked free; should another process take it
	// before Compose does, another is tried.
	for try := 1; ; try++ {
		port = strings.TrimPrefix(freeAddr(t), "127.0.0.1:")
		code, out, errOut = composeRun("up", "-d")
		taken := strings.Contains(out+errOut, "address already in use") || strings.Contains(out+errOut, "port is already allocated")
		if code == 0 || !taken || try == portTries {
			require.Zero(t, code, "compose up -d: %s%s", out, errOut)
			break
		}
		t.Logf("port %s was taken before Compose published it: trying another", port)
	}
	_, id, _ := composeRun("ps", "-q", "twentyone")
	c := &container{t: t, name: strings.TrimSpace(id)}
	require.NotEmpty(t, c.name, "compose ps -q twentyone")
	assert.Equal(t, "twentyone-data", c.inspect(`{{range .Mounts}}{{if eq .Destination "/data"}}{{.Name}}{{end}}{{end}}`))
	assert.Equal(t, project, docker(t, "volume", "inspect", "-f", `{{index .Labels "com.docker.compose.project"}}`, "twentyone-data"),
		"the volume is this project's")

	tb := newTable(t, srv)
	tb.command(tb.alice, "newgame")
	tb.message(callback.Join, lobbyTitle, "Alice")
	assert.Equal(t, "http://127.0.0.1:"+port, c.adminURL(), "ADMIN_PORT moves the host's end")

	// The backup of README's Compose recipe (exec -T: no terminal here;
	// docker cp, which Compose v1 lacks as compose cp).
	code, out, errOut = composeRun("exec", "-T", "twentyone", "/twentyone", "backup", "-o", "/data/backup.db")
	require.Zero(t, code, "compose exec twentyone /twentyone backup: %s%s", out, errOut)
	docker(t, "cp", c.name+":/data/backup.db", dir)
	audits := auditDatabase(t, filepath.Join(dir, "backup.db"))
	require.Len(t, audits, 1, "the backup holds the group")
	assert.Equal(t, tb.group.ID, audits[0].Chat)
	c.waitHealthy()
}
