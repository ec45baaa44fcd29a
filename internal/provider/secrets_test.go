package provider

// Secrets never leave the provider: not in logs, state, plans or error
// messages. And they are never sent in clear text to a host that is not
// loopback.

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// secretScan finds secrets in text. The secrets are registered as they
// become known (access tokens are issued during the test).
type secretScan struct {
	mu      sync.Mutex
	secrets map[string]string // value -> what it is
}

func (s *secretScan) add(what string, values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.secrets == nil {
		s.secrets = map[string]string{}
	}
	for _, v := range values {
		if v != "" {
			s.secrets[v] = what
		}
	}
}

// find returns a description of every secret found in b.
func (s *secretScan) find(b []byte) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var found []string
	for v, what := range s.secrets {
		if bytes.Contains(b, []byte(v)) {
			found = append(found, what)
		}
	}
	return found
}

// jsonCheck marshals v and fails when it holds a secret or lacks any of
// the strings in mustHave (which prove that the document is the real one).
func (s *secretScan) jsonCheck(what string, v any, mustHave ...string) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding the %s: %w", what, err)
	}
	if found := s.find(b); len(found) > 0 {
		return fmt.Errorf("the %s holds %s", what, strings.Join(found, ", "))
	}
	for _, m := range mustHave {
		if !bytes.Contains(b, []byte(m)) {
			return fmt.Errorf("the %s does not mention %q; is it the right document?", what, m)
		}
	}
	return nil
}

// scanFiles looks for secrets in every file under dir, and inside zip
// archives (saved plans) in every entry.
func (s *secretScan) scanFiles(t *testing.T, dir string) (scanned int) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil // provider binaries linked into .terraform
		}
		b, err := os.ReadFile(path) //nolint:gosec // A file the test's working directory holds.
		if err != nil {
			return err
		}
		scanned++
		if found := s.find(b); len(found) > 0 {
			t.Errorf("%s holds %s", path, strings.Join(found, ", "))
		}
		if !bytes.HasPrefix(b, []byte("PK\x03\x04")) {
			return nil
		}
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				return fmt.Errorf("%s!%s: %w", path, f.Name, err)
			}
			eb, err := io.ReadAll(rc)
			_ = rc.Close()
			if err != nil {
				return fmt.Errorf("%s!%s: %w", path, f.Name, err)
			}
			scanned++
			if found := s.find(eb); len(found) > 0 {
				t.Errorf("%s!%s holds %s", path, f.Name, strings.Join(found, ", "))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("scanning %s: %v", dir, err)
	}
	return scanned
}

