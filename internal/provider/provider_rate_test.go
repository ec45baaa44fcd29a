package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/client"
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
