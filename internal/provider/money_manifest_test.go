package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestMoneySummary: money.summary is the movement's words with its ref_id,
// unknown while any part it tells of is known only at apply.
func TestMoneySummary(t *testing.T) {
	known := movement{kind: moneyKindInternalTransfer, asset: types.StringValue("USD"), amount: types.StringValue("100"),
		from: types.StringValue("p1"), to: types.StringValue("p2"), what: "100 USD from profile p1 to profile p2"}
	if got := known.summary(types.StringValue("ref-1")); got.ValueString() != "100 USD from profile p1 to profile p2, ref_id ref-1" {
		t.Errorf("summary = %s", got)
	}
	if got := known.summary(types.StringUnknown()); !got.IsUnknown() {
		t.Errorf("summary with an unknown ref_id = %s, want unknown", got)
	}
	later := known
	later.amount = types.StringUnknown()
	if got := later.summary(types.StringValue("ref-1")); !got.IsUnknown() {
		t.Errorf("summary with an unknown amount = %s, want unknown", got)
	}
	if got := known.manifest(types.StringValue("ref-2"), types.BoolValue(true)).summary; got.ValueString() != known.what+", ref_id ref-2" {
		t.Errorf("the manifest's summary = %s", got)
	}
}
