package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// Money guards: the withdrawal_guard block of the provider. Every
// withdrawal the plan creates or replaces (resource) or invokes (action)
// passes each guard of withdrawalGuards at plan; one that breaks a guard is
// an error naming the guard, the figures and the withdrawal, before any
// POST. A guard that cannot be checked (an amount known only at apply, a
// read the credentials may not make, a limit in an asset without a price)
// is a warning.
//
// The provider process serves one whole plan, every module and for_each
// instance alike, so the figures of the run are summed in the process
// (runTally), keyed by the withdrawal's ref_id so that planning one object
// twice counts it once. The service's limits and prices are read once per
// process.

// Environment variables of the guards.
const (
	EnvWithdrawalMaxAmount    = "PLATFORM_WITHDRAWAL_MAX_AMOUNT"
	EnvWithdrawalMaxRunTotal  = "PLATFORM_WITHDRAWAL_MAX_RUN_TOTAL"
	EnvCheckServiceLimits     = "PLATFORM_WITHDRAWAL_CHECK_SERVICE_LIMITS"
	withdrawalGuardBlock      = "withdrawal_guard"
	guardLimitsTransferType   = client.TransferTypeCryptoWithdr
	guardConversionPrecision  = 8
	guardConversionDivisorExp = 18
)

// guardModel is the withdrawal_guard block.
type guardModel struct {
	MaxAmount          types.Map  `tfsdk:"max_amount"`
	MaxRunTotal        types.Map  `tfsdk:"max_run_total"`
	CheckServiceLimits types.Bool `tfsdk:"check_service_limits"`
}

// withdrawalGuardSchema is the withdrawal_guard block of the provider.
func withdrawalGuardSchema() schema.Block {
	amounts := []validator.Map{
		mapvalidator.KeysAre(stringvalidator.LengthAtLeast(1)),
		mapvalidator.ValueStringsAre(decimalValidator()),
	}
	return schema.SingleNestedBlock{
		MarkdownDescription: "Limits every crypto withdrawal (resource `platform_crypto_withdrawal` and the action " +
			"of the same name) must keep, checked at plan: a withdrawal that breaks one is refused before anything " +
			"is sent, with an error naming the guard, the figures and the withdrawal. Amounts are compared as " +
			"decimals. A guard that cannot be checked at plan (an amount known only at apply, the limits not " +
			"readable with these credentials, a limit in an asset without a price) is a warning. See the " +
			"\"Guard rails\" section of the provider's documentation.",
		Attributes: map[string]schema.Attribute{
			"max_amount": schema.MapAttribute{
				ElementType: types.StringType,
				MarkdownDescription: "The largest `amount` (or `total`, when the withdrawal sets `total`) of one " +
					"withdrawal, by asset, as decimal strings: `{ BTC = \"0.5\", USDC = \"25000\" }`. Assets not " +
					"named are not limited. Environment variable `" + EnvWithdrawalMaxAmount + "` " +
					"(`BTC=0.5,USDC=25000`) when unset.",
				Optional:   true,
				Validators: amounts,
			},
			"max_run_total": schema.MapAttribute{
				ElementType: types.StringType,
				MarkdownDescription: "The most one plan may send, by asset: the sum of the `amount` (or `total`) of " +
					"every withdrawal the plan creates or replaces, in every module and `for_each` instance, and of " +
					"every withdrawal action it invokes. Withdrawals already in the state and unchanged do not " +
					"count. Environment variable `" + EnvWithdrawalMaxRunTotal + "` when unset.",
				Optional:   true,
				Validators: amounts,
			},
			"check_service_limits": schema.BoolAttribute{
				MarkdownDescription: "Compare each withdrawal, and the plan's total, with the service's transfer " +
					"limits of crypto withdrawals (`GET /transfer/limits/utilizations`, their `remaining`; a " +
					"single-transaction limit, period 0, bounds each withdrawal). A limit in another asset is " +
					"compared after converting the withdrawal at the highest price of the service's ticker " +
					"(`GET /markets/{market}/ticker`), and the conversion is shown. Needs the OAuth scope `" +
					client.ScopeReadTransferLimit + "`; without it, or without a price, a warning says which " +
					"limit was not checked. Default `false`. Environment variable `" + EnvCheckServiceLimits + "`.",
				Optional: true,
			},
		},
	}
}

