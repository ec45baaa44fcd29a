package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// The fiat account approval rule reads what the run saw of fiat accounts
// (by their ref_id namespace, fiatAccountNamespace): the status of an
// account the service approved for withdrawals.
const (
	fiatAccountApproved = "APPROVED"
)

// The checks of the money guard, one function per rule of guardRules
// (money_guard.go): each returns what it found about one movement, the
// rule's row says when it runs and what its refusal advises next.

// checkMaxAmount: the figure of one withdrawal is at most max_amount.
func checkMaxAmount(_ context.Context, g *moneyGuard, _ *moneyRun, w guardedMovement, _ map[string]decimal.Decimal) guardFindings {
	c, ok := g.caps[settingMaxAmount][w.assetKey]
	if !ok || w.figure.LessThanOrEqual(c.limit) {
		return guardFindings{}
	}
	return guardFindings{breaches: []string{fmt.Sprintf("max_amount of %s is %s (%s); this withdrawal asks %s %s.",
		w.assetKey, c.limit, c.from, w.figure, w.asset)}}
}

// checkMaxRunTotal: the figures of the run, this one included, are at most
// max_run_total.
func checkMaxRunTotal(_ context.Context, g *moneyGuard, _ *moneyRun, w guardedMovement, planned map[string]decimal.Decimal) guardFindings {
	asset := w.assetKey
	c, ok := g.caps[settingMaxRunTotal][asset]
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

// checkServiceLimits compares w, and the run's total, with the service's
// transfer limits of its transfer types.
func checkServiceLimits(ctx context.Context, g *moneyGuard, run *moneyRun, w guardedMovement, planned map[string]decimal.Decimal) guardFindings {
	var f guardFindings
	limits, err := g.reads.serviceLimits(ctx, run.client, w.limitTypes)
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
		// The limit's texts are the service's: shown, never raw.
		rule, limit, limitAsset := shown(l.RuleID), shown(l.Limit), shown(l.LimitAsset)
		value, conversion, priced := g.reads.convert(ctx, run.client, w.figure, w.asset, l.LimitAsset)
		conversion = shown(conversion)
		if !priced {
			f.unchecked = append(f.unchecked, fmt.Sprintf("The service's limit %s (%s %s) is in %s, and the service "+
				"has no price of %s in %s: withdrawals of %s were not compared with it.", rule, limit,
				limitAsset, limitAsset, shown(w.asset), limitAsset, shown(w.asset)))
			continue
		}
		what := fmt.Sprintf("the service's limit %s (%s)", rule, periodText(l.PeriodSeconds))
		if value.GreaterThan(remaining) {
			f.breaches = append(f.breaches, fmt.Sprintf("%s allows %s %s (remaining); this withdrawal asks %s%s.",
				what, remaining, limitAsset, value.Round(guardConversionPrecision), conversion))
			continue
		}
		if single {
			continue
		}
		// The run's total in the limit's asset.
		before := decimal.Zero
		var unpriced []string
		for asset, figure := range planned {
			v, _, ok := g.reads.convert(ctx, run.client, figure, asset, l.LimitAsset)
			if !ok {
				unpriced = append(unpriced, asset)
				continue
			}
			before = before.Add(v)
		}
		if len(unpriced) > 0 {
			slices.Sort(unpriced)
			f.unchecked = append(f.unchecked, fmt.Sprintf("The service's limit %s (%s %s) is in %s, and the service "+
				"has no price of %s in %s: the run's total cannot be compared with it.", rule, limit,
				limitAsset, limitAsset, shown(strings.Join(unpriced, ", ")), limitAsset))
			continue
		}
		if total := before.Add(value); total.GreaterThan(remaining) {
			f.breaches = append(f.breaches, fmt.Sprintf("%s allows %s %s (remaining); %s %s is already planned in "+
				"this run, and this withdrawal asks %s%s more (%s in all).", what, remaining, limitAsset,
				before.Round(guardConversionPrecision), limitAsset, value.Round(guardConversionPrecision), conversion,
				total.Round(guardConversionPrecision)))
		}
	}
	return f
}

func periodText(seconds string) string {
	if seconds == "0" {
		return "single transaction"
	}
	return "over " + shown(seconds) + " seconds"
}

// checkApprovedDestination (approved_destinations_only): the crypto
// destination is an APPROVED entry of the
// service's address book on the movement's network (of its identity, or
// of none, when it sets one).
func checkApprovedDestination(ctx context.Context, g *moneyGuard, run *moneyRun, w guardedMovement, _ map[string]decimal.Decimal) guardFindings {
	if w.destination == "" {
		// Money that stays within the customer's own profiles, or a fiat
		// account (checkApprovedFiatAccount).
		return guardFindings{}
	}
	book, err := g.reads.addressBook(ctx, run.client)
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
		entry := fmt.Sprintf("%s (%s, status %s)", shown(a.ID), shown(a.CryptoNetwork), shown(deref(a.Status)))
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
		"book (%s read).", shown(w.destination), w.network, countNoun(len(book), "entry", "entries"))
	switch {
	case len(notApproved) > 0:
		msg += " It is in the book, not approved: " + strings.Join(notApproved, ", ") + "."
	case len(elsewhere) > 0:
		msg += " The book has it on another network only: " + strings.Join(elsewhere, ", ") + "."
	}
	return guardFindings{breaches: []string{msg}}
}

