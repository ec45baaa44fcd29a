package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
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
// passes each guard of withdrawalGuards at plan, and again at the moment
// it is sent (guardSend), whatever path sends it: a resource's create, an
// action's invocation, a retry. One that breaks a guard is an error naming
// the guard, the figures and the withdrawal, before any POST.
//
// Guards fail closed: a figure a guard cannot judge (an amount or total
// that is not a decimal of the provider's amount type, an asset that is not
// an asset code, a limit whose remaining is not a decimal, a limit in an
// asset without a price, limits or an address book the credentials cannot
// read) is refused, never counted as zero or skipped. At plan, an argument
// known only at apply is a warning (approved_destinations_only refuses
// it): the withdrawal is judged with its final values before it is sent.
//
// The environment's values (PLATFORM_WITHDRAWAL_*) are a floor: a provider
// block, root, aliased or in a module, may tighten them (a smaller figure,
// another asset, a guard switched on), never loosen or remove them.
//
// The provider process serves one provider configuration's share of a
// whole plan (or apply), every module and for_each instance alike, so the
// figures of the run are summed in the process: what the plan creates
// (runTally) and, separately, what the process sends. Each movement is
// counted by what it is (movementKey): its kind and ref_id (the service
// keeps each kind's ref_ids apart, so a fiat withdrawal, an internal
// transfer and a conversion may share one), or its invocation, and what it
// moves; planning one object twice counts it once, and no two movements
// are ever folded into one. Terraform
// runs one process per provider configuration: totals across aliases are
// the plan's, for a policy over the plan JSON. The service's limits,
// prices and address book are read once per process.

// Environment variables of the guards.
const (
	EnvWithdrawalMaxAmount    = "PLATFORM_WITHDRAWAL_MAX_AMOUNT"
	EnvWithdrawalMaxRunTotal  = "PLATFORM_WITHDRAWAL_MAX_RUN_TOTAL"
	EnvCheckServiceLimits     = "PLATFORM_WITHDRAWAL_CHECK_SERVICE_LIMITS"
	EnvApprovedDestinations   = "PLATFORM_WITHDRAWAL_APPROVED_DESTINATIONS_ONLY"
	EnvCheckBalances          = "PLATFORM_WITHDRAWAL_CHECK_BALANCES"
	withdrawalGuardBlock      = "withdrawal_guard"
	guardConversionPrecision  = 8
	guardConversionDivisorExp = 18
)

// guardModel is the withdrawal_guard block.
type guardModel struct {
	MaxAmount          types.Map  `tfsdk:"max_amount"`
	MaxRunTotal        types.Map  `tfsdk:"max_run_total"`
	CheckServiceLimits types.Bool `tfsdk:"check_service_limits"`
	ApprovedOnly       types.Bool `tfsdk:"approved_destinations_only"`
	CheckBalances      types.Bool `tfsdk:"check_balances"`
}

