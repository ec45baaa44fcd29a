package provider

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
	"github.com/platform/terraform-provider-platform/internal/registry"
)

// The money flows (fiat withdrawals, internal transfers, stablecoin
// conversions) in the money-core suites: their bodies, and the emulator
// every suite starts (startCore), which holds an APPROVED fiat account the
// fiat withdrawal pays to.

const (
	// testPayeeAccount is the APPROVED fiat account of every emulator
	// startCore starts.
	testPayeeAccount = registry.PayeeFiatAccount

	fwPostKey = "POST /v2/transfer/fiat-withdrawals"
	itPostKey = "POST /v2/transfer/internal"
	scPostKey = "POST /v2/conversion/stablecoins"
)

// coreMetadata is the metadata argument line of the money-core bodies.
const coreMetadata = "  metadata = { purpose = \"core\" }\n"

// fwBody declares one fiat withdrawal to the test payee.
var fwBody = usdFiatWithdrawal("payout", "", fmt.Sprintf("%q", testPayeeAccount), `"1250.5"`, coreMetadata)

// itBody declares one internal transfer.
var itBody = usdInternalTransfer("sweep", "500", coreMetadata)

// scBody declares one stablecoin conversion.
var scBody = usdConversion("convert", "1000", coreMetadata)

// hclResource is a resource block typ name: the argument lines lines, then
// one argument a pair of args (its name and an HCL expression), aligned as
// terraform fmt aligns them, then the argument lines extra.
func hclResource(typ, name, lines string, args []string, extra string) string {
	width := 0
	for i := 0; i < len(args); i += 2 {
		width = max(width, len(args[i]))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nresource %q %q {\n%s", typ, name, lines)
	for i := 0; i < len(args); i += 2 {
		fmt.Fprintf(&b, "  %-*s = %s\n", width, args[i], args[i+1])
	}
	b.WriteString(extra + "}\n")
	return b.String()
}

// usdFiatWithdrawal is a fiat withdrawal name of USD from prof-1, its fiat
// account and amount HCL expressions, its first argument lines lines and
// its last extra.
func usdFiatWithdrawal(name, lines, account, amount, extra string) string {
	return hclResource("platform_fiat_withdrawal", name, lines,
		[]string{"profile_id", `"prof-1"`, "fiat_account_id", account, "asset", `"USD"`, "amount", amount}, extra)
}

// usdInternalTransfer is an internal transfer name of amount USD from
// prof-1 to prof-2, with the argument lines extra last.
func usdInternalTransfer(name, amount, extra string) string {
	return hclResource("platform_internal_transfer", name, "", []string{"from_profile_id", `"prof-1"`,
		"to_profile_id", `"prof-2"`, "asset", `"USD"`, "amount", fmt.Sprintf("%q", amount)}, extra)
}

// usdConversion is a stablecoin conversion name of amount USD to USDC in
// prof-1, with the argument lines extra last.
func usdConversion(name, amount, extra string) string {
	return hclResource("platform_stablecoin_conversion", name, "", []string{"profile_id", `"prof-1"`,
		"source_asset", `"USD"`, "target_asset", `"USDC"`, "amount", fmt.Sprintf("%q", amount)}, extra)
}

// startCore starts an emulator of the money-core suites: opts, and the
// APPROVED fiat account testPayeeAccount.
func startCore(t *testing.T, opts emulator.Options) *emulator.Server {
	t.Helper()
	emu := emulator.StartTest(t, opts)
	if !emu.AddApprovedFiatAccount(testPayeeAccount) {
		t.Fatalf("the emulator already holds the fiat account %s", testPayeeAccount)
	}
	return emu
}

// asClientTransfer is the emulator's transfer as the client decodes it.
func asClientTransfer(t emulator.Transfer) *client.Transfer {
	b, _ := json.Marshal(t)
	var out client.Transfer
	_ = json.Unmarshal(b, &out)
	return &out
}

// transferObjects are the transfers of the types at emu, as the provider
// describes them.
func transferObjects(emu *emulator.Server, types ...string) []moneyObject {
	return objectsOf(emu.TransfersOfType(types...), func(tr emulator.Transfer) moneyObject {
		ct := asClientTransfer(tr)
		return moneyObject{ID: ct.ID, RefID: deref(ct.RefID), Summary: transferSummary(ct)}
	})
}

// conversionObjects are the conversions made at emu, as the provider
// describes them.
func conversionObjects(emu *emulator.Server) []moneyObject {
	return objectsOf(emu.MadeStablecoinConversions(), func(c emulator.StablecoinConversion) moneyObject {
		b, _ := json.Marshal(c)
		var cc client.StablecoinConversion
		_ = json.Unmarshal(b, &cc)
		return moneyObject{ID: deref(cc.ID), RefID: deref(cc.RefID), Summary: stablecoinConversionObjects.describe(&cc)}
	})
}

// TestMoneyRowsPlanLookup: a row of moneyResources says the plan cannot
// look its ref_ids up exactly when its declaration has no lookup.
func TestMoneyRowsPlanLookup(t *testing.T) {
	declarations := moneyCoreDeclarations(t)
	for typ, res := range moneyResources() {
		d, ok := declarations[typ].(interface{ looksUpAtPlan() bool })
		if !ok {
			t.Fatalf("%s: no declaration on the money core", typ)
		}
		if d.looksUpAtPlan() == res.noPlanLookup {
			t.Errorf("%s: the declaration looks ref_ids up at plan %v, its row says noPlanLookup %v", typ,
				d.looksUpAtPlan(), res.noPlanLookup)
		}
	}
}

// flowActionArgs are valid arguments of each flow's action, each from its
// fixture.
func flowActionArgs() map[string]cwaArgs {
	return rowsOf(func(f moneyFixture) (cwaArgs, bool) {
		if f.flow == nil {
			return nil, false
		}
		return f.action.args, true
	})
}

// TestMoneyFlowActions_invoke: through the protocol server, as Terraform
// 1.14+ calls it, each flow's action makes one object per invocation under
// a ref_id generated for it, and one in all under a configured ref_id;
// above max_amount it is refused at plan and at send, with nothing made.
func TestMoneyFlowActions_invoke(t *testing.T) {
	eachFlowAction(t, func(t *testing.T, typ string, res moneyResource, args cwaArgs, emu *emulator.Server) {
		h := newActionHarness(t, emu, NewProtocol6Server, emulator.DefaultClientID, emulator.DefaultClientSecret, nil).
			forAction(t, typ)

		inv := h.invoke(t, args)
		if errs := inv.errors(); len(errs) > 0 {
			t.Fatalf("invocation failed: %v", errs)
		}
		objs := res.list(emu)
		if len(objs) != 1 || objs[0].RefID != "gen-1" {
			t.Fatalf("the emulator holds %+v, want one object with the generated ref_id gen-1", objs)
		}
		if len(inv.progress) != 2 || !strings.Contains(inv.progress[0], "ref_id gen-1 (generated for this invocation)") ||
			!strings.Contains(inv.progress[1], objs[0].ID) {
			t.Errorf("progress %q does not name the generated ref_id, then the object %s", inv.progress, objs[0].ID)
		}
		h.invoke(t, args)
		if n := res.objects(emu); n != 2 {
			t.Errorf("after a second invocation without ref_id the emulator holds %d objects, want 2", n)
		}

		withRef := maps.Clone(args)
		withRef["ref_id"] = "payout-1"
		for range 2 {
			if errs := h.invoke(t, withRef).errors(); len(errs) > 0 {
				t.Fatalf("invocation with a ref_id failed: %v", errs)
			}
		}
		if n := res.objects(emu); n != 3 {
			t.Errorf("after two invocations with one ref_id the emulator holds %d objects, want 3", n)
		}
	})
}

// eachFlowAction runs test in a subtest for each flow that has an action,
// with its row, its action's arguments and an emulator of the money core.
func eachFlowAction(t *testing.T, test func(t *testing.T, typ string, res moneyResource, args cwaArgs, emu *emulator.Server)) {
	actions := flowActionArgs()
	for _, typ := range mapKeys(actions) {
		t.Run(strings.TrimPrefix(typ, "platform_"), func(t *testing.T) {
			test(t, typ, moneyRow(t, typ), actions[typ], startCore(t, emulator.Options{}))
		})
	}
}

// TestMoneyFlowActions_guarded: above max_amount of its asset, each flow's
// action is refused at plan, and at send when the plan could not judge it;
// nothing is made.
func TestMoneyFlowActions_guarded(t *testing.T) {
	eachFlowAction(t, func(t *testing.T, typ string, res moneyResource, args cwaArgs, emu *emulator.Server) {
		guard := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
			"max_amount": tftypes.Map{ElementType: tftypes.String}, "max_run_total": tftypes.Map{ElementType: tftypes.String},
			"check_service_limits": tftypes.Bool, "approved_destinations_only": tftypes.Bool,
			"check_balances": tftypes.Bool, "max_daily_total": tftypes.Map{ElementType: tftypes.String},
			"max_weekly_total": tftypes.Map{ElementType: tftypes.String},
		}}
		h := newActionHarness(t, emu, NewProtocol6Server, emulator.DefaultClientID, emulator.DefaultClientSecret,
			map[string]tftypes.Value{withdrawalGuardBlock: tftypes.NewValue(guard, map[string]tftypes.Value{
				"max_amount": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{
					"USD": tftypes.NewValue(tftypes.String, "10"), "BTC": tftypes.NewValue(tftypes.String, "0.1")}),
				"max_run_total":              tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, nil),
				"max_daily_total":            tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, nil),
				"max_weekly_total":           tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, nil),
				"check_service_limits":       tftypes.NewValue(tftypes.Bool, nil),
				"approved_destinations_only": tftypes.NewValue(tftypes.Bool, nil),
				"check_balances":             tftypes.NewValue(tftypes.Bool, nil),
			})}).forAction(t, typ)
		diags := h.plan(t, args)
		if !hasError(diags, "Withdrawal guard max_amount refuses this withdrawal") {
			t.Errorf("the plan of the action is not refused by max_amount: %v", diagTexts(diags))
		}
		// Invoked as Terraform does after a plan that could not judge
		// it: refused at send.
		sent := h.invokeOnly(t, args).diags
		if !hasError(sent, "Withdrawal guard max_amount refuses this withdrawal at send") {
			t.Errorf("the invocation is not refused at send: %v", diagTexts(sent))
		}
		if n := emu.Counters.Requests(res.post); n != 0 {
			t.Errorf("%d creates, want none", n)
		}
	})
}

