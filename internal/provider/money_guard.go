package provider

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// The money guard: the withdrawal_guard block of the provider. Every money
// movement the plan creates or replaces (resource) or invokes (action)
// passes each rule of guardRules at plan, and again at the moment it is
// sent (guardSend), whatever path sends it: a resource's create, an
// action's invocation, a retry. One that breaks a rule is an error naming
// the rule, the figures, the movement and the next step, before any POST.
//
// A rule is one row of guardRules: the setting of the block that switches
// it on (its schema attribute and the environment variable that is its
// floor), or none for a rule that is always on, and one check function
// (money_guard_checks.go). A new rule is one row and one function.
//
// Rules fail closed: a figure a rule cannot judge (an amount or total that
// is not a decimal of the provider's amount type, an asset that is not an
// asset code, a limit whose remaining is not a decimal, a limit in an asset
// without a price, limits or an address book the credentials cannot read)
// is refused, never counted as zero or skipped. At plan, an argument known
// only at apply is a warning (a rule with its own partial check, such as
// approved_destinations_only, refuses it): the movement is judged with its
// final values before it is sent.
//
// The environment's values (PLATFORM_WITHDRAWAL_*) are a floor: a provider
// block, root, aliased or in a module, may tighten them (a smaller figure,
// another asset, a rule switched on), never loosen or remove them.
//
// The provider process serves one provider configuration's share of a
// whole plan (or apply), every module and for_each instance alike, so the
// figures of the run are summed in the process: what the plan creates
// (runTally) and, separately, what the process sends. Each movement is
// counted by what it is (movementKey): its kind and ref_id (the service
// keeps each kind's ref_ids apart, so a fiat withdrawal, an internal
// transfer and a conversion may share one), or its invocation, and what it
// moves; planning one object twice counts it once, and no two movements
// are ever folded into one. Terraform runs one process per provider
// configuration: totals across aliases are the plan's, for a policy over
// the plan JSON. The service's limits, prices and address book are read
// once per process.

// Environment variables of the guard's settings (user-facing names: they
// never change).
const (
	EnvWithdrawalMaxAmount   = "PLATFORM_WITHDRAWAL_MAX_AMOUNT"
	EnvWithdrawalMaxRunTotal = "PLATFORM_WITHDRAWAL_MAX_RUN_TOTAL"
	EnvCheckServiceLimits    = "PLATFORM_WITHDRAWAL_CHECK_SERVICE_LIMITS"
	EnvApprovedDestinations  = "PLATFORM_WITHDRAWAL_APPROVED_DESTINATIONS_ONLY"
	EnvCheckBalances         = "PLATFORM_WITHDRAWAL_CHECK_BALANCES"
	// withdrawalGuardBlock is the block's name in the provider schema.
	withdrawalGuardBlock = "withdrawal_guard"
)

// The settings of the block, as the rules and their checks name them.
const (
	settingMaxAmount          = "max_amount"
	settingMaxRunTotal        = "max_run_total"
	settingCheckServiceLimits = "check_service_limits"
	settingApprovedOnly       = "approved_destinations_only"
	settingCheckBalances      = "check_balances"
)

// guardRule is one rule of the guard.
type guardRule struct {
	// setting is the attribute of the withdrawal_guard block that switches
	// the rule on, and names it in messages; "" for a rule that is always
	// on (name names it then).
	setting string
	name    string
	// env is the environment variable that is the setting's floor.
	env string
	// attribute is the setting's schema: a map of caps by asset (the rule
	// is on for the assets it names) or a bool (the rule is on when true).
	attribute schema.Attribute
	// check returns the breaches and what it could not check for w, given
	// the figures of the other movements of the run (planned: by asset,
	// without w). Both are errors: the guard fails closed.
	check func(ctx context.Context, g *moneyGuard, run *moneyRun, w guardedMovement, planned map[string]decimal.Decimal) guardFindings
	// partial, when set, checks at plan a movement m known only in part:
	// what the rule can judge without its figure. Without it, the rule
	// warns that it judges m at apply.
	partial func(ctx context.Context, g *moneyGuard, run *moneyRun, m movement, via string) guardFindings
	// standing, in place of check, makes the row one that judges where a
	// standing movement m goes (an orchestration rule, which routes every
	// future deposit and has no figure, so that the rules of figures do not
	// apply to it), at plan and at send (guardStanding). Its breaches are
	// told with the row's next step; what it could not check says its own.
	standing func(ctx context.Context, g *moneyGuard, run *moneyRun, m movement, w guardedMovement) guardFindings
	// arg is the argument of w its errors are on; nil: the figure it
	// checks (amount or total).
	arg func(w guardedMovement) string
	// next is the next step a refusal of w advises, after the figures.
	next func(g *moneyGuard, w guardedMovement) string
}