// withdrawalGuard is the configured guard of a provider process.
type withdrawalGuard struct {
	maxAmount, maxRunTotal map[string]decimal.Decimal
	checkServiceLimits     bool

	// run serializes the checks of the withdrawals of a plan (guardWithdrawal).
	run   sync.Mutex
	tally runTally
	// limits and prices are read once per process.
	limitsOnce sync.Once
	limits     []*client.TransferLimit
	limitsErr  error
	prices     sync.Map // market -> *priceEntry
}

// active reports whether any guard is configured.
func (g *withdrawalGuard) active() bool {
	return g != nil && (len(g.maxAmount) > 0 || len(g.maxRunTotal) > 0 || g.checkServiceLimits)
}

// configWithdrawalGuard reads the withdrawal_guard block, each argument
// falling back to its environment variable.
func configWithdrawalGuard(ctx context.Context, obj types.Object, diags *diag.Diagnostics) *withdrawalGuard {
	var m guardModel
	if !obj.IsNull() && !obj.IsUnknown() {
		diags.Append(obj.As(ctx, &m, basetypes.ObjectAsOptions{})...)
	}
	g := &withdrawalGuard{}
	g.maxAmount = guardAmounts(ctx, "max_amount", EnvWithdrawalMaxAmount, m.MaxAmount, diags)
	g.maxRunTotal = guardAmounts(ctx, "max_run_total", EnvWithdrawalMaxRunTotal, m.MaxRunTotal, diags)
	switch {
	case m.CheckServiceLimits.IsUnknown():
		diags.AddAttributeError(path.Root(withdrawalGuardBlock).AtName("check_service_limits"),
			"Unknown provider configuration value", "check_service_limits must be known at plan time.")
	case !m.CheckServiceLimits.IsNull():
		g.checkServiceLimits = m.CheckServiceLimits.ValueBool()
	default:
		if raw := os.Getenv(EnvCheckServiceLimits); raw != "" {
			b, err := strconv.ParseBool(raw)
			if err != nil {
				diags.AddAttributeError(path.Root(withdrawalGuardBlock).AtName("check_service_limits"),
					"Invalid check_service_limits", fmt.Sprintf("%s must be true or false, got %q.", EnvCheckServiceLimits, raw))
			}
			g.checkServiceLimits = b
		}
	}
	return g
}

// guardAmounts reads a map of amounts by asset, or its environment
// variable ("BTC=0.5,USDC=25000") when it is unset. Assets are upper case.
func guardAmounts(ctx context.Context, attr, env string, v types.Map, diags *diag.Diagnostics) map[string]decimal.Decimal {
	p := path.Root(withdrawalGuardBlock).AtName(attr)
	raw := map[string]string{}
	source := attr
	switch {
	case v.IsUnknown():
		diags.AddAttributeError(p, "Unknown provider configuration value", attr+" must be known at plan time.")
		return nil
	case !v.IsNull():
		diags.Append(v.ElementsAs(ctx, &raw, false)...)
	default:
		source = env
		for _, pair := range strings.FieldsFunc(os.Getenv(env), func(r rune) bool { return r == ',' || r == ' ' }) {
			asset, amount, ok := strings.Cut(pair, "=")
			if !ok || strings.TrimSpace(asset) == "" {
				diags.AddAttributeError(p, "Invalid "+attr, fmt.Sprintf("%s must be a comma-separated list of "+
					"ASSET=AMOUNT pairs such as \"BTC=0.5,USDC=25000\", got the pair %q.", env, pair))
				return nil
			}
			raw[strings.TrimSpace(asset)] = strings.TrimSpace(amount)
		}
	}
	out := map[string]decimal.Decimal{}
	for asset, amount := range raw {
		d, ok := parseAmount(amount)
		key := strings.ToUpper(asset)
		if _, dup := out[key]; dup {
			diags.AddAttributeError(p, "Invalid "+attr, fmt.Sprintf("%s names the asset %s twice (assets are "+
				"compared in upper case).", source, key))
		}
		if !ok {
			diags.AddAttributeError(p, "Invalid "+attr, fmt.Sprintf("%s of %s must be a decimal such as \"0.5\", "+
				"got %s.", source, asset, quotedPrefix(amount)))
			continue
		}
		out[key] = d
	}
	return out
}