// hasError reports whether diags hold an error whose summary starts with
// summary.
func hasError(diags []*tfprotov6.Diagnostic, summary string) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError && strings.HasPrefix(d.Summary, summary) {
			return true
		}
	}
	return false
}

// diagTexts are the summaries and details of diags.
func diagTexts(diags []*tfprotov6.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Summary+": "+d.Detail)
	}
	return out
}

// TestFlowAnswersChecked: each money flow compares every argument its
// answer reports with the request: an answer equal to the request has no
// difference, and each answered field changed alone is named; metadata, an
// object of another kind and an unusable id too.
func TestFlowAnswersChecked(t *testing.T) {
	str := func(s string) *string { return &s }
	meta := types.MapValueMust(types.StringType, map[string]attr.Value{"purpose": types.StringValue("core")})
	t.Run("fiat_withdrawal", func(t *testing.T) {
		checkFlowAnswers(t, &fiatWithdrawalFlow, fiatWithdrawalArgs{ProfileID: types.StringValue("prof-1"),
			FiatAccountID: types.StringValue("fa-1"), Asset: types.StringValue("USD"), Amount: types.StringValue("10"),
			Total: types.StringValue("10.5"), Memo: types.StringValue("m"), IdentityID: types.StringValue("i"),
			AccountID: types.StringValue("a"), Metadata: meta},
			func(r client.FiatWithdrawalRequest) *client.Transfer {
				return &client.Transfer{ID: "0c0ffee0-0000-4000-8000-000000000001", ProfileID: r.ProfileID,
					FiatAccountID: str(r.FiatAccountID), Asset: r.Asset, Amount: r.Amount, Fee: "0.5", Total: r.Total,
					Memo: str(r.Memo), RefID: str(r.RefID), IdentityID: str(r.IdentityID), AccountID: str(r.AccountID),
					Metadata: maps.Clone(r.Metadata), Type: client.TransferTypeWireWithdrawal, Direction: "DEBIT"}
			})
	})
	t.Run("internal_transfer", func(t *testing.T) {
		checkFlowAnswers(t, &internalTransferFlow, internalTransferArgs{FromProfileID: types.StringValue("prof-1"),
			ToProfileID: types.StringValue("prof-2"), Asset: types.StringValue("USD"), Amount: types.StringValue("10"),
			IdentityID: types.StringValue("i"), AccountID: types.StringValue("a"), Metadata: meta},
			func(r client.InternalTransferRequest) *internalTransfer {
				return &internalTransfer{Transfer: client.Transfer{ID: "0c0ffee0-0000-4000-8000-000000000002",
					ProfileID: r.FromProfileID, Asset: r.Asset, Amount: r.Amount, Fee: "0", Total: r.Amount, RefID: str(r.RefID),
					IdentityID: str(r.IdentityID), AccountID: str(r.AccountID), Metadata: maps.Clone(r.Metadata),
					Type: client.TransferTypeInternalDebit, Direction: "DEBIT"},
					credit: &client.Transfer{ID: "0c0ffee0-0000-4000-8000-000000000012", ProfileID: r.ToProfileID,
						Asset: r.Asset, Amount: r.Amount, Type: client.TransferTypeInternalCredit, Direction: "CREDIT"}}
			})
	})
	t.Run("stablecoin_conversion", func(t *testing.T) {
		checkFlowAnswers(t, &stablecoinConversionFlow, stablecoinConversionArgs{ProfileID: types.StringValue("prof-1"),
			SourceAsset: types.StringValue("USD"), TargetAsset: types.StringValue("USDC"), Amount: types.StringValue("10"),
			RecipientProfileID: types.StringValue("prof-2"), IdentityID: types.StringValue("i"),
			AccountID: types.StringValue("a"), Metadata: meta},
			func(r client.StablecoinConversionRequest) *client.StablecoinConversion {
				return &client.StablecoinConversion{ID: str("0c0ffee0-0000-4000-8000-000000000003"),
					ProfileID: str(r.ProfileID), SourceAsset: str(r.SourceAsset), TargetAsset: str(r.TargetAsset),
					Amount: str(r.Amount), RecipientProfileID: str(r.RecipientProfileID), RefID: str(r.RefID),
					IdentityID: str(r.IdentityID), AccountID: str(r.AccountID), Metadata: maps.Clone(r.Metadata)}
			})
	})
}