// caps reports whether the rule's setting is a map of caps by asset.
func (r guardRule) caps() bool {
	_, ok := r.attribute.(schema.MapAttribute)
	return ok
}

// guardRules are the rules, in the order they are reported.
var guardRules = []guardRule{
	{
		// Always on: a movement to a fiat account that this run saw is not
		// APPROVED, or that this plan creates, is refused; under
		// approved_destinations_only, the service is asked about the account.
		name:    "fiat account approval",
		check:   checkApprovedFiatAccount,
		partial: partialApprovedFiatAccount,
		arg:     func(guardedMovement) string { return "fiat_account_id" },
		next: func(_ *moneyGuard, w guardedMovement) string {
			if w.fiatAccount == "" {
				return "Next step: apply the fiat account first (terraform apply -target=<the account>), and plan " +
					"the withdrawal once the service's review has approved it."
			}
			return "Next step: have the service approve the bank account " + shown(w.fiatAccount) + " (its review " +
				"sets the fiat account's status to APPROVED; terraform refresh shows it), then plan again."
		},
	},
	{
		setting: settingMaxAmount,
		env:     EnvWithdrawalMaxAmount,
		attribute: schema.MapAttribute{
			ElementType: types.StringType,
			MarkdownDescription: "The largest `amount` (or `total`, when a withdrawal sets `total`) of one " +
				"money movement, by the asset that leaves its profile (a conversion's `source_asset`), as decimal strings: `{ BTC = \"0.5\", USDC = \"25000\" }`. Assets not " +
				"named are not limited. Environment variable `" + EnvWithdrawalMaxAmount + "` " +
				"(`BTC=0.5,USDC=25000`): a floor, so that an asset it names is capped at the smaller of the " +
				"two figures whatever this map says (an empty map included).",
			Optional:   true,
			Validators: capValidators(),
		},
		check: checkMaxAmount,
		next: func(g *moneyGuard, w guardedMovement) string {
			return fmt.Sprintf("Next step: split it into movements of at most %s %s each, or, if one movement of "+
				"this size is intended, raise max_amount for %s in %s.", g.caps[settingMaxAmount][w.assetKey].limit,
				w.assetKey, w.assetKey, capSource(g.caps[settingMaxAmount][w.assetKey]))
		},
	},
	{
		setting: settingMaxRunTotal,
		env:     EnvWithdrawalMaxRunTotal,
		attribute: schema.MapAttribute{
			ElementType: types.StringType,
			MarkdownDescription: "The most one provider configuration may send in one run, by asset: the sum of " +
				"the `amount` (or `total`) of every money movement the plan creates or replaces through this " +
				"provider configuration, in every module and `for_each` instance, and of every money action it " +
				"invokes; at apply, the sum of what it sends. Movements already in the state and unchanged do " +
				"not count. Terraform runs one provider process per provider configuration (each alias, each " +
				"module's own `provider` block), and each has its own total: for a total across configurations, " +
				"check the plan (see the \"Guard rails\" section). Environment variable `" +
				EnvWithdrawalMaxRunTotal + "`, a floor as for `max_amount`.",
			Optional:   true,
			Validators: capValidators(),
		},
		check: checkMaxRunTotal,
		next: func(g *moneyGuard, w guardedMovement) string {
			return fmt.Sprintf("Next step: send part of the run's movements in a later run (apply with "+
				"-target, or move them to another configuration's apply), or, if a run this large is intended, "+
				"raise max_run_total for %s in %s.", w.assetKey, capSource(g.caps[settingMaxRunTotal][w.assetKey]))
		},
	},
	windowRule(dailyWindow),
	windowRule(weeklyWindow),
	{
		setting: settingCheckServiceLimits,
		env:     EnvCheckServiceLimits,
		attribute: schema.BoolAttribute{
			MarkdownDescription: "Compare each withdrawal and internal transfer, and the run's total, with the " +
				"service's transfer limits of its transfer types (`GET /transfer/limits/utilizations`, their " +
				"`remaining`; a single-transaction limit, period 0, bounds each one), at plan and at send; a " +
				"stablecoin conversion is not a transfer, and no transfer limit bounds it. A limit in " +
				"another asset is compared after converting the withdrawal at the highest price of the service's " +
				"ticker (`GET /markets/{market}/ticker`), and the conversion is shown. Needs the OAuth scope `" +
				client.ScopeReadTransferLimit + "`. A withdrawal it cannot compare (the limits not readable, a " +
				"remaining that is not a decimal, no price for a limit in another asset) is refused. Default " +
				"`false`; environment variable `" + EnvCheckServiceLimits + "` (`true` there cannot be switched " +
				"off by a provider block).",
			Optional: true,
		},
		check: checkServiceLimits,
		next: func(*moneyGuard, guardedMovement) string {
			return "Next step: wait until the limit's period frees enough of it (platform_transfer_limits shows " +
				"what remains), split the movement over later runs, or ask the service for a higher limit; a " +
				"single-transaction limit is met only by smaller movements."
		},
	},
	{
		setting: settingApprovedOnly,
		env:     EnvApprovedDestinations,
		attribute: schema.BoolAttribute{
			MarkdownDescription: "Every crypto withdrawal must go to an `APPROVED` entry of the service's withdrawal " +
				"address book (`platform_crypto_destination_address`) with the same `destination_address` and " +
				"`crypto_network` (and, when the withdrawal sets `identity_id`, of that identity or of no " +
				"identity). The book is read once per plan and once per apply (`GET " +
				"/transfer/crypto-destination-addresses`, scope `" + client.ScopeReadCryptoDestinationAddress +
				"`), so an address rejected between the plan and the apply of a saved plan is refused at send. " +
				"A plan where it cannot be checked (the book not readable, a destination known only at apply) " +
				"fails. Every fiat withdrawal must go to a fiat account the service shows `APPROVED` (`GET " +
				"/transfer/fiat-accounts/{id}`, scope `" + client.ScopeReadFiatAccount + "`, once per account per " +
				"run). Internal transfers and stablecoin conversions stay within the customer's profiles: they have " +
				"no destination to approve. Default `false`; environment variable `" + EnvApprovedDestinations +
				"` (`true` there cannot be switched off by a provider block).",
			Optional: true,
		},
		check:   checkApprovedDestination,
		partial: partialApprovedDestination,
		arg:     func(guardedMovement) string { return "destination_address" },
		next:    approvedDestinationNext,
	},
	{
		setting: settingCheckBalances,
		env:     EnvCheckBalances,
		attribute: schema.BoolAttribute{
			MarkdownDescription: "Compare what the run sends from each profile in each asset (every money movement " +
				"of this provider configuration: resources the plan creates or replaces and actions it invokes) " +
				"with the profile's available balance (`GET /profiles/{id}/balances`, scope `" +
				client.ScopeReadBalances + "`, read once per profile per plan and once per apply), at plan and " +
				"again at send: the plan of a payroll the profile cannot fund fails with the figures, before " +
				"anything is sent, instead of failing halfway through the apply. A withdrawal set by `amount` is " +
				"compared by its amount: its fee is known only when it is sent, so leave room for it or set " +
				"`total`. An amount is compared only with the balance of its own asset: a withdrawal whose " +
				"`balance_asset` names another asset (a BTC withdrawal debited from the USD balance) cannot be " +
				"compared, and is refused, with nothing sent. A balance that " +
				"cannot be read, that is not a decimal or that the service lists twice refuses the movement; an " +
				"asset the profile holds none of has nothing available. Default `false`; environment variable `" +
				EnvCheckBalances + "` (`true` there cannot be switched off by a provider block).",
			Optional: true,
		},
		check: checkBalances,
		next: func(_ *moneyGuard, w guardedMovement) string {
			return fmt.Sprintf("Next step: fund profile %s with %s (a deposit, or an internal transfer from another "+
				"profile) and plan again, or send less from it in this run.", shown(w.profile), w.debitKey)
		},
	},
	{
		// Always on, for a standing movement: a fiat account this run has
		// seen not APPROVED, or one known only at apply (an account this
		// plan makes, so not yet approved), is refused as a withdrawal's
		// is; under approved_destinations_only, the service is asked.
		name:     "fiat account approval",
		standing: checkStandingFiatAccount,
		next: func(*moneyGuard, guardedMovement) string {
			return "Next step: have the account approved by the service's review (terraform refresh shows its " +
				"status), and plan again once its status is APPROVED."
		},
	},
	{
		// A standing movement's crypto destination is an APPROVED entry of
		// the address book, as a withdrawal's is; one known only at apply
		// is refused.
		setting:  settingApprovedOnly,
		env:      EnvApprovedDestinations,
		standing: checkStandingDestination,
		next:     approvedDestinationNext,
	},
}

