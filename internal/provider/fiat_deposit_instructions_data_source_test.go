package provider

import (
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

const fdiDataAddr = "data.platform_fiat_deposit_instructions.test"

func TestAccFiatDepositInstructionsDataSource(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	env.needEmulator(t)
	env.needMoneyMovement(t)
	emu := env.emu
	cfg := env.config(fdiConfig(`  metadata = { purpose = "payroll" }`), `
data "platform_fiat_deposit_instructions" "test" {
  id = platform_fiat_deposit_instructions.test.id
}
`)
	// Every attribute of the data source equals the resource's.
	var same []statecheck.StateCheck
	for _, a := range []string{
		"id", "profile_id", "fiat_network", "ref_id", "identity_id", "account_id", "routing_number_type",
		"metadata", "status", "memo_id", "customer_id", "created_at", "fiat_account_owner", "fiat_network_instructions",
	} {
		same = append(same, statecheck.CompareValuePairs(fdiAddr, tfjsonpath.New(a), fdiDataAddr, tfjsonpath.New(a), compare.ValuesSame()))
	}
	same = append(same,
		statecheck.ExpectKnownValue(fdiDataAddr, tfjsonpath.New("fiat_network"), knownvalue.StringExact("WIRE")),
		statecheck.ExpectKnownValue(fdiDataAddr, fdiWire("routing_details", "bank_name"), knownvalue.StringExact("Platform Trust Company")),
		statecheck.ExpectKnownValue(fdiDataAddr, tfjsonpath.New("status"), knownvalue.StringExact("VALID")),
	)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:            cfg,
				ConfigStateChecks: same,
				Check:             checkInstructionsMatchEmulator(emu, fdiDataAddr, 1),
			},
		},
	})
}

