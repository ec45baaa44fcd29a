package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// TestMoneySummary: money.summary says what applying does (sends, or
// records and sends nothing), the movement's words with its ref_id, and
// what destroying it does; unknown while any part it tells of is known
// only at apply, whether applying sends among them.
func TestMoneySummary(t *testing.T) {
	known := movement{kind: moneyKindInternalTransfer, asset: types.StringValue("USD"), amount: types.StringValue("100"),
		from: types.StringValue("p1"), to: types.StringValue("p2"), fiatAccount: types.StringNull(),
		what: "100 USD from profile p1 to profile p2"}
	says := summaryWords{does: "sends"}
	yes, no := types.BoolValue(true), types.BoolValue(false)
	for _, c := range []struct {
		sends types.Bool
		want  string
	}{
		{yes, "sends 100 USD from profile p1 to profile p2, ref_id ref-1; destroying it reverses nothing"},
		{no, "records, sends nothing: 100 USD from profile p1 to profile p2, ref_id ref-1; destroying it reverses nothing"},
	} {
		if got := known.summary(types.StringValue("ref-1"), c.sends, says); got.ValueString() != c.want {
			t.Errorf("summary (sends %s) = %s, want %q", c.sends, got, c.want)
		}
	}
	if got := known.summary(types.StringUnknown(), yes, says); !got.IsUnknown() {
		t.Errorf("summary with an unknown ref_id = %s, want unknown", got)
	}
	if got := known.summary(types.StringValue("ref-1"), types.BoolUnknown(), says); !got.IsUnknown() {
		t.Errorf("summary with sends unknown = %s, want unknown", got)
	}
	later := known
	later.amount = types.StringUnknown()
	if got := later.summary(types.StringValue("ref-1"), yes, says); !got.IsUnknown() {
		t.Errorf("summary with an unknown amount = %s, want unknown", got)
	}
	if got := known.manifest(types.StringValue("ref-2"), yes, says).summary; got.ValueString() != "sends "+known.what+", ref_id ref-2; "+destroyReversesNothing {
		t.Errorf("the manifest's summary = %s", got)
	}

	// A fiat account is named in parentheses after its id; a rule's
	// destroy deletes it.
	fiat := movement{kind: moneyKindFiatWithdrawal, asset: types.StringValue("USD"), amount: types.StringValue("5"),
		from: types.StringValue("p1"), to: types.StringValue("fa-1"), fiatAccount: types.StringValue("fa-1"),
		what: "5 USD to fiat account fa-1 from profile p1"}
	named := summaryWords{does: "sends", fiat: func(id string) string { return "Example Bank, account ending 6789 of " + id }}
	if got, want := fiat.summary(types.StringValue("r"), yes, named).ValueString(),
		"sends 5 USD to fiat account fa-1 (Example Bank, account ending 6789 of fa-1) from profile p1, ref_id r; "+
			destroyReversesNothing; got != want {
		t.Errorf("fiat summary = %q, want %q", got, want)
	}
	rule := fiat
	rule.standing, rule.what = true, "USDC deposits on ETHEREUM to USD, to fiat account fa-1, for profile p1"
	if got, want := rule.summary(types.StringValue("r"), no, summaryWords{does: "creates"}).ValueString(),
		"records, creates nothing: USDC deposits on ETHEREUM to USD, to fiat account fa-1, for profile p1, ref_id r; "+
			destroyDeletesRule; got != want {
		t.Errorf("rule summary = %q, want %q", got, want)
	}
}

// TestDescribeFiatAccount: a listed fiat account is named by its bank,
// the last four digits of its number, its nickname and a ref_id that is
// not a UUID; never by a masked tail, never by its owner.
func TestDescribeFiatAccount(t *testing.T) {
	s := func(v string) *string { return &v }
	wire := func(number, bank string) *client.FiatNetworkInstructions {
		return &client.FiatNetworkInstructions{Wire: &client.WireInstructions{AccountNumber: s(number),
			RoutingDetails: &client.RoutingDetails{BankName: s(bank)}}}
	}
	for _, c := range []struct {
		name string
		a    client.FiatAccount
		want string
	}{
		{"listed", client.FiatAccount{RefID: s("payroll-ada"), FiatNetworkInstructions: wire("XXXX6789", "Example Bank"),
			Metadata: map[string]any{"nickname": "Ada's salary"}},
			`Example Bank, account ending 6789, nickname "Ada's salary", ref_id payroll-ada`},
		{"a UUID ref_id", client.FiatAccount{RefID: s("ccfa906a-ccb1-5847-8ff9-dc4376eea5a6"),
			FiatNetworkInstructions: wire("****1234", "Customers Bank")}, "Customers Bank, account ending 1234"},
		{"masked tail", client.FiatAccount{FiatNetworkInstructions: wire("12XX", "B")}, "B"},
		{"nickname under wire", client.FiatAccount{FiatNetworkInstructions: &client.FiatNetworkInstructions{
			Wire: &client.WireInstructions{Metadata: map[string]any{"nickname": "Operating account 1"}}}},
			`WIRE, nickname "Operating account 1"`},
		{"owner only", client.FiatAccount{FiatAccountOwner: &client.FiatAccountOwner{
			PersonDetails: &client.PersonDetails{FirstName: s("Ada"), LastName: s("Payee")}}},
			"listed by the service with no bank, account number, nickname or ref_id"},
	} {
		if got := describeFiatAccount(&c.a); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