// approvedDestinationNext is the next step of a movement w the guard
// refuses for going to a crypto destination that is not an APPROVED entry
// of the address book.
func approvedDestinationNext(_ *moneyGuard, w guardedMovement) string {
	return "Next step: have " + shown(w.destination) + " on " + shown(w.network) + " approved in the " +
		"service's address book (add it with a platform_crypto_destination_address resource if it is not " +
		"there), and plan again once the service's review has approved it."
}

// capValidators are the validators of a map of caps by asset.
func capValidators() []validator.Map {
	return []validator.Map{
		mapvalidator.KeysAre(assetValidator{}),
		mapvalidator.ValueStringsAre(decimalValidator()),
	}
}

// capSource says where a cap is changed: the block, or the environment
// variable that is its floor (which the block cannot loosen).
func capSource(c guardCap) string {
	if strings.HasPrefix(c.from, withdrawalGuardBlock+".") {
		return "the provider's " + withdrawalGuardBlock + " block"
	}
	return c.from + ", the floor a provider block cannot loosen"
}

// moneyGuardSchema is the withdrawal_guard block of the provider: one
// attribute per setting of guardRules.
func moneyGuardSchema() schema.Block {
	attrs := map[string]schema.Attribute{}
	for _, r := range guardRules {
		if r.attribute != nil {
			attrs[r.setting] = r.attribute
		}
	}
	return schema.SingleNestedBlock{
		MarkdownDescription: "Limits every money movement must keep: crypto and fiat withdrawals, internal transfers " +
			"and stablecoin conversions (`platform_crypto_withdrawal`, `platform_fiat_withdrawal`, " +
			"`platform_internal_transfer`, `platform_stablecoin_conversion`, resources and actions alike), each " +
			"counted in the asset that leaves its profile, fiat assets included. They are checked at plan and again " +
			"at the moment it is sent: one that breaks a limit is refused before anything is sent, with an error naming the guard, the figures and the " +
			"withdrawal. Amounts are compared as decimals, assets in upper case. The guards fail closed: what a " +
			"guard cannot judge (an amount that is not a decimal, a limit whose remaining is not one, a limit in " +
			"an asset without a price, limits or an address book these credentials cannot read) is refused, never " +
			"skipped. An amount known only at apply is a warning at plan and is judged at apply. Each argument's " +
			"environment variable is a floor that binds every provider configuration of the run: this block may " +
			"tighten it, never loosen or remove it. See the \"Guard rails\" section of the provider's documentation.",
		Attributes: attrs,
	}
}