// partialApprovedFiatAccount checks at plan a movement whose fiat account,
// or another argument, is known only at apply: an account known only at
// apply is one this plan creates or replaces, so not yet approved; a known
// one is checked as at send.
func partialApprovedFiatAccount(ctx context.Context, g *moneyGuard, run *moneyRun, m movement, via string) guardFindings {
	switch {
	case m.fiatAccount.IsNull():
		return guardFindings{}
	case m.fiatAccount.IsUnknown():
		return guardFindings{refusal: "Fiat account not approved yet", breaches: []string{fmt.Sprintf("The "+
			"fiat_account_id of this %s is known only at apply: it is an account this plan creates or replaces, "+
			"and a new fiat account starts PENDING the service's review, so the withdrawal would be refused.", via)}}
	}
	w := m.guarded("", via)
	return checkApprovedFiatAccount(ctx, g, run, w, nil)
}

// partialApprovedDestination checks at plan the crypto destination of a
// movement another argument of which is known only at apply: refused
// when the destination itself is not known, checked otherwise.
func partialApprovedDestination(ctx context.Context, g *moneyGuard, run *moneyRun, m movement, via string) guardFindings {
	if !m.fiatAccount.IsNull() {
		return guardFindings{}
	}
	if m.address.IsUnknown() || m.network.IsUnknown() || m.identity.IsUnknown() {
		return guardFindings{unchecked: []string{fmt.Sprintf("The destination_address, crypto_network or "+
			"identity_id of a %s is known only at apply, so the provider's withdrawal_guard cannot check at plan "+
			"that it goes to an APPROVED destination, and it refuses what it cannot check. Give the withdrawal a "+
			"destination known at plan (an address of the book is: "+
			"platform_crypto_destination_address.<name>.address).", via)}}
	}
	f := checkApprovedDestination(ctx, g, run, m.guarded("", via), nil)
	return guardFindings{breaches: append(f.breaches, f.unchecked...)}
}

// checkStandingFiatAccount (always on, for a standing movement m): a fiat
// account known only at apply is one this plan creates or replaces, so not
// yet approved, and the service would refuse the rule; a known one is
// judged as a withdrawal's (checkApprovedFiatAccount).
func checkStandingFiatAccount(ctx context.Context, g *moneyGuard, run *moneyRun, m movement, w guardedMovement) guardFindings {
	via := w.resourceType
	if m.fiatAccount.IsUnknown() {
		return guardFindings{refusal: "Fiat account not approved yet", unchecked: []string{fmt.Sprintf("The "+
			"fiat_account_id of this %s is known only at apply: it is an account this plan creates or replaces, "+
			"and a new fiat account starts PENDING the service's review, so the service would refuse the rule. "+
			"Apply the account first (terraform apply -target=<the account>), and plan the rule once its status "+
			"is APPROVED.", via)}}
	}
	if w.fiatAccount == "" {
		return guardFindings{}
	}
	f := checkApprovedFiatAccount(ctx, g, run, w, nil)
	out := guardFindings{refusal: "Withdrawal guard approved_destinations_only refuses this " + via}
	for _, b := range append(f.breaches, f.unchecked...) {
		out.breaches = append(out.breaches, fmt.Sprintf("The %s %s (ref_id %s) would route every future deposit "+
			"to a fiat account the service would refuse or the provider's withdrawal_guard does not allow: %s",
			via, shown(w.what), shownRef(w.refID), b))
	}
	return out
}

// checkStandingDestination (approved_destinations_only, for a standing
// movement m): its crypto destination is checked as a withdrawal's
// (checkApprovedDestination). A destination known only at apply cannot be
// checked at plan, and is refused. An identity_id the configuration
// leaves unset is unknown in the plan (the service's answer is recorded):
// the request is sent without one, and the book is searched so; a
// configured one known only at apply is judged then, at send.
func checkStandingDestination(ctx context.Context, g *moneyGuard, run *moneyRun, m movement, w guardedMovement) guardFindings {
	if m.fiatAccount.IsUnknown() || w.fiatAccount != "" {
		// A fiat account (checkStandingFiatAccount).
		return guardFindings{}
	}
	via := w.resourceType
	if m.address.IsUnknown() || m.network.IsUnknown() {
		return guardFindings{refusal: "Withdrawal guard approved_destinations_only cannot check this " + via,
			unchecked: []string{fmt.Sprintf("Where the %s %s routes deposits is known only at apply, so the "+
				"provider's withdrawal_guard cannot check at plan that it is an APPROVED destination, and it refuses "+
				"what it cannot check. Give it a destination known at plan (an address of the book is: "+
				"platform_crypto_destination_address.<name>.address).", via, shown(w.what))}}
	}
	f := checkApprovedDestination(ctx, g, run, w, nil)
	out := guardFindings{refusal: "Withdrawal guard approved_destinations_only refuses this " + via}
	for _, b := range append(f.breaches, f.unchecked...) {
		out.breaches = append(out.breaches, fmt.Sprintf("The %s %s (ref_id %s) would route every future deposit "+
			"to a destination the provider's withdrawal_guard does not allow: %s", via, shown(w.what),
			shownRef(w.refID), b))
	}
	return out
}