func TestAccFiatDepositInstructionsDataSource_errors(t *testing.T) {
	env := newAccEnv(t, emulator.Options{Clients: map[string]emulator.ClientCredentials{
		emulator.DefaultClientID: {Secret: emulator.DefaultClientSecret},
		"writer":                 {Secret: "writer-secret", Scopes: []string{client.ScopeWriteFiatDepositInstr}},
	}})
	env.needEmulator(t)
	body := `
data "platform_fiat_deposit_instructions" "test" {
  id = "00000000-0000-0000-0000-000000000000"
}
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      env.config(body),
				ExpectError: regexp.MustCompile(`(?s)Fiat deposit instructions not found.*00000000-0000-0000-0000-000000000000.*404`),
			},
			{
				Config:      emulatorProviderBlockFor(env.emu, "writer", "writer-secret", "") + body,
				ExpectError: regexp.MustCompile(`transfer:read_fiat_deposit_instructions`),
			},
			{
				Config:      env.config(`data "platform_fiat_deposit_instructions" "test" { id = "" }`),
				ExpectError: regexp.MustCompile(`Attribute id string length must be at least 1`),
			},
		},
	})
}

// TestFiatDepositInstructionsFromAPI checks the shared mapping: absent and
// empty values are null, never "", and the owner falls back to the one
// inside the instructions.
func TestFiatDepositInstructionsFromAPI(t *testing.T) {
	s := func(v string) *string { return &v }
	created := time.Date(2026, 1, 2, 3, 4, 5, 600000000, time.UTC)
	f := &client.FiatDepositInstructions{
		ID: "fdi-1", ProfileID: "p-1", IdentityID: "i-1", Status: "VALID", MemoID: "MEMO", CreatedAt: created,
		FiatNetworkInstructions: &client.FiatNetworkInstructions{
			Wire: &client.WireInstructions{
				AccountNumber:           s("123"),
				FiatAccountOwnerAddress: &client.Address{Country: s("US"), Address2: s("")},
				RoutingDetails:          &client.RoutingDetails{RoutingNumberType: s("SWIFT"), BankName: s("Bank")},
			},
			FiatAccountOwner: &client.FiatAccountOwner{PersonDetails: &client.PersonDetails{FirstName: s("Ada")}},
			Metadata:         map[string]any{"n": 1.5, "s": "x"},
		},
	}
	m := newFiatDepositInstructionsModel()
	if d := m.fromAPI(f, false); d.HasError() {
		t.Fatalf("fromAPI: %v", d)
	}
	a := m.args
	if a.FiatNetwork.ValueString() != "WIRE" || a.RoutingNumberType.ValueString() != "SWIFT" {
		t.Errorf("inferred fiat_network %s, routing_number_type %s", a.FiatNetwork, a.RoutingNumberType)
	}
	if !a.AccountID.IsNull() || !a.RefID.IsNull() || !m.str("customer_id").IsNull() || !a.Metadata.IsNull() {
		t.Errorf("absent values not null: account_id %s ref_id %s customer_id %s metadata %s", a.AccountID, a.RefID, m.str("customer_id"), a.Metadata)
	}
	if got := m.computed["created_at"].(timetypes.RFC3339).ValueString(); got != "2026-01-02T03:04:05.6Z" { //nolint:forcetypeassert // Test of a known shape.
		t.Errorf("created_at = %s", got)
	}
	networks := m.computed["fiat_network_instructions"].(types.Object)                                                  //nolint:forcetypeassert // Test of a known shape.
	wire := networks.Attributes()["wire"].(types.Object)                                                                //nolint:forcetypeassert // Test of a known shape.
	addr := wire.Attributes()["fiat_account_owner_address"].(types.Object).Attributes()                                 //nolint:forcetypeassert // Test of a known shape.
	routing := wire.Attributes()["routing_details"].(types.Object).Attributes()                                         //nolint:forcetypeassert // Test of a known shape.
	owner := m.computed["fiat_account_owner"].(types.Object).Attributes()["person_details"].(types.Object).Attributes() //nolint:forcetypeassert // Test of a known shape.
	meta := networks.Attributes()["metadata"].(types.Map).Elements()                                                    //nolint:forcetypeassert // Test of a known shape.
	checks := map[string]struct{ got, want attr.Value }{
		"address2 (empty)":         {addr["address2"], types.StringNull()},
		"city (absent)":            {addr["city"], types.StringNull()},
		"country":                  {addr["country"], types.StringValue("US")},
		"bank_address (absent)":    {routing["bank_address"], addressShape.null()},
		"owner from instructions":  {owner["first_name"], types.StringValue("Ada")},
		"owner last name (absent)": {owner["last_name"], types.StringNull()},
		"metadata number as JSON":  {meta["n"], types.StringValue("1.5")},
		"metadata string":          {meta["s"], types.StringValue("x")},
	}
	for name, c := range checks {
		if !c.got.Equal(c.want) {
			t.Errorf("%s: got %s, want %s", name, c.got, c.want)
		}
	}

	// A non-WIRE set keeps the recorded fiat_network and an unknown
	// routing_number_type becomes null.
	m2 := fiatDepositInstructionsModel{args: fiatDepositInstructionsArgs{
		FiatNetwork: types.StringValue("RTP"), RoutingNumberType: types.StringUnknown(), Metadata: types.MapUnknown(types.StringType),
		RefID: types.StringValue("r-1"), IdentityID: types.StringUnknown(), AccountID: types.StringUnknown(),
	}}
	f2 := &client.FiatDepositInstructions{ID: "fdi-2", ProfileID: "p", IdentityID: "i-2", Status: "VALID", MemoID: "M2",
		FiatNetworkInstructions: &client.FiatNetworkInstructions{}}
	if d := m2.fromAPI(f2, true); d.HasError() {
		t.Fatalf("fromAPI: %v", d)
	}
	a2 := m2.args
	if a2.FiatNetwork.ValueString() != "RTP" || !a2.RoutingNumberType.IsNull() || !a2.Metadata.IsNull() ||
		a2.RefID.ValueString() != "r-1" || a2.IdentityID.ValueString() != "i-2" || !a2.AccountID.IsNull() {
		t.Errorf("non-WIRE mapping: %+v", m2)
	}
	if !m2.computed["fiat_network_instructions"].(types.Object).Attributes()["wire"].IsNull() { //nolint:forcetypeassert // Test of a known shape.
		t.Errorf("wire of a non-WIRE set is not null")
	}
}