// guardCap is the cap of one asset and where it comes from: the argument
// of the provider block, or the environment variable that is its floor.
type guardCap struct {
	limit decimal.Decimal
	from  string
}

// guardCaps are caps by asset, upper case.
type guardCaps map[string]guardCap

// capsOf are caps from the given figures by asset (tests and benchmarks).
func capsOf(from string, figures map[string]string) guardCaps {
	out := guardCaps{}
	for asset, v := range figures {
		out[strings.ToUpper(asset)] = guardCap{limit: decimal.RequireFromString(v), from: from}
	}
	return out
}

// moneyGuard is the configured guard of a provider process.
type moneyGuard struct {
	// caps are the caps of each setting that is a map of caps, by setting.
	caps map[string]guardCaps
	// switchedOnBy names where each switched-on setting was switched on:
	// the environment or the block.
	switchedOnBy map[string]string

	// run serializes the checks of the movements of a plan and of the
	// sends (guardPlan, guardSend).
	run   sync.Mutex
	tally runTally
	// sent sums what this process sent (or is sending), by movementKey.
	sent runTally
	// judging is the tally the rules are judged against, while run is
	// held (see judgeMovement).
	judging *runTally
	// What the rules read of the service, once per process.
	reads guardReads
}

// on reports whether the rule r is on in g.
func (g *moneyGuard) on(r guardRule) bool {
	switch {
	case r.setting == "":
		return true
	case g == nil:
		return false
	case r.caps():
		return len(g.caps[r.setting]) > 0
	}
	_, on := g.switchedOnBy[r.setting]
	return on
}

