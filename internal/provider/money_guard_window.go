package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// The caps over time of the money guard (max_daily_total and
// max_weekly_total): what this run sends out of a profile, plus what
// already left it in the service's record over the window, whoever sent
// it, must stay within the cap. The service's record is read at plan and
// again at send (a saved plan may be applied hours later): List Transfers
// of the profile created in the window (withdrawals and internal transfers
// out; FAILED ones do not count, PENDING ones do) and List Stablecoin
// Conversions of the profile (their source asset; cancelled ones give back
// what they took). What cannot be read or added refuses the movement.

const (
	settingMaxDailyTotal  = "max_daily_total"
	settingMaxWeeklyTotal = "max_weekly_total"

	EnvWithdrawalMaxDailyTotal  = "PLATFORM_WITHDRAWAL_MAX_DAILY_TOTAL"
	EnvWithdrawalMaxWeeklyTotal = "PLATFORM_WITHDRAWAL_MAX_WEEKLY_TOTAL"
)

// capWindow is a cap over time: its setting, its window and its words.
type capWindow struct {
	setting, env string
	window       time.Duration
	// over says the window in messages ("in the last 24 hours").
	over string
}

var (
	dailyWindow  = capWindow{settingMaxDailyTotal, EnvWithdrawalMaxDailyTotal, 24 * time.Hour, "in the last 24 hours"}
	weeklyWindow = capWindow{settingMaxWeeklyTotal, EnvWithdrawalMaxWeeklyTotal, 7 * 24 * time.Hour, "in the last 7 days"}
)

// windowRule is the guard's rule of the cap over time c.
func windowRule(c capWindow) guardRule {
	return guardRule{
		setting:   c.setting,
		env:       c.env,
		attribute: windowCapAttribute(c),
		check: func(ctx context.Context, g *moneyGuard, run *moneyRun, w guardedMovement, planned map[string]decimal.Decimal) guardFindings {
			return checkWindowTotal(ctx, g, run, w, c)
		},
		next: func(g *moneyGuard, w guardedMovement) string {
			return fmt.Sprintf("Next step: send it once enough of what left profile %s has aged out of the window, "+
				"or from another profile, or, if this much is intended, raise %s for %s in %s.", shown(w.profile),
				c.setting, w.assetKey, capSource(g.caps[c.setting][w.assetKey]))
		},
	}
}

// windowLeft is what left a profile in one asset over a window, by the
// service's record.
type windowLeft struct {
	sum    decimal.Decimal
	count  int
	oldest time.Time
}

// windowRead is what left a profile over a window, by asset, as read once
// per phase (plan, send) per process.
type windowRead struct {
	byAsset map[string]windowLeft
	// byRef are the items with a ref_id, by ref_id: a movement the service
	// already holds (a retry after a lost answer) is not counted twice.
	byRef map[string][]windowEntry
	since time.Time
}

// windowEntry is one item of a window: its asset, the figure counted, and
// its amount (a withdrawal's total is its amount and its fee).
type windowEntry struct {
	asset          string
	figure, amount decimal.Decimal
}

// leavesProfile reports whether a transfer of typ takes money out of its
// profile, and whether the type says either way.
func leavesProfile(typ string) (leaves, known bool) {
	switch {
	case strings.HasSuffix(typ, "_WITHDRAWAL"), strings.HasSuffix(typ, "_DEBIT"):
		return true, true
	case strings.HasSuffix(typ, "_DEPOSIT"), strings.HasSuffix(typ, "_CREDIT"):
		return false, true
	}
	return false, false
}

// readWindow reads what left profile since since: its transfers out and
// its conversions. An item it cannot add is an error.
func readWindow(ctx context.Context, c *client.Client, profile string, since time.Time) (windowRead, error) {
	out := windowRead{byAsset: map[string]windowLeft{}, byRef: map[string][]windowEntry{}, since: since}
	add := func(asset, raw, amount, ref string, at time.Time, what string) error {
		key, ok := assetKey(asset)
		if !ok {
			return fmt.Errorf("%s has the asset %s, which is not an asset code", what, quotedPrefix(shown(asset)))
		}
		d, ok := parseAmount(raw)
		if !ok {
			return fmt.Errorf("%s has the amount %s, which is not a decimal", what, quotedPrefix(shown(raw)))
		}
		l := out.byAsset[key]
		l.sum = l.sum.Add(d)
		l.count++
		if l.oldest.IsZero() || at.Before(l.oldest) {
			l.oldest = at
		}
		out.byAsset[key] = l
		if ref != "" {
			a, _ := parseAmount(amount)
			out.byRef[ref] = append(out.byRef[ref], windowEntry{asset: key, figure: d, amount: a})
		}
		return nil
	}
	for t, err := range c.Transfers(ctx, client.ListTransfersQuery{ProfileIDs: []string{profile},
		CreatedAt: client.TimeFilter{GTE: since}}) {
		if err != nil {
			return out, fmt.Errorf("%w (reading needs the OAuth scope %s)", err, client.ScopeReadTransfer)
		}
		what := "the transfer " + shown(t.ID)
		if t.ProfileID != profile || t.CreatedAt.Before(since) {
			// Not what was asked for: the answer cannot be trusted to hold
			// all that was.
			return out, fmt.Errorf("the service answered %s (profile %s, created_at %s) to a list of profile %s "+
				"from %s", what, shown(t.ProfileID), t.CreatedAt.Format(time.RFC3339), shown(profile),
				since.Format(time.RFC3339))
		}
		leaves, known := leavesProfile(t.Type)
		switch {
		case !known:
			return out, fmt.Errorf("%s has the type %s, of which the provider cannot tell whether it leaves the "+
				"profile", what, quotedPrefix(shown(t.Type)))
		case !leaves, t.Status == client.TransferStatusFailed:
			continue
		}
		figure := t.Total
		if figure == "" {
			figure = t.Amount
		}
		if err := add(t.Asset, figure, t.Amount, deref(t.RefID), t.CreatedAt, what); err != nil {
			return out, err
		}
	}
	for cv, err := range c.StablecoinConversions(ctx, client.ListStablecoinConversionsQuery{ProfileID: profile,
		CreatedFrom: since}) {
		if err != nil {
			return out, fmt.Errorf("the stablecoin conversions: %w (reading needs the OAuth scope %s)", err,
				client.ScopeReadStablecoinConversion)
		}
		what := "the stablecoin conversion " + shown(deref(cv.ID))
		if deref(cv.ProfileID) != profile {
			return out, fmt.Errorf("the service answered %s of profile %s to a list of profile %s", what,
				shown(deref(cv.ProfileID)), shown(profile))
		}
		if cv.CancelledAt != nil || deref(cv.Status) == "CANCELLED" {
			continue
		}
		at := since
		if cv.CreatedAt != nil {
			at = *cv.CreatedAt
		}
		if err := add(deref(cv.SourceAsset), deref(cv.Amount), deref(cv.Amount), deref(cv.RefID), at, what); err != nil {
			return out, err
		}
	}
	tflog.Debug(ctx, "what left a profile over a window read for the money guard", map[string]any{
		"profile_id": profile, "since": since.Format(time.RFC3339), "assets": len(out.byAsset)})
	return out, nil
}