// checkApprovedFiatAccount (always on): the fiat account w goes to is
// APPROVED by what this run has seen of it: an account this configuration
// manages, read or created in this process, whose status is not APPROVED
// (a new account starts PENDING review) is refused. Under
// approved_destinations_only, the service is asked about the account
// (GET /transfer/fiat-accounts/{id}, once per account per process).
func checkApprovedFiatAccount(ctx context.Context, g *moneyGuard, run *moneyRun, w guardedMovement, _ map[string]decimal.Decimal) guardFindings {
	if w.fiatAccount == "" {
		return guardFindings{}
	}
	if status, seen := run.seenStatus(fiatAccountNamespace, w.fiatAccount); seen && status != fiatAccountApproved {
		return guardFindings{refusal: "Fiat account not approved", breaches: []string{fmt.Sprintf("The %s %s goes "+
			"to the fiat account %s, which this configuration manages and whose status is %s, not APPROVED: the "+
			"service refuses a withdrawal to it.", w.resourceType, shown(w.what), w.fiatAccount, shown(status))}}
	}
	if !g.approvedOnly() {
		return guardFindings{}
	}
	return askApprovedFiatAccount(ctx, g, run, w)
}

// askApprovedFiatAccount asks the service whether the fiat account w goes
// to is APPROVED, for approved_destinations_only.
func askApprovedFiatAccount(ctx context.Context, g *moneyGuard, run *moneyRun, w guardedMovement) guardFindings {
	status, err := g.reads.fiatAccounts.get(w.fiatAccount, func() (string, error) {
		a, err := run.client.GetFiatAccount(ctx, w.fiatAccount)
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
		return guardFindings{under: settingApprovedOnly, unchecked: []string{"the fiat account " + shown(w.fiatAccount) +
			" could not be read: " + why + "."}}
	case status != fiatAccountApproved:
		return guardFindings{under: settingApprovedOnly, breaches: []string{fmt.Sprintf("approved_destinations_only: "+
			"the fiat account %s is %s at the service, not APPROVED.", shown(w.fiatAccount), shown(status))}}
	}
	return guardFindings{}
}

// checkBalances: what the run debits from w's profile in w's asset, w
// included, is at most the profile's available balance of that asset. An
// amount is compared only with a balance of its own asset: a withdrawal
// whose balance_asset names another asset (1 BTC debited from a USD
// balance) cannot be judged, and neither can an answer that lists the
// asset twice.
func checkBalances(ctx context.Context, g *moneyGuard, run *moneyRun, w guardedMovement, _ map[string]decimal.Decimal) guardFindings {
	switch {
	case w.profile == "":
		return guardFindings{unchecked: []string{"check_balances: the profile the money leaves is not known."}}
	case w.debitKey == "":
		return guardFindings{unchecked: []string{fmt.Sprintf("check_balances: the balance_asset %s it debits is not "+
			"an asset code of 1 to 20 letters and digits such as USD.", quotedPrefix(w.debit))}}
	case w.debitKey != w.assetKey:
		return guardFindings{unchecked: []string{fmt.Sprintf("check_balances: it sends %s %s and debits the %s "+
			"balance (its balance_asset %s). An amount is compared only with a balance of its own asset, and %s "+
			"and %s are different assets, so the %s balance of profile %s cannot say whether it covers %s %s.",
			w.figure, w.assetKey, w.debitKey, quotedPrefix(w.debit), w.assetKey, w.debitKey, w.debitKey,
			shown(w.profile), w.figure, w.assetKey)}}
	}
	balances, err := g.reads.balances.get(w.profile, func() ([]client.ProfileBalance, error) {
		b, err := run.client.GetProfileBalances(ctx, w.profile)
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
	return guardFindings{breaches: []string{fmt.Sprintf("check_balances: profile %s %s; %s %s is already planned "+
		"or sent from it in this run, and this one asks %s more (%s in all, %s short).", shown(w.profile), has,
		before, asset, w.figure, total, total.Sub(available))}}
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

// shownRef is a ref_id as messages show it: "" is an action's, chosen
// at invocation.
func shownRef(refID string) string {
	if refID == "" {
		return "chosen at invocation"
	}
	return refID
}

// countNoun is n with the noun in its number: "1 entry", "2 entries".
func countNoun(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