// approvedOnly reports whether approved_destinations_only is on in g.
func (g *moneyGuard) approvedOnly() bool {
	return g.on(guardRule{setting: settingApprovedOnly})
}

// active reports whether any setting of the block is on.
func (g *moneyGuard) active() bool {
	for _, r := range guardRules {
		if r.setting != "" && g.on(r) {
			return true
		}
	}
	return false
}

// configMoneyGuard reads the withdrawal_guard block over the floor of its
// environment variables, setting by setting of guardRules: a cap of the
// block binds only where it is tighter than the environment's, and a rule
// the environment switches on stays on.
func configMoneyGuard(ctx context.Context, obj types.Object, diags *diag.Diagnostics) *moneyGuard {
	var values map[string]attr.Value
	if !obj.IsNull() && !obj.IsUnknown() {
		values = obj.Attributes()
	}
	g := &moneyGuard{caps: map[string]guardCaps{}, switchedOnBy: map[string]string{}}
	for _, r := range guardRules {
		if r.attribute == nil {
			// Always on, or a setting another row declares.
			continue
		}
		if r.caps() {
			v, _ := values[r.setting].(types.Map)
			if values[r.setting] == nil {
				v = types.MapNull(types.StringType)
			}
			g.caps[r.setting] = guardAmounts(ctx, r.setting, r.env, v, diags)
			continue
		}
		v, _ := values[r.setting].(types.Bool)
		if values[r.setting] == nil {
			v = types.BoolNull()
		}
		guardBool(v, r.setting, r.env, g.switchedOnBy, diags)
	}
	return g
}

// guardBool reads a boolean setting: on when the environment variable or
// the block switches it on. by records which did.
func guardBool(v types.Bool, setting, env string, by map[string]string, diags *diag.Diagnostics) {
	p := path.Root(withdrawalGuardBlock).AtName(setting)
	on := false
	if raw := os.Getenv(env); raw != "" {
		b, err := strconv.ParseBool(raw)
		if err != nil {
			diags.AddAttributeError(p, "Invalid "+setting, fmt.Sprintf("%s must be true or false, got %q.", env, raw))
			// Fail closed: a floor that cannot be read is not lifted.
			b = true
		}
		if b {
			on, by[setting] = true, env
		}
	}
	switch {
	case v.IsUnknown():
		diags.AddAttributeError(p, "Unknown provider configuration value", setting+" must be known at plan time.")
	case !v.IsNull() && v.ValueBool() && !on:
		by[setting] = withdrawalGuardBlock + "." + setting
	}
}