// parseAmount parses a plain decimal (see plainDecimal).
func parseAmount(s string) (decimal.Decimal, bool) {
	if !plainDecimal(s) {
		return decimal.Decimal{}, false
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil
}

// guardedWithdrawal is what the guards see of one withdrawal.
type guardedWithdrawal struct {
	// key identifies it in the run's tally: the ref_id it is sent with.
	key string
	// refID is shown; "" when it is chosen at invocation.
	refID string
	asset string
	// figure is its amount, or its total when it sets total; figureName
	// says which.
	figure     decimal.Decimal
	figureName string
	what       string
	// resourceType names the withdrawal's kind in messages.
	resourceType string
}

// guarded is what the guards see of the withdrawal of a, sent with refID
// and keyed by key in the run's tally.
func (a cryptoWithdrawalArgs) guarded(key, refID, resourceType string) guardedWithdrawal {
	w := guardedWithdrawal{key: key, refID: refID, asset: knownString(a.Asset), figureName: "amount",
		what: a.summary(), resourceType: resourceType}
	raw := knownString(a.Amount)
	if raw == "" {
		w.figureName, raw = "total", knownString(a.Total)
	}
	w.figure, _ = parseAmount(raw)
	return w
}

// guardRule is one guard: check returns the breaches (errors) and what it
// could not check (warnings) for w, given the figures of the other
// withdrawals of the run (planned: by asset, without w).
type guardRule struct {
	name  string
	check func(ctx context.Context, g *withdrawalGuard, data *providerData, w guardedWithdrawal, planned map[string]decimal.Decimal) guardFindings
}

// guardFindings are what a guard found.
type guardFindings struct {
	breaches, unchecked []string
}

// withdrawalGuards are the guards, in the order they are reported.
var withdrawalGuards = []guardRule{
	{name: "max_amount", check: checkMaxAmount},
	{name: "max_run_total", check: checkMaxRunTotal},
	{name: "check_service_limits", check: checkServiceLimits},
}

// guardWithdrawal passes w through every guard, with the figures of the
// other withdrawals of this run. Unless w breaks one, it is added to the
// run's tally. Errors are on attr (amount or total).
func guardWithdrawal(ctx context.Context, data *providerData, w guardedWithdrawal, diags *diag.Diagnostics) {
	if data == nil || !data.guard.active() {
		return
	}
	g := data.guard
	// Terraform plans several withdrawals at once: each is checked and
	// added to the tally in turn, so that the last one sees every other.
	g.run.Lock()
	defer g.run.Unlock()
	planned := g.tally.others(w.key)
	ok := true
	for _, rule := range withdrawalGuards {
		f := rule.check(ctx, g, data, w, planned)
		for _, b := range f.breaches {
			ok = false
			diags.AddAttributeError(path.Root(w.figureName), "Withdrawal guard "+rule.name+" refuses this withdrawal",
				fmt.Sprintf("The %s %s (%s, ref_id %s) breaks the provider's withdrawal_guard: %s\n\nNothing was "+
					"sent. If the figure is right, the guard is the place to change, in the provider block that "+
					"reviews every withdrawal.", w.resourceType, w.what, w.figureName+" "+w.figure.String()+" "+w.asset,
					shownRef(w.refID), b))
		}
		for _, u := range f.unchecked {
			data.warnOnce("guard:"+rule.name+":"+u, func() {
				diags.AddWarning("Withdrawal guard "+rule.name+" not checked", u)
			})
		}
	}
	if ok {
		g.tally.add(w.key, w.asset, w.figure)
	}
}

// guardUnknown warns that a withdrawal whose figures are known only at
// apply is not guarded at plan.
func guardUnknown(data *providerData, resourceType string, diags *diag.Diagnostics) {
	if data == nil || !data.guard.active() {
		return
	}
	data.warnOnce("guard:unknown:"+resourceType, func() {
		diags.AddWarning("Withdrawal guard not checked at plan",
			fmt.Sprintf("An argument of a %s is known only at apply, so the withdrawal_guard of the provider cannot "+
				"check it at plan and this plan does not show whether it keeps the guard's limits. A resource is "+
				"checked when the apply plans it with its final values, before anything is sent; it does not count "+
				"in the plan's max_run_total until then.", resourceType))
	})
}

func shownRef(refID string) string {
	if refID == "" {
		return "chosen at invocation"
	}
	return refID
}

// checkMaxAmount: the figure of one withdrawal is at most max_amount.
func checkMaxAmount(_ context.Context, g *withdrawalGuard, _ *providerData, w guardedWithdrawal, _ map[string]decimal.Decimal) guardFindings {
	limit, ok := g.maxAmount[strings.ToUpper(w.asset)]
	if !ok || w.figure.LessThanOrEqual(limit) {
		return guardFindings{}
	}
	return guardFindings{breaches: []string{fmt.Sprintf("max_amount of %s is %s; this withdrawal asks %s %s.",
		strings.ToUpper(w.asset), limit, w.figure, w.asset)}}
}

// checkMaxRunTotal: the figures of the run, this one included, are at most
// max_run_total.
func checkMaxRunTotal(_ context.Context, g *withdrawalGuard, _ *providerData, w guardedWithdrawal, planned map[string]decimal.Decimal) guardFindings {
	asset := strings.ToUpper(w.asset)
	limit, ok := g.maxRunTotal[asset]
	if !ok {
		return guardFindings{}
	}
	before := planned[asset]
	if total := before.Add(w.figure); total.GreaterThan(limit) {
		return guardFindings{breaches: []string{fmt.Sprintf("max_run_total of %s is %s for the whole plan; %s %s "+
			"is already planned in this run by other withdrawals, and this one asks %s more (%s in all).",
			asset, limit, before, asset, w.figure, total)}}
	}
	return guardFindings{}
}

// runTally sums the figures of the withdrawals of one plan, by asset,
// keyed by ref_id; safe for concurrent use.
type runTally struct {
	mu      sync.Mutex
	figures map[string]tallied
}

type tallied struct {
	asset  string
	figure decimal.Decimal
}

// add records (or replaces) the figure of key.
func (t *runTally) add(key, asset string, figure decimal.Decimal) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.figures == nil {
		t.figures = map[string]tallied{}
	}
	t.figures[key] = tallied{asset: strings.ToUpper(asset), figure: figure}
}