// withdrawalGuardSchema is the withdrawal_guard block of the provider.
func withdrawalGuardSchema() schema.Block {
	amounts := []validator.Map{
		mapvalidator.KeysAre(assetValidator{}),
		mapvalidator.ValueStringsAre(decimalValidator()),
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
		Attributes: map[string]schema.Attribute{
			"approved_destinations_only": schema.BoolAttribute{
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
			"max_amount": schema.MapAttribute{
				ElementType: types.StringType,
				MarkdownDescription: "The largest `amount` (or `total`, when a withdrawal sets `total`) of one " +
					"money movement, by the asset that leaves its profile (a conversion's `source_asset`), as decimal strings: `{ BTC = \"0.5\", USDC = \"25000\" }`. Assets not " +
					"named are not limited. Environment variable `" + EnvWithdrawalMaxAmount + "` " +
					"(`BTC=0.5,USDC=25000`): a floor, so that an asset it names is capped at the smaller of the " +
					"two figures whatever this map says (an empty map included).",
				Optional:   true,
				Validators: amounts,
			},
			"max_run_total": schema.MapAttribute{
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
				Validators: amounts,
			},
			"check_balances": schema.BoolAttribute{
				MarkdownDescription: "Compare what the run sends from each profile in each asset (every money movement " +
					"of this provider configuration: resources the plan creates or replaces and actions it invokes) " +
					"with the profile's available balance (`GET /profiles/{id}/balances`, scope `" +
					client.ScopeReadBalances + "`, read once per profile per plan and once per apply), at plan and " +
					"again at send: the plan of a payroll the profile cannot fund fails with the figures, before " +
					"anything is sent, instead of failing halfway through the apply. A withdrawal set by `amount` is " +
					"compared by its amount: its fee is known only when it is sent, so leave room for it or set " +
					"`total`; one that sets `balance_asset` is compared with the balance of that asset. A balance that " +
					"cannot be read, that is not a decimal or that the service lists twice refuses the movement; an " +
					"asset the profile holds none of has nothing available. Default `false`; environment variable `" +
					EnvCheckBalances + "` (`true` there cannot be switched off by a provider block).",
				Optional: true,
			},
			"check_service_limits": schema.BoolAttribute{
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
		},
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

// withdrawalGuard is the configured guard of a provider process.
type withdrawalGuard struct {
	maxAmount, maxRunTotal guardCaps
	checkServiceLimits     bool
	approvedOnly           bool
	checkBalances          bool
	// switchedOnBy names where a boolean guard was switched on: the
	// environment or the block.
	switchedOnBy map[string]string

	// run serializes the checks of the withdrawals of a plan and of the
	// sends (guardWithdrawal, guardSend).
	run   sync.Mutex
	tally runTally
	// sent sums what this process sent (or is sending), by movementKey.
	sent runTally
	// limits (by transfer type) and prices are read once per process.
	limits readOnce[[]*client.TransferLimit] // by transfer type
	// The address book is read once per process.
	bookOnce sync.Once
	book     []client.CryptoDestinationAddress
	bookErr  error
	prices   sync.Map // market -> *priceEntry
	// fiatAccounts are the fiat accounts read for approved_destinations_only,
	// once per process.
	fiatAccounts readOnce[string] // status, by fiat account id
	// balances are the profiles' balances read for check_balances, once per
	// profile per process.
	balances readOnce[[]client.ProfileBalance] // by profile id
	// judging is the tally the rules are judged against, while run is
	// held (see judge).
	judging *runTally
}

// active reports whether any guard is configured.
func (g *withdrawalGuard) active() bool {
	return g != nil && (len(g.maxAmount) > 0 || len(g.maxRunTotal) > 0 || g.checkServiceLimits || g.approvedOnly ||
		g.checkBalances)
}

// configWithdrawalGuard reads the withdrawal_guard block over the floor of
// its environment variables: a cap of the block binds only where it is
// tighter than the environment's, and a guard the environment switches on
// stays on.
func configWithdrawalGuard(ctx context.Context, obj types.Object, diags *diag.Diagnostics) *withdrawalGuard {
	var m guardModel
	if !obj.IsNull() && !obj.IsUnknown() {
		diags.Append(obj.As(ctx, &m, basetypes.ObjectAsOptions{})...)
	}
	g := &withdrawalGuard{switchedOnBy: map[string]string{}}
	g.maxAmount = guardAmounts(ctx, "max_amount", EnvWithdrawalMaxAmount, m.MaxAmount, diags)
	g.maxRunTotal = guardAmounts(ctx, "max_run_total", EnvWithdrawalMaxRunTotal, m.MaxRunTotal, diags)
	g.checkServiceLimits = guardBool(m.CheckServiceLimits, "check_service_limits", EnvCheckServiceLimits, g.switchedOnBy, diags)
	g.approvedOnly = guardBool(m.ApprovedOnly, "approved_destinations_only", EnvApprovedDestinations, g.switchedOnBy, diags)
	g.checkBalances = guardBool(m.CheckBalances, "check_balances", EnvCheckBalances, g.switchedOnBy, diags)
	return g
}

// guardBool reads a boolean guard: on when the environment variable or the
// block switches it on. by records which did.
func guardBool(v types.Bool, attr, env string, by map[string]string, diags *diag.Diagnostics) bool {
	p := path.Root(withdrawalGuardBlock).AtName(attr)
	on := false
	if raw := os.Getenv(env); raw != "" {
		b, err := strconv.ParseBool(raw)
		if err != nil {
			diags.AddAttributeError(p, "Invalid "+attr, fmt.Sprintf("%s must be true or false, got %q.", env, raw))
			// Fail closed: a floor that cannot be read is not lifted.
			b = true
		}
		if b {
			on, by[attr] = true, env
		}
	}
	switch {
	case v.IsUnknown():
		diags.AddAttributeError(p, "Unknown provider configuration value", attr+" must be known at plan time.")
	case !v.IsNull() && v.ValueBool() && !on:
		on, by[attr] = true, withdrawalGuardBlock+"."+attr
	}
	return on
}

// guardAmounts reads a map of caps by asset: the block's and its
// environment variable's ("BTC=0.5,USDC=25000"), the tighter of the two
// for an asset both name. Assets are compared in upper case.
func guardAmounts(ctx context.Context, attr, env string, v types.Map, diags *diag.Diagnostics) guardCaps {
	p := path.Root(withdrawalGuardBlock).AtName(attr)
	out := guardCaps{}
	if raw := os.Getenv(env); raw != "" {
		pairs := map[string]string{}
		for _, pair := range strings.FieldsFunc(raw, func(r rune) bool { return r == ',' || r == ' ' }) {
			asset, amount, ok := strings.Cut(pair, "=")
			if !ok || strings.TrimSpace(asset) == "" {
				diags.AddAttributeError(p, "Invalid "+attr, fmt.Sprintf("%s must be a comma-separated list of "+
					"ASSET=AMOUNT pairs such as \"BTC=0.5,USDC=25000\", got the pair %q.", env, pair))
				return out
			}
			pairs[strings.TrimSpace(asset)] = strings.TrimSpace(amount)
		}
		addCaps(out, pairs, env, p, diags)
	}
	switch {
	case v.IsUnknown():
		diags.AddAttributeError(p, "Unknown provider configuration value", attr+" must be known at plan time.")
	case !v.IsNull():
		pairs := map[string]string{}
		diags.Append(v.ElementsAs(ctx, &pairs, false)...)
		addCaps(out, pairs, withdrawalGuardBlock+"."+attr, p, diags)
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

// guardedWithdrawal is what the guards see of one withdrawal.
type guardedWithdrawal struct {
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
	// when raw is not an amount, which no guard can judge.
	figure     decimal.Decimal
	figureOK   bool
	raw        string
	figureName string
	what       string
	// destination, network and identity are where a crypto withdrawal
	// goes; fiatAccount where a fiat withdrawal goes. All empty: the money
	// stays within the customer's own profiles.
	destination, network, identity string
	fiatAccount                    string
	// profile is the profile the money leaves; debitKey the asset of its
	// balance that is debited (the upper case of a crypto withdrawal's
	// balance_asset, otherwise assetKey), "" when it is not an asset code.
	profile  string
	debit    string
	debitKey string
	// limitTypes are the transfer types whose service limits bound it.
	limitTypes []string
	// resourceType names the withdrawal's kind in messages.
	resourceType string
}

// unjudgeable says why no guard can judge w, or "".
func (w guardedWithdrawal) unjudgeable() string {
	switch {
	case !w.figureOK:
		return fmt.Sprintf("its %s %s is not %s, above zero", w.figureName, quotedPrefix(w.raw), amountForm)
	case w.assetKey == "":
		return fmt.Sprintf("its asset %s is not an asset code of 1 to 20 letters and digits such as BTC",
			quotedPrefix(w.asset))
	}
	return ""
}

// guardRule is one guard: check returns the breaches and what it could not
// check for w, given the figures of the other withdrawals of the run
// (planned: by asset, without w). Both are errors: the guards fail closed.
type guardRule struct {
	name string
	// attr is the argument its errors are on; "" for the figure it checks
	// (amount or total).
	attr  string
	check func(ctx context.Context, g *withdrawalGuard, data *providerData, w guardedWithdrawal, planned map[string]decimal.Decimal) guardFindings
}

// guardFindings are what a guard found: breaches, and what it could not
// check.
type guardFindings struct {
	breaches, unchecked []string
}

// withdrawalGuards are the guards, in the order they are reported.
var withdrawalGuards = []guardRule{
	{name: "max_amount", check: checkMaxAmount},
	{name: "max_run_total", check: checkMaxRunTotal},
	{name: "check_service_limits", check: checkServiceLimits},
	{name: "approved_destinations_only", attr: "destination_address", check: checkApprovedDestination},
	{name: "check_balances", check: checkBalances},
}

// guardWithdrawal passes w through every guard at plan, with the figures
// of the other withdrawals of this run. Unless w breaks one, it is added
// to the run's tally. Errors are on attr (amount or total).
func guardWithdrawal(ctx context.Context, data *providerData, w guardedWithdrawal, diags *diag.Diagnostics) {
	if data == nil || !data.guard.active() {
		return
	}
	data.guard.judge(ctx, data, w, &data.guard.tally, "", diags)
}

// guardSend passes w through every guard at the moment it is sent, with the
// figures of what this process sent before it, whatever was checked at
// plan: the address book, the limits and the figures may have changed
// since, and an action's arguments may have been unknown then. Unless w
// breaks one, it is added to what the process sent.
func guardSend(ctx context.Context, data *providerData, w guardedWithdrawal) diag.Diagnostics {
	var diags diag.Diagnostics
	if data == nil || !data.guard.active() {
		return diags
	}
	data.guard.judge(ctx, data, w, &data.guard.sent, " at send", &diags)
	return diags
}

// judge passes w through every guard with the figures of tally, adding it
// to tally unless it breaks one. when is said in the summaries ("" at
// plan, " at send").
func (g *withdrawalGuard) judge(ctx context.Context, data *providerData, w guardedWithdrawal, tally *runTally, when string, diags *diag.Diagnostics) {
	// Terraform plans several withdrawals at once: each is checked and
	// added to the tally in turn, so that the last one sees every other.
	g.run.Lock()
	defer g.run.Unlock()
	if why := w.unjudgeable(); why != "" {
		diags.AddAttributeError(path.Root(w.figureName), "Withdrawal guard cannot judge this withdrawal"+when,
			fmt.Sprintf("The %s %s (ref_id %s) cannot be judged by the provider's withdrawal_guard, which refuses "+
				"what it cannot judge: %s.\n\nNothing was sent.", w.resourceType, shown(w.what), shownRef(w.refID), why))
		return
	}
	planned := tally.others(w.key)
	g.judging = tally
	defer func() { g.judging = nil }()
	ok := true
	for _, rule := range withdrawalGuards {
		f := rule.check(ctx, g, data, w, planned)
		attr := rule.attr
		switch {
		case attr == "":
			attr = w.figureName
		case attr == "destination_address" && w.fiatAccount != "":
			attr = "fiat_account_id"
		}
		advice := "Nothing was sent."
		if rule.attr == "" {
			advice += " If the figure is right, the guard is the place to change: the provider block that " +
				"reviews every withdrawal, or the environment variable that is its floor."
		}
		for _, b := range f.breaches {
			ok = false
			diags.AddAttributeError(path.Root(attr), "Withdrawal guard "+rule.name+" refuses this withdrawal"+when,
				fmt.Sprintf("The %s %s (%s, ref_id %s) breaks the provider's withdrawal_guard: %s\n\n%s",
					w.resourceType, w.what, w.figureName+" "+w.figure.String()+" "+w.asset, shownRef(w.refID), b, advice))
		}
		for _, u := range f.unchecked {
			ok = false
			diags.AddAttributeError(path.Root(attr), "Withdrawal guard "+rule.name+" cannot check this withdrawal"+when,
				fmt.Sprintf("The %s %s (ref_id %s) cannot be checked against the provider's withdrawal_guard, "+
					"which refuses what it cannot check: %s\n\nNothing was sent.", w.resourceType, w.what,
					shownRef(w.refID), u))
		}
	}
	if ok {
		tally.add(w)
	}
}

// guardUnknown handles a movement m known only in part at plan.
// approved_destinations_only checks where it goes when that is known and
// refuses it otherwise; the other guards warn that it is checked only when
// the apply plans it with its final values.
func guardUnknown(ctx context.Context, data *providerData, resourceType string, m movement, diags *diag.Diagnostics) {
	if data == nil || !data.guard.active() {
		return
	}
	g := data.guard
	if g.approvedOnly {
		w := m.guarded("", resourceType)
		attr, which := "destination_address", "destination_address, crypto_network or identity_id"
		hint := "an address of the book is: platform_crypto_destination_address.<name>.address"
		if !m.fiatAccount.IsNull() {
			attr, which = "fiat_account_id", "fiat_account_id"
			hint = "the id of an APPROVED fiat account, known once the account is applied and approved"
		}
		switch {
		case m.address.IsUnknown() || m.network.IsUnknown() || m.identity.IsUnknown() || m.fiatAccount.IsUnknown():
			diags.AddAttributeError(path.Root(attr),
				"Withdrawal guard approved_destinations_only cannot check this withdrawal",
				fmt.Sprintf("The %s of a %s is known only at apply, so the provider's withdrawal_guard cannot check "+
					"at plan that it goes to an APPROVED destination, and it refuses what it cannot check. Give the "+
					"withdrawal a destination known at plan (%s).", which, resourceType, hint))
			return
		default:
			w.what = fmt.Sprintf("to %s", shown(knownString(m.to)))
			f := checkApprovedDestination(ctx, g, data, w, nil)
			for _, b := range append(f.breaches, f.unchecked...) {
				diags.AddAttributeError(path.Root(attr),
					"Withdrawal guard approved_destinations_only refuses this withdrawal",
					fmt.Sprintf("The %s %s breaks the provider's withdrawal_guard: %s\n\nNothing was sent.",
						resourceType, w.what, b))
			}
		}
	}
	if len(g.maxAmount) == 0 && len(g.maxRunTotal) == 0 && !g.checkServiceLimits && !g.checkBalances {
		return
	}
	data.warnOnce("guard:unknown:"+resourceType, func() {
		diags.AddWarning("Withdrawal guard not checked at plan",
			fmt.Sprintf("An argument of a %s is known only at apply, so the withdrawal_guard of the provider cannot "+
				"check its amount at plan and this plan does not show whether it keeps the guard's limits. It is "+
				"judged with its final values at apply, every guard again at the moment it is sent, and refused "+
				"then, with nothing sent, if it breaks one or cannot be judged. It does not count in this plan's "+
				"max_run_total.", resourceType))
	})
}

// checkApprovedDestination: the destination is an APPROVED entry of the
// service's address book on the withdrawal's network (of its identity, or
// of none, when it sets one).
func checkApprovedDestination(ctx context.Context, g *withdrawalGuard, data *providerData, w guardedWithdrawal, _ map[string]decimal.Decimal) guardFindings {
	switch {
	case !g.approvedOnly:
		return guardFindings{}
	case w.fiatAccount != "":
		return checkApprovedFiatAccount(ctx, g, data, w)
	case w.destination == "":
		// Money that stays within the customer's own profiles.
		return guardFindings{}
	}
	book, err := g.addressBook(ctx, data.client)
	if err != nil {
		why := unreadable(err, "it", client.ScopeReadCryptoDestinationAddress)
		return guardFindings{unchecked: []string{"the service's withdrawal address book could not be read: " + why + "."}}
	}
	var elsewhere, notApproved []string
	for _, a := range book {
		if !sameAddress(a.Address, w.destination) {
			continue
		}
		if a.IdentityID != nil && *a.IdentityID != "" && *a.IdentityID != w.identity {
			continue
		}
		entry := fmt.Sprintf("%s (%s, status %s)", a.ID, a.CryptoNetwork, shown(deref(a.Status)))
		switch {
		case a.CryptoNetwork != w.network:
			elsewhere = append(elsewhere, entry)
		case deref(a.Status) == client.DestinationAddressApproved:
			return guardFindings{}
		default:
			notApproved = append(notApproved, entry)
		}
	}
	msg := fmt.Sprintf("approved_destinations_only: %s on %s is not an APPROVED address of the service's address "+
		"book (%s read).", shown(w.destination), w.network, plural(len(book), "entry", "entries"))
	switch {
	case len(notApproved) > 0:
		msg += " It is in the book, not approved: " + strings.Join(notApproved, ", ") + ". The service's review " +
			"approves it; plan again once it has."
	case len(elsewhere) > 0:
		msg += " The book has it on another network only: " + strings.Join(elsewhere, ", ") + "."
	default:
		msg += " Add it with a platform_crypto_destination_address resource, and plan the withdrawal once the " +
			"service has approved it."
	}
	return guardFindings{breaches: []string{msg}}
}

// checkApprovedFiatAccount: the fiat account w goes to is APPROVED at the
// service (GET /transfer/fiat-accounts/{id}, once per account per
// process).
func checkApprovedFiatAccount(ctx context.Context, g *withdrawalGuard, data *providerData, w guardedWithdrawal) guardFindings {
	status, err := g.fiatAccounts.get(w.fiatAccount, func() (string, error) {
		a, err := data.client.GetFiatAccount(ctx, w.fiatAccount)
		switch {
		case err != nil:
			return "", err
		case deref(a.ID) != w.fiatAccount:
			return "", fmt.Errorf("the service answered the read of fiat account %s with the account %s",
				w.fiatAccount, shown(deref(a.ID)))
		}
		return deref(a.AccountStatus()), nil
	})
	switch {
	case err != nil:
		why := unreadable(err, "it", client.ScopeReadFiatAccount)
		return guardFindings{unchecked: []string{"the fiat account " + shown(w.fiatAccount) + " could not be read: " + why + "."}}
	case status != fiatAccountApproved:
		return guardFindings{breaches: []string{fmt.Sprintf("approved_destinations_only: the fiat account %s is %s at "+
			"the service, not APPROVED. The service's review approves it; plan again once it has.",
			shown(w.fiatAccount), shown(status))}}
	}
	return guardFindings{}
}

// sameAddress compares addresses exactly, except the hexadecimal 0x
// addresses of EVM networks, whose letter case is only a checksum.
func sameAddress(a, b string) bool {
	if a == b {
		return true
	}
	return len(a) == len(b) && evmAddress.MatchString(a) && evmAddress.MatchString(b) && strings.EqualFold(a, b)
}

var evmAddress = regexp.MustCompile(`^0[xX][0-9a-fA-F]+$`)

// addressBook reads the service's withdrawal address book once per
// process.
func (g *withdrawalGuard) addressBook(ctx context.Context, c *client.Client) ([]client.CryptoDestinationAddress, error) {
	g.bookOnce.Do(func() {
		g.book, g.bookErr = c.ListCryptoDestinationAddresses(ctx, client.ListCryptoDestinationAddressesQuery{})
		tflog.Debug(ctx, "address book read for the withdrawal guard", map[string]any{"addresses": len(g.book)})
	})
	return g.book, g.bookErr
}

// unreadable says why a read of the guard failed: err, and, when the
// credentials lack its scope, which scope it (or them) needs.
func unreadable(err error, it, scope string) string {
	if !scopeRefused(err) {
		return err.Error()
	}
	return fmt.Sprintf("reading %s needs the OAuth scope %s; have it granted to the client credentials (and, if the "+
		"provider's scopes argument pins the token's scopes, include it there): %s", it, scope, err)
}

// readOnce holds values read once per key per process, with the error of
// each read: what the guards read of the service (fiat accounts, limits by
// transfer type, balances by profile).
type readOnce[V any] struct{ m sync.Map }

// readEntry is one key's read.
type readEntry[V any] struct {
	once sync.Once
	v    V
	err  error
}

// get is the value of key, read by read the first time it is asked for.
func (r *readOnce[V]) get(key string, read func() (V, error)) (V, error) {
	v, _ := r.m.LoadOrStore(key, &readEntry[V]{})
	e, _ := v.(*readEntry[V])
	e.once.Do(func() { e.v, e.err = read() })
	return e.v, e.err
}

func shownRef(refID string) string {
	if refID == "" {
		return "chosen at invocation"
	}
	return refID
}

// checkMaxAmount: the figure of one withdrawal is at most max_amount.
func checkMaxAmount(_ context.Context, g *withdrawalGuard, _ *providerData, w guardedWithdrawal, _ map[string]decimal.Decimal) guardFindings {
	c, ok := g.maxAmount[w.assetKey]
	if !ok || w.figure.LessThanOrEqual(c.limit) {
		return guardFindings{}
	}
	return guardFindings{breaches: []string{fmt.Sprintf("max_amount of %s is %s (%s); this withdrawal asks %s %s.",
		w.assetKey, c.limit, c.from, w.figure, w.asset)}}
}

// checkMaxRunTotal: the figures of the run, this one included, are at most
// max_run_total.
func checkMaxRunTotal(_ context.Context, g *withdrawalGuard, _ *providerData, w guardedWithdrawal, planned map[string]decimal.Decimal) guardFindings {
	asset := w.assetKey
	c, ok := g.maxRunTotal[asset]
	if !ok {
		return guardFindings{}
	}
	before := planned[asset]
	if total := before.Add(w.figure); total.GreaterThan(c.limit) {
		return guardFindings{breaches: []string{fmt.Sprintf("max_run_total of %s is %s (%s) for this provider "+
			"configuration's share of the run; %s %s is already planned or sent in this run by other withdrawals, "+
			"and this one asks %s more (%s in all).", asset, c.limit, c.from, before, asset, w.figure, total)}}
	}
	return guardFindings{}
}

// runTally sums the figures of the withdrawals of one plan, by asset,
// keyed by movementKey; safe for concurrent use.
type runTally struct {
	mu      sync.Mutex
	figures map[string]tallied
}

// tallied is one movement of a tally: its figure in asset, and the
// balance it debits (debit, an asset of profile).
type tallied struct {
	profile, asset, debit string
	figure                decimal.Decimal
}

// add records the figure of w under its key.
func (t *runTally) add(w guardedWithdrawal) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.figures == nil {
		t.figures = map[string]tallied{}
	}
	t.figures[w.key] = tallied{profile: w.profile, asset: w.assetKey, debit: w.debitKey, figure: w.figure}
}

// othersFrom sums the figures of every key but key that debit the balance
// of profile in debit (upper case).
func (t *runTally) othersFrom(key, profile, debit string) decimal.Decimal {
	t.mu.Lock()
	defer t.mu.Unlock()
	sum := decimal.Zero
	for k, v := range t.figures {
		if k != key && v.profile == profile && v.debit == debit {
			sum = sum.Add(v.figure)
		}
	}
	return sum
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

// checkBalances: what the run debits from w's profile in the asset w
// debits (its balance_asset, when a crypto withdrawal sets one), w
// included, is at most the profile's available balance of that asset. An
// answer that lists the asset twice cannot be judged.
func checkBalances(ctx context.Context, g *withdrawalGuard, data *providerData, w guardedWithdrawal, _ map[string]decimal.Decimal) guardFindings {
	if !g.checkBalances {
		return guardFindings{}
	}
	switch {
	case w.profile == "":
		return guardFindings{unchecked: []string{"check_balances: the profile the money leaves is not known."}}
	case w.debitKey == "":
		return guardFindings{unchecked: []string{fmt.Sprintf("check_balances: the balance_asset %s it debits is not "+
			"an asset code of 1 to 20 letters and digits such as USD.", quotedPrefix(w.debit))}}
	}
	balances, err := g.balances.get(w.profile, func() ([]client.ProfileBalance, error) {
		b, err := data.client.GetProfileBalances(ctx, w.profile)
		tflog.Debug(ctx, "balances read for the withdrawal guard", map[string]any{"profile_id": w.profile,
			"balances": len(b)})
		return b, err
	})
	if err != nil {
		why := unreadable(err, "them", client.ScopeReadBalances)
		return guardFindings{unchecked: []string{fmt.Sprintf("check_balances: the balances of profile %s could not be "+
			"read: %s.", shown(w.profile), why)}}
	}
	asset := w.debitKey
	available, held, listed := decimal.Zero, "", 0
	for _, b := range balances {
		if !strings.EqualFold(b.Asset, asset) {
			continue
		}
		if listed++; listed > 1 {
			return guardFindings{unchecked: []string{fmt.Sprintf("check_balances: the service lists the balance of %s "+
				"in profile %s more than once (%s, then %s available), so which one is available cannot be known.",
				asset, shown(w.profile), quotedPrefix(shown(held)), quotedPrefix(shown(b.Available)))}}
		}
		d, ok := parseAmount(b.Available)
		if !ok {
			return guardFindings{unchecked: []string{fmt.Sprintf("check_balances: the service answered the "+
				"available balance %s of %s in profile %s, which is not a decimal.", quotedPrefix(shown(b.Available)),
				asset, shown(w.profile))}}
		}
		available, held = d, b.Available
	}
	before := decimal.Zero
	if g.judging != nil {
		before = g.judging.othersFrom(w.key, w.profile, asset)
	}
	total := before.Add(w.figure)
	if total.LessThanOrEqual(available) {
		return guardFindings{}
	}
	has := fmt.Sprintf("has %s %s available", held, asset)
	if listed == 0 {
		has = "holds no " + asset
	}
	debits := ""
	if asset != w.assetKey {
		debits = fmt.Sprintf(" (this one is %s %s debited from the %s balance, its balance_asset)", w.figure,
			w.assetKey, asset)
	}
	return guardFindings{breaches: []string{fmt.Sprintf("check_balances: profile %s %s; %s %s is already planned "+
		"or sent from it in this run, and this one asks %s more%s (%s in all, %s short).", shown(w.profile), has,
		before, asset, w.figure, debits, total, total.Sub(available))}}
}

// checkServiceLimits compares w, and the run's total, with the service's
// limits of crypto withdrawals.
func checkServiceLimits(ctx context.Context, g *withdrawalGuard, data *providerData, w guardedWithdrawal, planned map[string]decimal.Decimal) guardFindings {
	if !g.checkServiceLimits {
		return guardFindings{}
	}
	var f guardFindings
	limits, err := g.serviceLimits(ctx, data.client, w.limitTypes)
	if err != nil {
		why := unreadable(err, "them", client.ScopeReadTransferLimit)
		f.unchecked = append(f.unchecked, "The service's transfer limits could not be read, so no withdrawal of this "+
			"plan was compared with them: "+why+".")
		return f
	}
	for _, l := range limits {
		remaining, ok := parseAmount(l.Remaining)
		if !ok {
			f.unchecked = append(f.unchecked, fmt.Sprintf("The service's limit %s answered the remaining %s, which "+
				"is not a decimal: withdrawals cannot be compared with it.", shown(l.RuleID), quotedPrefix(shown(l.Remaining))))
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
		var unpriced []string
		for asset, figure := range planned {
			v, _, ok := g.convert(ctx, data.client, figure, asset, l.LimitAsset)
			if !ok {
				unpriced = append(unpriced, asset)
				continue
			}
			before = before.Add(v)
		}
		if len(unpriced) > 0 {
			slices.Sort(unpriced)
			f.unchecked = append(f.unchecked, fmt.Sprintf("The service's limit %s (%s %s) is in %s, and the service "+
				"has no price of %s in %s: the run's total cannot be compared with it.", l.RuleID, l.Limit,
				l.LimitAsset, l.LimitAsset, strings.Join(unpriced, ", "), l.LimitAsset))
			continue
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

// serviceLimits reads the limits of each of the transfer types once per
// process: those that bound a movement of these types (a limit that names
// no transfer type bounds every one). No types: no transfer limit applies.
func (g *withdrawalGuard) serviceLimits(ctx context.Context, c *client.Client, transferTypes []string) ([]*client.TransferLimit, error) {
	var out []*client.TransferLimit
	seen := map[string]bool{}
	for _, typ := range transferTypes {
		limits, err := g.limits.get(typ, func() ([]*client.TransferLimit, error) {
			var limits []*client.TransferLimit
			for l, err := range c.TransferLimits(ctx, typ) {
				if err != nil {
					return nil, err
				}
				if slices.Contains(l.TransferTypes, typ) || len(l.TransferTypes) == 0 {
					limits = append(limits, l)
				}
			}
			tflog.Debug(ctx, "transfer limits read for the withdrawal guard", map[string]any{
				"transfer_type": typ, "limits": len(limits)})
			return limits, nil
		})
		if err != nil {
			return nil, err
		}
		for _, l := range limits {
			key := l.RuleID + "\x00" + l.LimitAsset + "\x00" + l.PeriodSeconds
			if !seen[key] {
				seen[key] = true
				out = append(out, l)
			}
		}
	}
	return out, nil
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

// plural is n with the noun in its number: "1 entry", "2 entries".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