// guardAmounts reads a map of caps by asset: the block's and its
// environment variable's ("BTC=0.5,USDC=25000"), the tighter of the two
// for an asset both name. Assets are compared in upper case.
func guardAmounts(ctx context.Context, setting, env string, v types.Map, diags *diag.Diagnostics) guardCaps {
	p := path.Root(withdrawalGuardBlock).AtName(setting)
	out := guardCaps{}
	if raw := os.Getenv(env); raw != "" {
		pairs := map[string]string{}
		for _, pair := range strings.FieldsFunc(raw, func(r rune) bool { return r == ',' || r == ' ' }) {
			asset, amount, ok := strings.Cut(pair, "=")
			if !ok || strings.TrimSpace(asset) == "" {
				diags.AddAttributeError(p, "Invalid "+setting, fmt.Sprintf("%s must be a comma-separated list of "+
					"ASSET=AMOUNT pairs such as \"BTC=0.5,USDC=25000\", got the pair %q.", env, pair))
				return out
			}
			pairs[strings.TrimSpace(asset)] = strings.TrimSpace(amount)
		}
		addCaps(out, pairs, env, p, diags)
	}
	switch {
	case v.IsUnknown():
		diags.AddAttributeError(p, "Unknown provider configuration value", setting+" must be known at plan time.")
	case !v.IsNull():
		pairs := map[string]string{}
		diags.Append(v.ElementsAs(ctx, &pairs, false)...)
		addCaps(out, pairs, withdrawalGuardBlock+"."+setting, p, diags)
	}
	return out
}

// addCaps adds the caps of pairs (asset to amount) from source to caps,
// keeping the tighter cap of an asset already there.
func addCaps(caps guardCaps, pairs map[string]string, source string, p path.Path, diags *diag.Diagnostics) {
	seen := map[string]bool{}
	for _, asset := range slices.Sorted(maps.Keys(pairs)) {
		amount := pairs[asset]
		key, ok := assetKey(asset)
		if !ok {
			diags.AddAttributeError(p, "Invalid "+p.String(), fmt.Sprintf("%s names the asset %s, which is not "+
				"an asset code of 1 to 20 letters and digits such as BTC.", source, quotedPrefix(asset)))
			continue
		}
		if seen[key] {
			diags.AddAttributeError(p, "Invalid "+p.String(), fmt.Sprintf("%s names the asset %s twice (assets are "+
				"compared in upper case).", source, key))
		}
		seen[key] = true
		d, ok := parseAmount(amount)
		if !ok {
			diags.AddAttributeError(p, "Invalid "+p.String(), fmt.Sprintf("%s of %s must be %s, got %s.", source,
				asset, amountForm, quotedPrefix(amount)))
			continue
		}
		if c, ok := caps[key]; !ok || d.LessThan(c.limit) {
			caps[key] = guardCap{limit: d, from: source}
		}
	}
}

// guardedMovement is what the guard sees of one money movement.
type guardedMovement struct {
	// key identifies it in the run's tally (movementKey): its kind and the
	// ref_id it is sent with, or its invocation, and what it moves.
	key string
	// refID is shown; "" when it is chosen at invocation.
	refID string
	// asset is as configured; assetKey is its upper case, "" when it is not
	// an asset code.
	asset, assetKey string
	// figure is its amount, or its total when it sets total; figureName
	// says which, and raw is the figure as configured. figureOK is false
	// when raw is not an amount, which no rule can judge.
	figure     decimal.Decimal
	figureOK   bool
	raw        string
	figureName string
	what       string
	// destination, network and identity are where a crypto movement goes;
	// fiatAccount where a fiat one goes. All empty: the money stays within
	// the customer's own profiles.
	destination, network, identity string
	fiatAccount                    string
	// profile is the profile the money leaves; debitKey the asset of its
	// balance that is debited (the upper case of a balance_asset, otherwise
	// assetKey), "" when it is not an asset code.
	profile  string
	debit    string
	debitKey string
	// limitTypes are the transfer types whose service limits bound it.
	limitTypes []string
	// resourceType names what sends it in messages.
	resourceType string
}