// others sums, by asset, the figures of every key but key.
func (t *runTally) others(key string) map[string]decimal.Decimal {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[string]decimal.Decimal{}
	for k, v := range t.figures {
		if k != key {
			out[v.asset] = out[v.asset].Add(v.figure)
		}
	}
	return out
}

// checkServiceLimits compares w, and the run's total, with the service's
// limits of crypto withdrawals.
func checkServiceLimits(ctx context.Context, g *withdrawalGuard, data *providerData, w guardedWithdrawal, planned map[string]decimal.Decimal) guardFindings {
	if !g.checkServiceLimits {
		return guardFindings{}
	}
	var f guardFindings
	limits, err := g.serviceLimits(ctx, data.client)
	if err != nil {
		why := err.Error()
		if scopeRefused(err) {
			why = fmt.Sprintf("reading them needs the OAuth scope %s; have it granted to the client credentials (and, "+
				"if the provider's scopes argument pins the token's scopes, include it there): %s",
				client.ScopeReadTransferLimit, err)
		}
		f.unchecked = append(f.unchecked, "The service's transfer limits could not be read, so no withdrawal of this "+
			"plan was compared with them: "+why+".")
		return f
	}
	for _, l := range limits {
		remaining, ok := parseAmount(l.Remaining)
		if !ok {
			continue
		}
		single := l.PeriodSeconds == "0"
		value, conversion, priced := g.convert(ctx, data.client, w.figure, w.asset, l.LimitAsset)
		if !priced {
			f.unchecked = append(f.unchecked, fmt.Sprintf("The service's limit %s (%s %s) is in %s, and the service "+
				"has no price of %s in %s: withdrawals of %s were not compared with it.", l.RuleID, l.Limit,
				l.LimitAsset, l.LimitAsset, w.asset, l.LimitAsset, w.asset))
			continue
		}
		what := fmt.Sprintf("the service's limit %s (%s)", l.RuleID, periodText(l.PeriodSeconds))
		if value.GreaterThan(remaining) {
			f.breaches = append(f.breaches, fmt.Sprintf("%s allows %s %s (remaining); this withdrawal asks %s%s.",
				what, remaining, l.LimitAsset, value.Round(guardConversionPrecision), conversion))
			continue
		}
		if single {
			continue
		}
		// The run's total in the limit's asset.
		before := decimal.Zero
		for asset, figure := range planned {
			v, _, ok := g.convert(ctx, data.client, figure, asset, l.LimitAsset)
			if ok {
				before = before.Add(v)
			}
		}
		if total := before.Add(value); total.GreaterThan(remaining) {
			f.breaches = append(f.breaches, fmt.Sprintf("%s allows %s %s (remaining); %s %s is already planned in "+
				"this run, and this withdrawal asks %s%s more (%s in all).", what, remaining, l.LimitAsset,
				before.Round(guardConversionPrecision), l.LimitAsset, value.Round(guardConversionPrecision), conversion,
				total.Round(guardConversionPrecision)))
		}
	}
	return f
}