// checkWindowTotal: what left w's profile in the window, what the run
// sends from it besides w, and w, are at most the cap c of w's asset.
func checkWindowTotal(ctx context.Context, g *moneyGuard, run *moneyRun, w guardedMovement, c capWindow) guardFindings {
	limit, ok := g.caps[c.setting][w.assetKey]
	if !ok {
		return guardFindings{}
	}
	if w.profile == "" {
		return guardFindings{unchecked: []string{c.setting + ": the profile the money leaves is not known."}}
	}
	phase := "plan"
	tally := &g.tally
	if g.judging == &g.sent {
		phase, tally = "send", &g.sent
	}
	since := run.clock()().Add(-c.window).UTC().Truncate(time.Second)
	read, err := g.reads.windows.get(phase+"\x00"+c.setting+"\x00"+w.profile, func() (windowRead, error) {
		return readWindow(ctx, run.client, w.profile, since)
	})
	if err != nil {
		return guardFindings{unchecked: []string{fmt.Sprintf("%s: what left profile %s %s could not be read, and "+
			"the guard does not count it as nothing: %v.", c.setting, shown(w.profile), c.over, err)}}
	}
	left := read.byAsset[w.assetKey]
	sum := left.sum
	if w.refID != "" {
		for _, e := range read.byRef[w.refID] {
			if e.asset == w.assetKey && (e.amount.Equal(w.figure) || e.figure.Equal(w.figure)) {
				// The service already holds this movement (an attempt whose
				// answer was lost): it is counted once, as this one.
				sum = sum.Sub(e.figure)
				break
			}
		}
	}
	others := tally.othersOut(w.key, w.profile, w.assetKey)
	total := sum.Add(others).Add(w.figure)
	if total.LessThanOrEqual(limit.limit) {
		return guardFindings{}
	}
	oldest := ""
	if left.count > 0 {
		oldest = fmt.Sprintf(", the oldest at %s", left.oldest.UTC().Format(time.RFC3339))
	}
	return guardFindings{breaches: []string{fmt.Sprintf("%s of %s is %s (%s); %s %s left profile %s %s by the "+
		"service's record (%s since %s%s), %s %s is planned or sent from it in this run by other movements, "+
		"and this one asks %s more (%s in all).", c.setting, w.assetKey, limit.limit, limit.from, sum, w.assetKey,
		shown(w.profile), c.over, countNoun(left.count, "movement", "movements"),
		read.since.Format(time.RFC3339), oldest, others, w.assetKey, w.figure, total)}}
}

// windowCapAttribute is the schema of the cap over time c.
func windowCapAttribute(c capWindow) schema.MapAttribute {
	return schema.MapAttribute{
		ElementType: types.StringType,
		MarkdownDescription: fmt.Sprintf("The most that may leave one profile %s, by asset, as decimal strings "+
			"(`{ USD = \"50000\" }`): what this run sends out of a profile (every money movement of this provider "+
			"configuration: resources it creates or replaces and actions it invokes), plus what already left that "+
			"profile over the window by the service's record, whoever sent it (List Transfers of the profile: "+
			"crypto and fiat withdrawals and internal transfers out, `PENDING` ones included and `FAILED` ones "+
			"not; and its stablecoin conversions, by their source asset, cancelled ones not). Checked at plan and "+
			"again at send. What cannot be read or added (the credentials lack `%s` or `%s`, an item that is not "+
			"a decimal) refuses the movement. Environment variable `%s`, a floor as for `max_amount`.",
			c.over, client.ScopeReadTransfer, client.ScopeReadStablecoinConversion, c.env),
		Optional:   true,
		Validators: capValidators(),
	}
}