// unjudgeable says why no rule can judge w's figure, or "".
func (w guardedMovement) unjudgeable() string {
	switch {
	case !w.figureOK:
		return fmt.Sprintf("its %s %s is not %s, above zero", w.figureName, quotedPrefix(w.raw), amountForm)
	case w.assetKey == "":
		return fmt.Sprintf("its asset %s is not an asset code of 1 to 20 letters and digits such as BTC",
			quotedPrefix(w.asset))
	}
	return ""
}

// guardFindings are what a rule found: breaches, and what it could not
// check.
type guardFindings struct {
	breaches, unchecked []string
	// under is the setting the findings are reported under when it is not
	// the rule's own: the part of an always-on rule that a setting
	// switches on.
	under string
	// refusal, when set, is the summary of breaches that are refusals of
	// their own, told as they are rather than as breaking the
	// withdrawal_guard: those of an always-on rule.
	refusal string
}

// titled is the summary and detail of the breach b of rule r found in f
// about a movement described by about: a refusal of its own as it is,
// otherwise a breach of the withdrawal_guard. when is said in the summary.
func (f guardFindings) titled(r guardRule, about, b, when string) (string, string) {
	if f.refusal != "" {
		return f.refusal + when, b
	}
	name := cmpOr(f.under, cmpOr(r.setting, r.name))
	return "Withdrawal guard " + name + " refuses this withdrawal" + when,
		fmt.Sprintf("%s breaks the provider's withdrawal_guard: %s", about, b)
}

// guardPlan passes w through every rule at plan, with the figures of the
// other movements of this run. Unless w breaks one, it is added to the
// run's tally.
func guardPlan(ctx context.Context, run *moneyRun, w guardedMovement, diags *diag.Diagnostics) {
	if run == nil {
		return
	}
	judgeMovement(ctx, run, w, func(g *moneyGuard) *runTally { return &g.tally }, "", diags)
}

// guardSend passes w through every rule at the moment it is sent, with the
// figures of what this process sent before it, whatever was checked at
// plan: the address book, the limits and the figures may have changed
// since, and an action's arguments may have been unknown then. Unless w
// breaks one, it is added to what the process sent.
func guardSend(ctx context.Context, run *moneyRun, w guardedMovement) diag.Diagnostics {
	var diags diag.Diagnostics
	if run == nil {
		return diags
	}
	judgeMovement(ctx, run, w, func(g *moneyGuard) *runTally { return &g.sent }, " at send", &diags)
	return diags
}

// judgeMovement passes w through every rule that is on: first those always on,
// then, when a setting of the block is on, the others with the figures of
// the tally of, adding w to it unless it breaks one. when is said in the
// summaries ("" at plan, " at send").
func judgeMovement(ctx context.Context, run *moneyRun, w guardedMovement, of func(*moneyGuard) *runTally, when string, diags *diag.Diagnostics) {
	g := run.guard
	refused := false
	for _, r := range guardRules {
		if r.setting == "" && r.check != nil && !reportFindings(r, g, w, r.check(ctx, g, run, w, nil), when, diags) {
			refused = true
		}
	}
	if !g.active() {
		return
	}
	// Terraform plans several movements at once: each is checked and added
	// to the tally in turn, so that the last one sees every other.
	g.run.Lock()
	defer g.run.Unlock()
	if why := w.unjudgeable(); why != "" {
		diags.AddAttributeError(path.Root(w.figureName), "Withdrawal guard cannot judge this withdrawal"+when,
			fmt.Sprintf("The %s %s (ref_id %s) cannot be judged by the provider's withdrawal_guard, which refuses "+
				"what it cannot judge: %s.\n\nNothing was sent.", w.resourceType, shown(w.what), shownRef(w.refID), why))
		return
	}
	tally := of(g)
	planned := tally.others(w.key)
	g.judging = tally
	defer func() { g.judging = nil }()
	ok := !refused
	for _, r := range guardRules {
		if r.setting == "" || r.check == nil || !g.on(r) {
			continue
		}
		if !reportFindings(r, g, w, r.check(ctx, g, run, w, planned), when, diags) {
			ok = false
		}
	}
	if ok {
		tally.add(w)
	}
}

