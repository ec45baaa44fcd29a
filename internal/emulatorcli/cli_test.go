package emulatorcli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// syncBuffer collects what the command writes from several goroutines.
type syncBuffer = emulator.LogBuffer

// -h documents every flag, each with its default.
func TestHelpDocumentsEveryFlag(t *testing.T) {
	var out bytes.Buffer
	err := run(t.Context(), []string{"-h"}, io.Discard, &out)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	help := out.String()
	if !strings.HasPrefix(help, "Usage: platform-emulator [flags]") || !strings.Contains(help, "The admin API has no authentication") {
		t.Errorf("-h does not open with the usage and the admin API warning:\n%s", help)
	}
	fs, _ := newFlags(io.Discard)
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		n++
		i := strings.Index(help, "\n  -"+f.Name+" ")
		if i < 0 {
			i = strings.Index(help, "\n  -"+f.Name+"\n")
		}
		if i < 0 {
			t.Errorf("-h does not name -%s", f.Name)
			return
		}
		entry := help[i+1:]
		if j := strings.Index(entry[1:], "\n  -"); j >= 0 {
			entry = entry[:j+1]
		}
		if f.Usage == "" || !strings.Contains(entry, f.Usage) {
			t.Errorf("-%s: meaning missing:\n%s", f.Name, entry)
		}
		def := f.DefValue
		if strings.Contains(entry, "-"+f.Name+" string") {
			def = `"` + def + `"`
		}
		if !strings.Contains(entry, "(default: "+def+")") {
			t.Errorf("-%s: default %s missing:\n%s", f.Name, def, entry)
		}
	})
	for _, name := range []string{"addr", "allow-non-loopback", "seed", "env-file", "log-level", "withdrawal-replay", "version"} {
		if fs.Lookup(name) == nil {
			t.Errorf("no -%s flag", name)
		}
	}
	if n < 13 {
		t.Errorf("%d flags, want at least 13", n)
	}
	if !strings.Contains(help, `-addr string`+"\n    \t") || !strings.Contains(help, `(default: "127.0.0.1:8080")`) ||
		!strings.Contains(help, "(default: \"info\")") || !strings.Contains(help, "(default: 1s)") {
		t.Errorf("unexpected -h layout:\n%s", help)
	}
}