// checkFlowAnswers checks the answers of f to the request of a (see
// TestFlowAnswersChecked); answer is the truthful answer to a request.
func checkFlowAnswers[A, O, R any](t *testing.T, f *flow[A, O, R], a A, answer func(R) *O) {
	t.Helper()
	body, err := f.request(t.Context(), a, "ref-1")
	if err != nil {
		t.Fatal(err)
	}
	if d := f.differences(body, answer(body)); len(d) > 0 {
		t.Fatalf("a truthful answer differs: %v", d)
	}
	for _, arg := range f.args {
		obj := answer(body)
		p := arg.got(obj)
		if p == nil {
			t.Errorf("%s: the truthful answer does not report it", arg.name)
			continue
		}
		*p = "lie-" + *p
		d := f.differences(body, obj)
		named := len(d) > 0
		for _, line := range d {
			named = named && strings.HasPrefix(line, arg.name+": ")
		}
		if !named {
			// A figure's lie may also break amount + fee = total, said
			// of the same figure.
			t.Errorf("%s answered otherwise: differences %v, want only lines naming it", arg.name, d)
		}
	}
	obj := answer(body)
	f.metadata.got(obj)["purpose"] = "other"
	if d := f.differences(body, obj); len(d) != 1 || !strings.HasPrefix(d[0], "metadata") {
		t.Errorf("metadata answered otherwise: differences %v", d)
	}
}