// TestAccSecrets_notInLogsStatePlanOrErrors applies withdrawals, deposit
// instructions, reads (HTTP and stream) and an ephemeral access token used
// by the configuration, with TF_LOG=TRACE written to a file, then provokes the errors most likely to carry a credential (a
// wrong client secret, a token refused for its scope, an unknown id). Neither
// the client secrets nor any access token the emulator issued may appear in
// the log, the state, the plan JSON, the files of the working directory
// (state, backups, saved plans) or the text of any error.
func TestAccSecrets_notInLogsStatePlanOrErrors(t *testing.T) {
	secret := "acc-secret-" + uuid.NewString()
	wrongSecret := "wrong-secret-" + uuid.NewString()
	emu := emulator.StartTest(t, emulator.Options{Clients: map[string]emulator.ClientCredentials{
		"acc-client": {Secret: secret},
	}})
	scan := &secretScan{}
	scan.add("the client secret", secret)
	scan.add("the wrong client secret", wrongSecret)
	addTokens := func() int {
		toks := emu.IssuedTokens()
		scan.add("an access token", toks...)
		return len(toks)
	}

	dir := t.TempDir()
	logPath := filepath.Join(dir, "terraform.log")
	workDir := filepath.Join(dir, "work")
	if err := os.Mkdir(workDir, 0o700); err != nil {
		t.Fatal(err)
	}
	// TF_LOG sets the level of the provider's logs; TF_ACC_LOG_PATH sends
	// the logs of both Terraform and the in-process provider to one file.
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_ACC_LOG_PATH", logPath)
	t.Setenv("TF_ACC_PERSIST_WORKING_DIR", "1")

	// The client secret comes from PLATFORM_CLIENT_SECRET, as recommended:
	// a literal in the provider block is part of the configuration, which
	// Terraform itself copies into saved plans and into the plan JSON
	// (configuration.provider_config). So every file and document can be
	// searched, the configuration included.
	providerBlock := func(extra string) string {
		return fmt.Sprintf(`provider "platform" {
  client_id = "acc-client"
  base_url  = %q
  auth_url  = %q
  ws_url    = %q
%s}
`, emu.BaseURL(), emu.AuthURL(), emu.WSURL(), extra)
	}
	useSecret := func(v string) func() { return func() { t.Setenv(EnvClientSecret, v) } }
	useSecret(secret)()
	resources := `
resource "platform_crypto_withdrawal" "w" {
  profile_id          = "profile-1"
  destination_address = "` + cwDestination + `"
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = "0.25"
  memo                = "secrets test"
}

resource "platform_fiat_deposit_instructions" "f" {
  profile_id   = "profile-1"
  fiat_network = "WIRE"
  metadata     = { purpose = "secrets test" }
}
`
	reads := `
data "platform_top_of_book" "btc" {
  market = "BTCUSD"
}

# A token handed to the configuration, used by a precondition.` + tokenUsedByPrecondition(20, "no access token", "\n") + `
data "platform_fiat_deposit_instructions" "f" {
  id = platform_fiat_deposit_instructions.f.id
}
`
	good := providerBlock("")
	// A token pinned to one read scope, used for a new withdrawal.
	pinned := providerBlock(`  scopes = ["transfer:read_fiat_deposit_instructions"]` + "\n")
	missing := `
data "platform_fiat_deposit_instructions" "missing" {
  id = "00000000-0000-0000-0000-000000000000"
}
`
	forbidden := `
resource "platform_crypto_withdrawal" "forbidden" {
  profile_id          = "profile-1"
  destination_address = "` + cwDestination + `"
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = "0.75"
}
`
	expected := []*regexp.Regexp{
		wrappedRe(`401 Unauthorized: invalid_client.*the service rejected the client credentials: check client_id and client_secret`),
		wrappedRe(`Fiat deposit instructions not found.*404 Not Found`),
		wrappedRe(`The provider's pinned scopes lack transfer:write_crypto_withdrawal.*Nothing was sent.`),
	}
	var errorTexts []string

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		WorkingDir:               workDir,
		ErrorCheck: func(err error) error {
			errorTexts = append(errorTexts, err.Error())
			for _, re := range expected {
				if re.MatchString(err.Error()) {
					return nil // an expected failure; its text is checked below
				}
			}
			return err
		},
		Steps: []resource.TestStep{
			{
				PreConfig: useSecret(secret),
				Config:    good + resources + reads,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					planFunc(func(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
						addTokens()
						resp.Error = scan.jsonCheck("plan JSON", req.Plan, "platform_crypto_withdrawal", "secrets test")
					}),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					stateFunc(func(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
						if n := addTokens(); n < 5 {
							resp.Error = fmt.Errorf("the emulator issued %d tokens, want at least 5 (one per scope)", n)
							return
						}
						resp.Error = scan.jsonCheck("state JSON", req.State, "platform_crypto_withdrawal", "memo_id", "best_bid_price")
					}),
				},
			},
			// A wrong client secret: refreshing the instructions needs a token.
			{PreConfig: useSecret(wrongSecret), Config: good + resources},
			{PreConfig: useSecret(secret), Config: good + resources + missing},
			{Config: pinned + resources + forbidden},
		},
	})

	addTokens()
	// Each failing step failed with its expected error, whose text holds no secret.
	if len(errorTexts) != len(expected) {
		t.Fatalf("%d steps failed, want %d (wrong secret, missing id, forbidden withdrawal):\n%s", len(errorTexts), len(expected), strings.Join(errorTexts, "\n---\n"))
	}
	for i, text := range errorTexts {
		if !expected[i].MatchString(text) {
			t.Errorf("error %d does not match %s:\n%s", i+1, expected[i], text)
		}
		if found := scan.find([]byte(text)); len(found) > 0 {
			t.Errorf("error %d holds %s:\n%s", i+1, strings.Join(found, ", "), text)
		}
	}

	// The log holds the provider's request logs, and no secret.
	logBytes, err := os.ReadFile(logPath) //nolint:gosec // The test's own log file.
	if err != nil {
		t.Fatalf("reading the log: %v", err)
	}
	for _, want := range []string{
		"HTTP request", "POST", "/oauth2/token", "/transfer/crypto-withdrawals", "/transfer/fiat-deposit-instructions",
		"HTTP response body", "[REDACTED]", "stream read done", "platform-client",
	} {
		if !bytes.Contains(logBytes, []byte(want)) {
			t.Errorf("the log (%d bytes) does not contain %q: the provider's trace logs did not reach it", len(logBytes), want)
		}
	}
	if found := scan.find(logBytes); len(found) > 0 {
		for _, line := range strings.Split(string(logBytes), "\n") {
			if f := scan.find([]byte(line)); len(f) > 0 {
				t.Errorf("log line holds %s: %s", strings.Join(f, ", "), truncate(line, 400))
			}
		}
	}

	// Every file of the working directory: configurations, state files,
	// backups, saved plans (and every entry inside them).
	n := scan.scanFiles(t, workDir)
	if n < 3 {
		t.Errorf("only %d files scanned in the working directory; the state and plan files were not found", n)
	}
}