func TestVersionFlag(t *testing.T) {
	var out bytes.Buffer
	if err := run(t.Context(), []string{"-version"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "platform-emulator dev\n" {
		t.Errorf("-version printed %q", got)
	}
}

func TestBadFlagsRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-addr", "0.0.0.0:0"}, "-addr must be a loopback address"},
		{[]string{"-addr", "192.0.2.1:8080"}, "use -allow-non-loopback"},
		{[]string{"-log-level", "loud"}, "-log-level: unknown log level \"loud\""},
		{[]string{"-withdrawal-replay", "maybe"}, "-withdrawal-replay"},
		{[]string{"-fiat-accounts", "-1"}, "-fiat-accounts must not be negative"},
		{[]string{"-client-secret", ""}, "-client-id and -client-secret must not be empty"},
		{[]string{"extra"}, "unexpected argument"},
	} {
		err := run(t.Context(), tc.args, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

// started runs the command with args until the test ends and returns the
// settings it wrote to its env file.
func started(t *testing.T, stdout, stderr io.Writer, args ...string) map[string]string {
	t.Helper()
	envFile := filepath.Join(t.TempDir(), "emulator.env")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, append(args, "-env-file", envFile), stdout, stderr) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(envFile)
		if err != nil {
			continue
		}
		env := map[string]string{}
		for line := range strings.Lines(string(b)) {
			k, v, _ := strings.Cut(strings.TrimSpace(line), "=")
			env[k] = v
		}
		return env
	}
	t.Fatal("the emulator wrote no env file")
	return nil
}

// Beyond loopback only when told, and then with a loud warning on stderr;
// on loopback, no warning.
func TestNonLoopbackWarning(t *testing.T) {
	var stderr syncBuffer
	env := started(t, io.Discard, &stderr, "-addr", "0.0.0.0:0", "-allow-non-loopback", "-log-level", "off")
	if !strings.HasPrefix(env["PLATFORM_BASE_URL"], "http://") {
		t.Fatalf("env %v", env)
	}
	warn := stderr.String()
	for _, want := range []string{"WARNING: the emulator is listening on ", "beyond loopback", "admin API", "NO AUTHENTICATION"} {
		if !strings.Contains(warn, want) {
			t.Errorf("stderr lacks %q:\n%s", want, warn)
		}
	}

	var quiet syncBuffer
	started(t, io.Discard, &quiet, "-addr", "127.0.0.1:0", "-allow-non-loopback", "-log-level", "off")
	if quiet.String() != "" {
		t.Errorf("loopback emulator wrote on stderr:\n%s", quiet.String())
	}
}

// The command logs one line per request on stderr at info (its default),
// and nothing at off; its stdout lists the settings.
func TestCommandLogs(t *testing.T) {
	var stdout, stderr syncBuffer
	env := started(t, &stdout, &stderr, "-addr", "127.0.0.1:0")
	base := strings.TrimSuffix(env["PLATFORM_BASE_URL"], "/v2")
	for _, k := range []string{"PLATFORM_AUTH_URL", "PLATFORM_WS_URL", "PLATFORM_CLIENT_ID", "PLATFORM_CLIENT_SECRET"} {
		if env[k] == "" {
			t.Errorf("env file lacks %s: %v", k, env)
		}
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, base+"/admin/counters", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if !strings.Contains(stderr.String(), "level=INFO msg=request method=GET path=/admin/counters status=200") {
		t.Errorf("no request line on stderr:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), "listening on 127.0.0.1:") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	// The banner lists every operation of the admin API.
	for _, route := range emulator.AdminRoutes() {
		method, p, _ := strings.Cut(route, " ")
		if !regexp.MustCompile(`(?m)^    ` + method + ` +` + regexp.QuoteMeta(base+p) + `$`).MatchString(stdout.String()) {
			t.Errorf("the banner does not list %s:\n%s", route, stdout.String())
		}
	}

	var quiet syncBuffer
	env = started(t, io.Discard, &quiet, "-addr", "127.0.0.1:0", "-log-level", "off")
	req, _ = http.NewRequestWithContext(t.Context(), http.MethodGet, strings.TrimSuffix(env["PLATFORM_BASE_URL"], "/v2")+"/admin/counters", nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		_ = resp.Body.Close()
	}
	if quiet.String() != "" {
		t.Errorf("-log-level off logged:\n%s", quiet.String())
	}
}

// The client credentials the emulator accepts are set by -client-id and
// -client-secret: the token endpoint grants a token for them only, the env
// file carries them, and a secret of one's own is never printed.
func TestClientCredentialsFlags(t *testing.T) {
	var stdout syncBuffer
	const secret = "ci-secret-4b1d"
	env := started(t, &stdout, io.Discard, "-addr", "127.0.0.1:0", "-log-level", "off", "-client-id", "ci-client",
		"-client-secret", secret)
	if env["PLATFORM_CLIENT_ID"] != "ci-client" || env["PLATFORM_CLIENT_SECRET"] != secret {
		t.Errorf("env file credentials %q, %q; want ci-client and the secret", env["PLATFORM_CLIENT_ID"],
			env["PLATFORM_CLIENT_SECRET"])
	}
	if strings.Contains(stdout.String(), secret) {
		t.Errorf("the banner prints the secret:\n%s", stdout.String())
	}
	token := func(id, secret string) int {
		form := url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}}
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, env["PLATFORM_AUTH_URL"]+"/oauth2/token",
			strings.NewReader(form.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	if got := token("ci-client", secret); got != http.StatusOK {
		t.Errorf("a token for the configured credentials: %d, want 200", got)
	}
	if got := token(emulator.DefaultClientID, emulator.DefaultClientSecret); got == http.StatusOK {
		t.Errorf("a token for the default credentials: %d, want a refusal", got)
	}
}