func periodText(seconds string) string {
	if seconds == "0" {
		return "single transaction"
	}
	return "over " + seconds + " seconds"
}

// serviceLimits reads the limits of crypto withdrawals once per process.
func (g *withdrawalGuard) serviceLimits(ctx context.Context, c *client.Client) ([]*client.TransferLimit, error) {
	g.limitsOnce.Do(func() {
		for l, err := range c.TransferLimits(ctx, guardLimitsTransferType) {
			if err != nil {
				g.limitsErr = err
				return
			}
			if slices.Contains(l.TransferTypes, guardLimitsTransferType) || len(l.TransferTypes) == 0 {
				g.limits = append(g.limits, l)
			}
		}
		tflog.Debug(ctx, "transfer limits read for the withdrawal guard", map[string]any{"limits": len(g.limits)})
	})
	return g.limits, g.limitsErr
}

// priceEntry is one market's price, read once.
type priceEntry struct {
	once  sync.Once
	price decimal.Decimal
	ok    bool
}

// convert converts amount of asset into target: the same asset as it is,
// otherwise at the highest price of the ticker of asset+target (or, as
// its inverse, the lowest of target+asset). conversion describes it.
func (g *withdrawalGuard) convert(ctx context.Context, c *client.Client, amount decimal.Decimal, asset, target string) (decimal.Decimal, string, bool) {
	a, t := strings.ToUpper(asset), strings.ToUpper(target)
	if a == t {
		return amount, "", true
	}
	if p, ok := g.price(ctx, c, a+t, true); ok {
		v := amount.Mul(p)
		return v, fmt.Sprintf(" %s (%s %s at %s, the highest price of the service's %s ticker)", t, amount, a, p, a+t), true
	}
	if p, ok := g.price(ctx, c, t+a, false); ok && p.IsPositive() {
		v := amount.DivRound(p, guardConversionDivisorExp)
		return v, fmt.Sprintf(" %s (%s %s at 1/%s, the lowest price of the service's %s ticker)", t, amount, a, p, t+a), true
	}
	return decimal.Zero, "", false
}

// price reads the ticker of market once per process: its highest price
// (or lowest, when !highest) among best bid, best ask and last execution.
func (g *withdrawalGuard) price(ctx context.Context, c *client.Client, market string, highest bool) (decimal.Decimal, bool) {
	key := market + "/" + strconv.FormatBool(highest)
	v, _ := g.prices.LoadOrStore(key, &priceEntry{})
	e, _ := v.(*priceEntry)
	e.once.Do(func() {
		tk, err := c.GetTicker(ctx, market)
		if err != nil {
			if !errors.Is(err, client.ErrNotFound) {
				tflog.Warn(ctx, "ticker not read", map[string]any{"market": market, "error": err.Error()})
			}
			return
		}
		for _, lvl := range []*client.BookLevel{tk.BestBid, tk.BestAsk, tk.LastExecution} {
			if lvl == nil {
				continue
			}
			p, ok := parseAmount(lvl.Price)
			if !ok || !p.IsPositive() {
				continue
			}
			if !e.ok || (highest && p.GreaterThan(e.price)) || (!highest && p.LessThan(e.price)) {
				e.price, e.ok = p, true
			}
		}
	})
	return e.price, e.ok
}
