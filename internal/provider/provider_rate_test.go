package provider

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
	"github.com/platform/terraform-provider-platform/internal/redistest"
)

// rateConfig is a valid configuration against srv with vals added.
func rateConfig(t *testing.T, vals map[string]tftypes.Value) map[string]tftypes.Value {
	t.Helper()
	srv, _ := countingServer(t)
	out := map[string]tftypes.Value{
		"client_id": str("id"), "client_secret": str("s3cr3t-value"),
		"base_url": str(srv.URL + "/v2"), "auth_url": str(srv.URL),
		"rate_state_dir": str(t.TempDir()),
	}
	for k, v := range vals {
		out[k] = v
	}
	return out
}

func num(f float64) tftypes.Value { return tftypes.NewValue(tftypes.Number, f) }

// TestProviderRateBudget: rate_budget, or PLATFORM_RATE_BUDGET, is the
// client's budget; the default is half of each published limit.
func TestProviderRateBudget(t *testing.T) {
	tests := []struct {
		name string
		vals map[string]tftypes.Value
		env  string
		want float64
	}{
		{"default", nil, "", client.DefaultRateBudget},
		{"argument", map[string]tftypes.Value{"rate_budget": num(0.25)}, "", 0.25},
		{"environment", nil, "0.75", 0.75},
		{"argument over environment", map[string]tftypes.Value{"rate_budget": num(1)}, "0.1", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clearEnv(t)
			t.Setenv(EnvRateBudget, tc.env)
			t.Setenv(EnvRateStateDir, "")
			resp := configureWith(t, rateConfig(t, tc.vals))
			if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() > 0 {
				t.Fatalf("diagnostics: %v", resp.Diagnostics)
			}
			d, ok := resp.ResourceData.(*providerData)
			if !ok {
				t.Fatalf("ResourceData = %T", resp.ResourceData)
			}
			if got := d.client.RateBudget(); got != tc.want {
				t.Errorf("budget = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestProviderRateBudgetErrors: a budget outside (0, 1] is an error naming
// the attribute (and the variable it came from) and the allowed range, at
// plan (the validator) and at configure, before any request.
func TestProviderRateBudgetErrors(t *testing.T) {
	tests := []struct {
		name      string
		vals      map[string]tftypes.Value
		env       string
		detailHas []string
	}{
		{"zero", map[string]tftypes.Value{"rate_budget": num(0)}, "", []string{"rate_budget", "greater than 0 and at most 1", "got 0"}},
		{"over one", map[string]tftypes.Value{"rate_budget": num(1.5)}, "", []string{"rate_budget", "at most 1", "1.5"}},
		{"negative", map[string]tftypes.Value{"rate_budget": num(-0.5)}, "", []string{"rate_budget", "greater than 0"}},
		{"not a number from env", nil, "half", []string{EnvRateBudget, "greater than 0 and at most 1", `"half"`}},
		{"zero from env", nil, "0", []string{EnvRateBudget, `"0"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clearEnv(t)
			t.Setenv(EnvRateBudget, tc.env)
			resp := configureWith(t, rateConfig(t, tc.vals))
			errs := resp.Diagnostics.Errors()
			if len(errs) != 1 || errs[0].Summary() != "Invalid rate_budget" {
				t.Fatalf("diagnostics = %v, want one Invalid rate_budget", resp.Diagnostics)
			}
			for _, s := range tc.detailHas {
				if !strings.Contains(errs[0].Detail(), s) {
					t.Errorf("detail %q does not mention %q", errs[0].Detail(), s)
				}
			}
			if wp, ok := errs[0].(diag.DiagnosticWithPath); !ok || wp.Path().String() != "rate_budget" {
				t.Errorf("the error is not attached to rate_budget")
			}
			if resp.ResourceData != nil {
				t.Error("a failed Configure must not hand out provider data")
			}
		})
	}
	for _, b := range []float64{0, 1.0001, -1} {
		var resp validator.Float64Response
		rateBudgetValidator{}.ValidateFloat64(t.Context(), validator.Float64Request{
			Path: path.Root("rate_budget"), ConfigValue: types.Float64Value(b),
		}, &resp)
		if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics.Errors()[0].Detail(), "greater than 0 and at most 1") {
			t.Errorf("plan of rate_budget = %v: %v", b, resp.Diagnostics)
		}
	}
	for _, b := range []float64{0.01, 0.5, 1} {
		var resp validator.Float64Response
		rateBudgetValidator{}.ValidateFloat64(t.Context(), validator.Float64Request{
			Path: path.Root("rate_budget"), ConfigValue: types.Float64Value(b),
		}, &resp)
		if resp.Diagnostics.HasError() {
			t.Errorf("plan of rate_budget = %v: %v", b, resp.Diagnostics)
		}
	}
}

// TestProviderRateStateDirUnusable: a rate_state_dir that cannot be used
// is a warning naming it, and the provider goes on, pacing alone.
func TestProviderRateStateDirUnusable(t *testing.T) {
	clearEnv(t)
	t.Setenv(EnvRateBudget, "")
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(blocker, "rates")
	resp := configureWith(t, rateConfig(t, map[string]tftypes.Value{"rate_state_dir": str(dir)}))
	if resp.Diagnostics.HasError() {
		t.Fatalf("diagnostics: %v", resp.Diagnostics)
	}
	warns := resp.Diagnostics.Warnings()
	if len(warns) != 1 || warns[0].Summary() != "Rate budget not shared with the host's other processes" ||
		!strings.Contains(warns[0].Detail(), dir) || !strings.Contains(warns[0].Detail(), EnvRateStateDir) {
		t.Fatalf("warnings = %v", warns)
	}
	if resp.ResourceData == nil {
		t.Error("an unusable rate_state_dir must not stop the provider")
	}
}

// TestProviderRateStateDirUntrusted: a rate_state_dir every user of the
// host can write is a warning naming the folder and why, and the provider
// goes on, pacing alone; one its group can write is a team's, and used.
func TestProviderRateStateDirUntrusted(t *testing.T) {
	clearEnv(t)
	t.Setenv(EnvRateBudget, "")
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	resp := configureWith(t, rateConfig(t, map[string]tftypes.Value{"rate_state_dir": str(dir)}))
	if resp.Diagnostics.HasError() || resp.ResourceData == nil {
		t.Fatalf("diagnostics: %v", resp.Diagnostics)
	}
	warns := resp.Diagnostics.Warnings()
	if len(warns) != 1 || !strings.Contains(warns[0].Detail(), "The rate budget's folder ("+dir+") is not used") ||
		!strings.Contains(warns[0].Detail(), "every user of the host can write it (mode -rwxrwxrwx)") ||
		!strings.Contains(warns[0].Detail(), "paces its requests alone") {
		t.Fatalf("warnings = %v", warns)
	}

	team := t.TempDir()
	if err := os.Chmod(team, 0o770); err != nil {
		t.Fatal(err)
	}
	resp = configureWith(t, rateConfig(t, map[string]tftypes.Value{"rate_state_dir": str(team)}))
	if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() != 0 {
		t.Fatalf("a team's folder: %v", resp.Diagnostics)
	}
}

// TestTestsUseNoDefaultRateState: the run's providers make their default
// rate state folder in the run's own folders (TestMain), never in the
// user's, and a provider given no folder shares the run's.
func TestTestsUseNoDefaultRateState(t *testing.T) {
	dir, err := client.DefaultRateStateDir()
	if err != nil || !strings.HasPrefix(dir, os.Getenv("XDG_RUNTIME_DIR")) || !strings.Contains(dir, "platform-provider-test-env-") {
		t.Errorf("the default rate state folder of the tests is %q (%v), not the run's", dir, err)
	}
	if d := os.Getenv(EnvRateStateDir); !strings.Contains(d, "platform-provider-test-env-") {
		t.Errorf("%s = %q, want the run's folder", EnvRateStateDir, d)
	}
	if err := defaultRateStateUntouched(filepath.Dir(os.Getenv("XDG_RUNTIME_DIR"))); err != nil {
		t.Error(err)
	}
	sandbox := t.TempDir()
	if err := os.MkdirAll(filepath.Join(sandbox, "cache", "terraform-provider-platform", "rates"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := defaultRateStateUntouched(sandbox); err == nil || !strings.Contains(err.Error(), "a test wrote into the default rate state folder") {
		t.Errorf("a written default folder: %v", err)
	}
}

// storePassword is the password of the rate stores of the tests: it must
// reach no diagnostic and no log line.
const storePassword = "store-Pa55word-7f3a"

// configureLogged configures with vals in a context recording the logs.
func configureLogged(t *testing.T, vals map[string]tftypes.Value) (*provider.ConfigureResponse, context.Context, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	ctx := tflogtest.RootLogger(t.Context(), &logs)
	return configureIn(ctx, rateConfig(t, vals)), ctx, &logs
}

// noPassword fails t when text holds the store's password.
func noPassword(t *testing.T, where, text string) {
	t.Helper()
	for _, s := range []string{storePassword, "Pa55word"} {
		if strings.Contains(text, s) {
			t.Errorf("%s holds the rate store's password: %s", where, text)
		}
	}
}

// TestProviderRateStore: rate_store, or PLATFORM_RATE_STORE, shares the
// budget through the server, with no warning; the debug line of the
// configuration holds the URL with its password redacted.
func TestProviderRateStore(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{Password: storePassword})
	for _, fromEnv := range []bool{false, true} {
		clearEnv(t)
		t.Setenv(EnvRateBudget, "")
		vals := map[string]tftypes.Value{"rate_store": str(srv.URL(storePassword))}
		t.Setenv(EnvRateStore, "")
		if fromEnv {
			vals = nil
			t.Setenv(EnvRateStore, srv.URL(storePassword))
		}
		resp, _, logs := configureLogged(t, vals)
		if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() > 0 {
			t.Fatalf("environment %v: diagnostics: %v", fromEnv, resp.Diagnostics)
		}
		d, ok := resp.ResourceData.(*providerData)
		if !ok {
			t.Fatalf("ResourceData = %T", resp.ResourceData)
		}
		if err := d.client.RateStoreError(); err != nil {
			t.Errorf("RateStoreError = %v", err)
		}
		if !strings.Contains(logs.String(), "redis://:xxxxx@"+srv.Addr) {
			t.Errorf("the configuration's log line does not name the store: %s", logs)
		}
		noPassword(t, "the log", logs.String())
	}
}

// TestProviderRateStoreRefused: a store that refuses the password, or
// does not answer, is a warning naming rate_store and its variable, and
// the provider goes on, pacing alone; the password is in no diagnostic.
func TestProviderRateStoreRefused(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{Password: "the-right-one-42"})
	gone := redistest.Start(t, redistest.Options{})
	gone.Kill()
	for _, tc := range []struct{ name, url, says string }{
		{"wrong password", srv.URL(storePassword), "WRONGPASS"},
		{"unreachable", gone.URL(storePassword), "connection refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clearEnv(t)
			t.Setenv(EnvRateBudget, "")
			t.Setenv(EnvRateStore, "")
			resp, _, logs := configureLogged(t, map[string]tftypes.Value{"rate_store": str(tc.url)})
			if resp.Diagnostics.HasError() || resp.ResourceData == nil {
				t.Fatalf("diagnostics: %v; an unusable rate_store must not stop the provider", resp.Diagnostics)
			}
			warns := resp.Diagnostics.Warnings()
			if len(warns) != 1 || warns[0].Summary() != "Rate budget not shared through the rate store" {
				t.Fatalf("warnings = %v", warns)
			}
			for _, s := range []string{tc.says, EnvRateStore, "divided by 4", "0.125 of each published limit", "redis://:xxxxx@"} {
				if !strings.Contains(warns[0].Detail(), s) {
					t.Errorf("warning %q does not say %q", warns[0].Detail(), s)
				}
			}
			if wp, ok := warns[0].(diag.DiagnosticWithPath); !ok || wp.Path().String() != "rate_store" {
				t.Errorf("the warning is not attached to rate_store")
			}
			noPassword(t, "the warning", warns[0].Summary()+warns[0].Detail())
			noPassword(t, "the log", logs.String())
		})
	}
}

// TestProviderRateStoreLostMidRun: a store killed after configure: the
// next request's pacing says so in the provider's log at WARN, without
// the password, and the request is paced alone.
func TestProviderRateStoreLostMidRun(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{Password: storePassword})
	clearEnv(t)
	t.Setenv(EnvRateBudget, "")
	t.Setenv(EnvRateStore, "")
	resp, ctx, logs := configureLogged(t, map[string]tftypes.Value{"rate_store": str(srv.URL(storePassword))})
	if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() > 0 {
		t.Fatalf("diagnostics: %v", resp.Diagnostics)
	}
	d, ok := resp.ResourceData.(*providerData)
	if !ok {
		t.Fatalf("ResourceData = %T", resp.ResourceData)
	}
	srv.Kill()
	_, _ = d.client.Token(ctx, "transfer:read_transfer") // The test's server refuses it: only its pacing matters.
	var said bool
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, "the rate store was lost") {
			said = true
			if !strings.Contains(line, `"@level":"warn"`) || !strings.Contains(line, "redis://:xxxxx@"+srv.Addr) {
				t.Errorf("the loss is said %s, want at WARN naming the store", line)
			}
		}
	}
	if !said {
		t.Errorf("the loss of the store is not said: %s", logs)
	}
	noPassword(t, "the log", logs.String())
}

// TestProviderRateStoreInvalid: a rate_store that is not a Redis URL, or
// sends its password in clear to another host, is an error naming the
// attribute and its variable, before any request, and never the password.
func TestProviderRateStoreInvalid(t *testing.T) {
	for _, tc := range []struct{ raw, says string }{
		{"https://:" + storePassword + "@redis.example.com", "redis:// or rediss://"},
		{"redis://:" + storePassword + "@redis.example.com:6379", "use rediss://"},
		{"redis://:store/" + storePassword + "@localhost:6379", "percent-encoded"},
	} {
		clearEnv(t)
		t.Setenv(EnvRateStore, "")
		resp := configureWith(t, rateConfig(t, map[string]tftypes.Value{"rate_store": str(tc.raw)}))
		errs := resp.Diagnostics.Errors()
		if len(errs) != 1 || errs[0].Summary() != "Invalid rate_store" {
			t.Fatalf("diagnostics = %v, want one Invalid rate_store", resp.Diagnostics)
		}
		for _, s := range []string{tc.says, EnvRateStore} {
			if !strings.Contains(errs[0].Detail(), s) {
				t.Errorf("detail %q does not say %q", errs[0].Detail(), s)
			}
		}
		noPassword(t, "the error", errs[0].Detail())
		if resp.ResourceData != nil {
			t.Error("a failed Configure must not hand out provider data")
		}
	}
}

// publishedRatesBinary builds the provider as released, pacing to the
// published rates (no rateScale), over window (the emulator's), in a
// folder of t's.
func publishedRatesBinary(t *testing.T, window time.Duration) string {
	t.Helper()
	requireTFAcc(t)
	dir := t.TempDir()
	cmd := exec.CommandContext(t.Context(), "go", "build",
		"-ldflags", "-X github.com/platform/terraform-provider-platform/internal/provider.rateWindow="+window.String(),
		"-o", filepath.Join(dir, "terraform-provider-platform"), ".")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// TestAccRateStore_twoHostsOneBudget: two applies of withdrawals at once,
// from two working folders with state folders of their own (two hosts),
// each at rate_budget 0.25 on one Redis, against the emulator enforcing
// the published rates with a quarter share (window and throttle scaled to
// 30 s): together they send what one quarter allows, and draw no 429.
// Each alone at 0.25 would send twice that.
func TestAccRateStore_twoHostsOneBudget(t *testing.T) {
	t.Parallel()
	const n = 80 // Each; the two together are more than the 150 a window of 30 s allows at a quarter.
	srv := redistest.Start(t, redistest.Options{Password: storePassword})
	bin := publishedRatesBinary(t, 30*time.Second)
	emu := emulator.StartTest(t, emulator.Options{RateLimits: &emulator.RateLimits{
		Window: 30 * time.Second, Throttle: 30 * time.Second, Share: 0.25}})
	hosts := make([]*cliWorkdir, 2)
	for i := range hosts {
		hosts[i] = newCLIWorkdirFor(t, bin)
		hosts[i].write(emulatorProviderBlock(emu, fmt.Sprintf("  rate_budget    = 0.25\n  rate_state_dir = %q\n  rate_store     = %q\n",
			t.TempDir(), srv.URL(storePassword))), payrollTo(n, validBTCAddress("rate-store-payee"), fmt.Sprintf("host-%d-e", i)))
	}
	start := time.Now()
	results := make([]cliResult, len(hosts))
	var wg sync.WaitGroup
	for i, w := range hosts {
		wg.Go(func() { results[i] = w.run("apply", "-auto-approve", "-parallelism=30") })
	}
	wg.Wait()
	elapsed := time.Since(start)
	for i, r := range results {
		if r.code != 0 {
			t.Fatalf("host %d: apply exit %d\n%s", i, r.code, r.output())
		}
		noPassword(t, fmt.Sprintf("host %d's output", i), r.output())
		if strings.Contains(r.output(), "Rate budget not shared") {
			t.Errorf("host %d did not share the budget:\n%s", i, r.output())
		}
	}
	if b := emu.RateLimitsState().Breaches; b != 0 {
		t.Errorf("%d breaches of the limits, want none", b)
	}
	if got := len(emu.Transfers()); got != 2*n {
		t.Errorf("%d transfers at the emulator, want %d", got, 2*n)
	}
	// One budget: the window's allowance is 20 × 0.25 × 30 × 0.95 = 142.5
	// withdrawals, a burst of 14 of them, then the other 128.5 spread over
	// the window: 2n less the burst at that spacing.
	allowance, burst := 20*0.25*30*(1-0.05), 14.0
	floor := time.Duration(float64(2*n-burst) * float64(30*time.Second) / (allowance - burst))
	t.Logf("two applies of %d at once: %v (floor of one budget %v)", n, elapsed.Round(time.Second), floor.Round(time.Second))
	if elapsed < floor {
		t.Errorf("the two applies took %v, less than the floor of one budget %v: not shared", elapsed, floor)
	}
}