// TestFlowAnswerInvariants: beyond its arguments, an answer is checked
// against every invariant of its object and every optional argument the
// request left unset; what cannot be checked is said when it is recorded.
func TestFlowAnswerInvariants(t *testing.T) {
	str := func(s string) *string { return &s }
	fwBody := client.FiatWithdrawalRequest{ProfileID: "prof-1", FiatAccountID: "fa-1", Asset: "USD", Amount: "50",
		RefID: "r"}
	fw := func(fee, total string) *client.Transfer {
		return &client.Transfer{ID: "0c0ffee0-0000-4000-8000-000000000021", ProfileID: "prof-1", FiatAccountID: str("fa-1"),
			Asset: "USD", Amount: "50", Fee: fee, Total: total, RefID: str("r"), Type: client.TransferTypeWireWithdrawal,
			Direction: "DEBIT"}
	}
	itBody := client.InternalTransferRequest{FromProfileID: "prof-1", ToProfileID: "prof-2", Asset: "BTC", Amount: "1",
		RefID: "r"}
	it := func(creditAmount, creditAsset, creditStatus string) *internalTransfer {
		return &internalTransfer{Transfer: client.Transfer{ID: "0c0ffee0-0000-4000-8000-000000000022", ProfileID: "prof-1",
			Asset: "BTC", Amount: "1", Fee: "0", Total: "1", RefID: str("r"), Type: client.TransferTypeInternalDebit,
			Direction: "DEBIT", Status: "COMPLETED"},
			credit: &client.Transfer{ID: "0c0ffee0-0000-4000-8000-000000000023", ProfileID: "prof-2", Asset: creditAsset,
				Amount: creditAmount, Status: creditStatus, Type: client.TransferTypeInternalCredit, Direction: "CREDIT"}}
	}
	scBody := client.StablecoinConversionRequest{ProfileID: "prof-1", SourceAsset: "USD", TargetAsset: "USDC",
		Amount: "10", RefID: "r"}
	sc := func(recipient *string) *client.StablecoinConversion {
		return &client.StablecoinConversion{ID: str("0c0ffee0-0000-4000-8000-000000000024"), ProfileID: str("prof-1"),
			SourceAsset: str("USD"), TargetAsset: str("USDC"), Amount: str("10"), RefID: str("r"),
			RecipientProfileID: recipient}
	}
	for _, c := range []struct {
		name string
		got  []string
		want string
	}{
		{"fiat withdrawal, fee and total that do not add up", fiatWithdrawalFlow.differences(fwBody, fw("1", "5000")),
			"total: answered 5000, but amount 50 plus fee 1 is 51"},
		{"fiat withdrawal, a fee that is not a decimal", fiatWithdrawalFlow.differences(fwBody, fw("-1", "49")),
			"fee: answered \"-1\", not a non-negative decimal"},
		{"fiat withdrawal, a memo it did not request", fiatWithdrawalFlow.differences(fwBody, func() *client.Transfer {
			t := fw("0", "50")
			t.Memo = str("pay to someone else")
			return t
		}()), `memo: requested none, answered "pay to someone else"`},
		{"internal transfer, a credit of another amount", internalTransferFlow.differences(itBody, it("0.01", "BTC", "COMPLETED")),
			`credit side amount: requested "1", answered "0.01"`},
		{"internal transfer, a credit of another asset", internalTransferFlow.differences(itBody, it("1", "ETH", "COMPLETED")),
			`credit side asset: requested "BTC", answered "ETH"`},
		{"internal transfer, a credit side that says DEBIT", internalTransferFlow.differences(itBody, func() *internalTransfer {
			t := it("1", "BTC", "COMPLETED")
			t.credit.Direction = "DEBIT"
			return t
		}()), `credit side direction: "DEBIT", not CREDIT`},
		{"internal transfer, a credit side that says nothing", internalTransferFlow.differences(itBody, func() *internalTransfer {
			t := it("1", "BTC", "COMPLETED")
			t.credit.Direction = ""
			return t
		}()), `credit side direction: "", not CREDIT`},
		{"conversion, a recipient it did not request", stablecoinConversionFlow.differences(scBody, sc(str("prof-9"))),
			`recipient_profile_id: requested none, answered "prof-9"`},
	} {
		if !slices.ContainsFunc(c.got, func(d string) bool { return strings.HasPrefix(d, c.want) }) {
			t.Errorf("%s: differences %q, want one saying %q", c.name, c.got, c.want)
		}
	}
	for name, d := range map[string][]string{
		"fiat withdrawal":   fiatWithdrawalFlow.differences(fwBody, fw("0", "50")),
		"internal transfer": internalTransferFlow.differences(itBody, it("1.0", "btc", "COMPLETED")),
		"conversion":        stablecoinConversionFlow.differences(scBody, sc(nil)),
	} {
		if len(d) > 0 {
			t.Errorf("%s: a truthful answer differs: %q", name, d)
		}
	}

	// What cannot be checked is said when it is recorded.
	warned := func(warn func(*diag.Diagnostics)) string {
		var diags diag.Diagnostics
		warn(&diags)
		if diags.HasError() || len(diags) > 1 {
			t.Errorf("diagnostics %v, want at most one warning", diags)
		}
		if len(diags) == 0 {
			return ""
		}
		return diags[0].Summary() + ": " + flatOutput(diags[0].Detail())
	}
	noCredit := it("1", "BTC", "COMPLETED")
	noCredit.credit = nil
	for _, c := range []struct {
		name, got, want string
	}{
		{"fiat withdrawal with a fee", warned(func(d *diag.Diagnostics) { fiatWithdrawalFlow.warnUnverified(fw("4950", "5000"), d) }),
			"the service charged a fee of 4950 USD: 5000 USD debited from profile prof-1 for 50 USD paid"},
		{"internal transfer, credit not listed", warned(func(d *diag.Diagnostics) { internalTransferFlow.warnUnverified(noCredit, d) }),
			"credit side: the service does not list it (yet), so the receiving profile, the asset, the amount and " +
				"the status of the credit were not checked"},
		{"internal transfer, credit FAILED", warned(func(d *diag.Diagnostics) {
			internalTransferFlow.warnUnverified(it("1", "BTC", client.TransferStatusFailed), d)
		}), "status FAILED while the debit 0c0ffee0-0000-4000-8000-000000000022 is COMPLETED"},
		{"fiat withdrawal without a fee", warned(func(d *diag.Diagnostics) { fiatWithdrawalFlow.warnUnverified(fw("0", "50"), d) }), ""},
		{"internal transfer, credit listed", warned(func(d *diag.Diagnostics) {
			internalTransferFlow.warnUnverified(it("1", "BTC", "COMPLETED"), d)
		}), ""},
	} {
		switch {
		case c.want == "" && c.got != "":
			t.Errorf("%s: warned %q, want nothing", c.name, c.got)
		case !strings.Contains(c.got, c.want):
			t.Errorf("%s: warned %q, want %q", c.name, c.got, c.want)
		}
	}
}