// wrappedRe compiles pattern so that each space in it also matches the
// line breaks and indentation Terraform puts into long messages.
func wrappedRe(pattern string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + strings.ReplaceAll(pattern, " ", `\s+`))
}

// nonLoopbackAddr returns a non-loopback IPv4 address of this machine, if
// it has one.
func nonLoopbackAddr() (net.IP, bool) {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil, false
	}
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok && !ipn.IP.IsLoopback() && ipn.IP.To4() != nil && !ipn.IP.IsLinkLocalUnicast() {
			return ipn.IP, true
		}
	}
	return nil, false
}

// TestAccSecrets_plainHTTPToRemoteHostRefused points base_url, auth_url
// and ws_url in turn at a plain-text URL of a host that is not loopback.
// Each must be refused at plan with a configuration diagnostic naming the
// attribute, before any connection: the listener at that address (one of
// this machine's own non-loopback addresses) must never see a connection.
// A machine without such an address uses an unroutable TEST-NET address
// instead, where a dial could only time out; the refusal must then come at
// once and be the configuration diagnostic, not a network error.
func TestAccSecrets_plainHTTPToRemoteHostRefused(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t, emulator.Options{})
	env.needEmulator(t)
	emu := env.emu

	var accepted atomic.Int64
	host := "192.0.2.1:443" // TEST-NET-1: unroutable
	if ip, ok := nonLoopbackAddr(); ok {
		var lc net.ListenConfig
		l, err := lc.Listen(t.Context(), "tcp", net.JoinHostPort(ip.String(), "0"))
		if err == nil {
			host = l.Addr().String()
			t.Cleanup(func() { _ = l.Close() })
			go func() {
				for {
					c, err := l.Accept()
					if err != nil {
						return
					}
					accepted.Add(1)
					_ = c.Close()
				}
			}()
		}
	}
	t.Logf("non-loopback target: %s", host)

	cases := []struct {
		attr, value string
	}{
		{"base_url", "http://" + host + "/v2"},
		{"auth_url", "http://" + host},
		{"ws_url", "ws://" + host + "/ws"},
	}
	body := `
data "platform_fiat_deposit_instructions" "f" {
  id = "00000000-0000-0000-0000-000000000000"
}

data "platform_top_of_book" "btc" {
  market  = "BTCUSD"
  timeout = "3s"
}
`
	steps := make([]resource.TestStep, 0, len(cases))
	for _, c := range cases {
		block := emulatorProviderBlock(emu, "")
		block = regexp.MustCompile(`(?m)^  `+c.attr+` +=.*$`).ReplaceAllString(block, fmt.Sprintf("  %s = %q", c.attr, c.value))
		scheme := "https"
		if c.attr == "ws_url" {
			scheme = "wss"
		}
		steps = append(steps, resource.TestStep{
			Config:      block + body,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Invalid ` + c.attr + `.*` + c.attr + `.*` + scheme + `://`),
		})
	}
	start := time.Now()
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
	if elapsed := time.Since(start); elapsed > 30*time.Second {
		t.Errorf("the refusals took %s; a configuration error must not wait for a network", elapsed)
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("the non-loopback listener accepted %d connections, want 0", n)
	}
	if n := emu.Counters.TotalTokens(); n != 0 {
		t.Errorf("the emulator issued %d tokens, want 0", n)
	}
	if n := emu.Counters.APIRequests(); n != 0 {
		t.Errorf("the emulator received %d API requests, want 0", n)
	}
}