// reportFindings adds the findings f of rule r about w to diags, each refusal
// with the rule's next step; it reports whether there were none.
func reportFindings(r guardRule, g *moneyGuard, w guardedMovement, f guardFindings, when string, diags *diag.Diagnostics) bool {
	if len(f.breaches) == 0 && len(f.unchecked) == 0 {
		return true
	}
	attr := w.figureName
	if r.arg != nil {
		attr = r.arg(w)
	}
	about := fmt.Sprintf("The %s %s (%s, ref_id %s)", w.resourceType, w.what,
		w.figureName+" "+w.figure.String()+" "+w.asset, shownRef(w.refID))
	for _, b := range f.breaches {
		title, detail := f.titled(r, about, b, when)
		diags.AddAttributeError(path.Root(attr), title, detail+"\n\nNothing was sent. "+r.next(g, w))
	}
	for _, u := range f.unchecked {
		diags.AddAttributeError(path.Root(attr),
			"Withdrawal guard "+cmpOr(f.under, cmpOr(r.setting, r.name))+" cannot check this withdrawal"+when,
			fmt.Sprintf("The %s %s (ref_id %s) cannot be checked against the provider's withdrawal_guard, "+
				"which refuses what it cannot check: %s\n\nNothing was sent.", w.resourceType, w.what,
				shownRef(w.refID), u))
	}
	return false
}

// guardUnknown handles a movement m known only in part at plan: a rule
// with a partial check judges what is known (approved_destinations_only
// checks where it goes when that is known, and refuses it otherwise); the
// others warn, once per run and type, that they judge it when the apply
// plans it with its final values.
func guardUnknown(ctx context.Context, run *moneyRun, via string, m movement, diags *diag.Diagnostics) {
	if run == nil {
		return
	}
	g := run.guard
	waits := false
	for _, r := range guardRules {
		if r.check == nil || !g.on(r) {
			continue
		}
		if r.partial == nil {
			waits = true
			continue
		}
		f := r.partial(ctx, g, run, m, via)
		w := m.guarded("", via)
		w.what = fmt.Sprintf("to %s", shown(knownString(m.to)))
		attr := r.arg(w)
		for _, u := range f.unchecked {
			diags.AddAttributeError(path.Root(attr),
				"Withdrawal guard "+cmpOr(f.under, r.setting)+" cannot check this withdrawal", u)
		}
		for _, b := range f.breaches {
			title, detail := f.titled(r, fmt.Sprintf("The %s %s", via, w.what), b, "")
			diags.AddAttributeError(path.Root(attr), title, detail+"\n\nNothing was sent. "+r.next(g, w))
		}
	}
	if !waits {
		return
	}
	run.warnOnce("guard:unknown:"+via, func() {
		diags.AddWarning("Withdrawal guard not checked at plan",
			fmt.Sprintf("An argument of a %s is known only at apply, so the withdrawal_guard of the provider cannot "+
				"check its amount at plan and this plan does not show whether it keeps the guard's limits. It is "+
				"judged with its final values at apply, every guard again at the moment it is sent, and refused "+
				"then, with nothing sent, if it breaks one or cannot be judged. It does not count in this plan's "+
				"max_run_total.", via))
	})
}

// guardStanding passes a standing movement m (an orchestration rule,
// which routes every future deposit) through the rows of guardRules that
// judge where it sends money, at plan (when "") and at send (when
// " at send"), with its errors on m.destinationAttr. A destination within
// the customer's own profiles is not judged.
func guardStanding(ctx context.Context, run *moneyRun, m movement, refID, via, when string, diags *diag.Diagnostics) {
	if run == nil {
		return
	}
	g := run.guard
	w := m.guarded(refID, via)
	for _, r := range guardRules {
		if r.standing == nil || !g.on(r) {
			continue
		}
		f := r.standing(ctx, g, run, m, w)
		for _, b := range f.breaches {
			diags.AddAttributeError(m.destinationAttr, f.refusal+when, b+"\n\nNothing was sent. "+r.next(g, w))
		}
		for _, u := range f.unchecked {
			diags.AddAttributeError(m.destinationAttr, f.refusal+when, u+" Nothing was sent.")
		}
	}
}

// cmpOr is a, or b when a is empty.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