// TestFlowStatusWithoutMovement: a refresh that finds a flow FAILED (or a
// conversion CANCELLED) warns that the money did not move and keeps its
// arguments; any other status says nothing.
func TestFlowStatusWithoutMovement(t *testing.T) {
	refresh := func(status string) (shapedState[fiatWithdrawalArgs], diag.Diagnostics) {
		var diags diag.Diagnostics
		m := shapedState[fiatWithdrawalArgs]{args: fiatWithdrawalArgs{ProfileID: types.StringValue("prof-1"),
			Amount: types.StringValue("10")}, computed: map[string]attr.Value{}}
		ref := "r-1"
		fiatWithdrawalFlow.fromObject(&m, &client.Transfer{ID: "0c0ffee0-0000-4000-8000-000000000009",
			ProfileID: "prof-1", Amount: "10", Total: "10", Asset: "USD", Status: status, RefID: &ref}, &diags)
		return m, diags
	}
	m, diags := refresh(client.TransferStatusFailed)
	if len(diags) != 1 || diags[0].Summary() != "Fiat withdrawal FAILED" || !strings.Contains(diags[0].Detail(), "the money did not move") {
		t.Errorf("a FAILED withdrawal: %v, want one warning that the money did not move", diags)
	}
	if m.args.Amount.ValueString() != "10" || m.args.RefID.ValueString() != "r-1" {
		t.Errorf("arguments after the refresh: %+v", m.args)
	}
	if _, diags = refresh(client.TransferStatusCompleted); len(diags) != 0 {
		t.Errorf("a COMPLETED withdrawal: %v, want nothing", diags)
	}
}
