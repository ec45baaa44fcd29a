package provider

import (
	"encoding/json"
	"testing"

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

// fwBody declares one fiat withdrawal to the test payee.
const fwBody = `
resource "platform_fiat_withdrawal" "payout" {
  profile_id      = "prof-1"
  fiat_account_id = "` + testPayeeAccount + `"
  asset           = "USD"
  amount          = "1250.5"
  metadata = { purpose = "core" }
}
`

// itBody declares one internal transfer.
const itBody = `
resource "platform_internal_transfer" "sweep" {
  from_profile_id = "prof-1"
  to_profile_id   = "prof-2"
  asset           = "USD"
  amount          = "500"
  metadata = { purpose = "core" }
}
`

// scBody declares one stablecoin conversion.
const scBody = `
resource "platform_stablecoin_conversion" "convert" {
  profile_id   = "prof-1"
  source_asset = "USD"
  target_asset = "USDC"
  amount       = "1000"
  metadata = { purpose = "core" }
}
`

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
	var out []moneyObject
	for _, tr := range emu.TransfersOfType(types...) {
		ct := asClientTransfer(tr)
		out = append(out, moneyObject{ID: ct.ID, RefID: deref(ct.RefID), Summary: transferSummary(ct)})
	}
	return out
}

// conversionObjects are the conversions made at emu, as the provider
// describes them.
func conversionObjects(emu *emulator.Server) []moneyObject {
	var out []moneyObject
	for _, c := range emu.MadeStablecoinConversions() {
		b, _ := json.Marshal(c)
		var cc client.StablecoinConversion
		_ = json.Unmarshal(b, &cc)
		out = append(out, moneyObject{ID: deref(cc.ID), RefID: deref(cc.RefID),
			Summary: stablecoinConversionKind.describe(&cc)})
	}
	return out
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
