package provider

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// Environment variables of the rate budget.
const (
	EnvRateBudget   = "PLATFORM_RATE_BUDGET"
	EnvRateStateDir = "PLATFORM_RATE_STATE_DIR"
	EnvRateStore    = "PLATFORM_RATE_STORE"
)

// rateSchema are the provider's arguments of the rate budget.
func rateSchema() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"rate_budget": schema.Float64Attribute{
			MarkdownDescription: fmt.Sprintf("The share of each of the service's published rate limits "+
				"(per endpoint and IP address, averaged over 5 minutes: see \"Rate limits\") that this "+
				"configuration may use, a number greater than 0 and at most 1; the rest is left to the address's "+
				"other traffic. Every request of the provider waits for its turn rather than exceed it, and the "+
				"provider processes of the host share the budget (`rate_state_dir`). Default `%v`. Environment "+
				"variable `%s`.", client.DefaultRateBudget, EnvRateBudget),
			Optional:   true,
			Validators: []validator.Float64{rateBudgetValidator{}},
		},
		"rate_state_dir": schema.StringAttribute{
			MarkdownDescription: "The folder through which the provider processes of this host (plans and " +
				"applies run at once, `terragrunt run-all`, parallel plans) share one rate budget: a few files of " +
				"eight bytes, locked only while they are read and written, so a killed process holds nothing, and " +
				"removed once untouched for 10 minutes (the service's window and throttle). Default: a folder of " +
				"the user's alone, `terraform-provider-platform/rates` in the user's runtime folder " +
				"(`$XDG_RUNTIME_DIR`) or else cache folder (`~/.cache`, `~/Library/Caches`, `%LocalAppData%`), " +
				"made `0700`. The folder must be the user's, and no other user may write it; a folder configured " +
				"here may be one its group can write, so that a team shares one budget (its files are then made " +
				"`0660`). Files are opened without following links and must be the user's (or the group's) " +
				"regular files. If the folder or a file cannot be used, or it holds more than 1,000 files, the " +
				"process paces alone at its `rate_budget`, never unpaced, and says why in a warning. Environment " +
				"variable `" + EnvRateStateDir + "`.",
			Optional: true,
		},
		"rate_store": schema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("A Redis (or Valkey) server, as a `redis://` or `rediss://` URL "+
				"(`rediss://user:password@host:6380/0`), through which every provider process of every host that "+
				"names it shares one rate budget: a pool of CI runners or agents behind one egress address. It "+
				"replaces `rate_state_dir`; give every host of the pool the same `rate_budget`, the pool's share. "+
				"A password travels only over `rediss://` (or to a loopback host), and is never logged. If the "+
				"server cannot be reached or refuses, the provider warns and each process paces alone at its "+
				"`rate_budget` divided by %d (or by the number of processes that shared the server in the last "+
				"5 minutes, if more), never unpaced, until the server answers again. Environment variable `%s`.",
				client.RateStoreFallbackDivisor, EnvRateStore),
			Optional:  true,
			Sensitive: true,
		},
	}
}

// rateBudgetRange says what rate_budget may be.
const rateBudgetRange = "a number greater than 0 and at most 1"

// validRateBudget reports whether b is a rate budget.
func validRateBudget(b float64) bool { return !math.IsNaN(b) && b > 0 && b <= 1 }

// rateBudgetValidator checks rate_budget at plan.
type rateBudgetValidator struct{}

func (rateBudgetValidator) Description(context.Context) string {
	return "value must be " + rateBudgetRange
}

func (v rateBudgetValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (rateBudgetValidator) ValidateFloat64(_ context.Context, req validator.Float64Request, resp *validator.Float64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if b := req.ConfigValue.ValueFloat64(); !validRateBudget(b) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid rate_budget",
			fmt.Sprintf("rate_budget must be %s (the share of each published rate limit), got %v.", rateBudgetRange, b))
	}
}

// configRateBudget is the rate_budget argument, or PLATFORM_RATE_BUDGET,
// or the default.
func configRateBudget(v types.Float64, diags *diag.Diagnostics) float64 {
	switch {
	case v.IsUnknown():
		diags.AddAttributeError(path.Root("rate_budget"), "Unknown provider configuration value",
			"The value of \"rate_budget\" is not known until apply. Set it to a value known at plan time.")
	case !v.IsNull():
		b := v.ValueFloat64()
		if !validRateBudget(b) {
			diags.AddAttributeError(path.Root("rate_budget"), "Invalid rate_budget",
				fmt.Sprintf("rate_budget must be %s (the share of each published rate limit), got %v.", rateBudgetRange, b))
		}
		return b
	default:
		if raw := os.Getenv(EnvRateBudget); raw != "" {
			b, err := strconv.ParseFloat(raw, 64)
			if err != nil || !validRateBudget(b) {
				diags.AddAttributeError(path.Root("rate_budget"), "Invalid rate_budget",
					fmt.Sprintf("%s (rate_budget) must be %s, got %q.", EnvRateBudget, rateBudgetRange, raw))
			}
			return b
		}
	}
	return client.DefaultRateBudget
}

// configRateStore checks the rate_store setting (read from the block or
// the environment): errors name the attribute and its variable, never the
// password.
func configRateStore(raw string, diags *diag.Diagnostics) {
	if raw == "" {
		return
	}
	if err := client.CheckRateStore(raw); err != nil {
		msg := err.Error()
		var ce *client.ConfigError
		if errors.As(err, &ce) {
			msg = ce.Msg
		}
		diags.AddAttributeError(path.Root("rate_store"), "Invalid rate_store",
			fmt.Sprintf("rate_store (from the provider block or %s) %s.", EnvRateStore, strings.TrimSuffix(msg, ".")))
	}
}

// warnRateStore warns once, at configure, that the rate store cannot be
// used: the process paces alone at a share of its budget.
func warnRateStore(c *client.Client, diags *diag.Diagnostics) {
	err := c.RateStoreError()
	if err == nil {
		return
	}
	diags.AddAttributeWarning(path.Root("rate_store"), "Rate budget not shared through the rate store",
		fmt.Sprintf("The rate store cannot be used: %v. This provider process paces its requests alone at its "+
			"rate_budget divided by %d (%v of each published limit), so that the pool's processes together stay "+
			"within the budget, and uses the store again once it answers. Check the server, its address and its "+
			"password (rate_store or %s).", err, err.Divisor, c.RateBudget()/float64(err.Divisor), EnvRateStore))
}

// warnRateState warns once, at configure, that the rate budget is not
// shared with the host's other processes: the folder and why.
func warnRateState(c *client.Client, diags *diag.Diagnostics) {
	err := c.RateStateError()
	if err == nil {
		return
	}
	folder := c.RateStateDir()
	if folder == "" {
		folder = "none: this user has no runtime or cache folder"
	}
	diags.AddAttributeWarning(path.Root("rate_state_dir"), "Rate budget not shared with the host's other processes",
		fmt.Sprintf("The rate budget's folder (%s) is not used: %v. This provider process paces its "+
			"requests alone at its rate_budget (%v of each published limit), so provider processes run at once "+
			"on this host may together send more than the budget. Set rate_state_dir (or %s) to a folder "+
			"of this user's that no other user can write (a team may share one its group can write), or "+
			"remove what the message names.", folder, err, c.RateBudget(), EnvRateStateDir))
}

// redactedStore is the rate_store URL as it may be logged, or "".
func redactedStore(raw string) string {
	if raw == "" {
		return ""
	}
	return client.RedactStoreURL(raw)
}
