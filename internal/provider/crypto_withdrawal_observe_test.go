package provider

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// Observing and adopting withdrawals: refresh, import, identity.

const eoAddr = "platform_crypto_withdrawal.payout"

func TestAccCryptoWithdrawal_refreshFollowsStatus(t *testing.T) {
	env, emu := emulatorEnv(t, emulator.Options{})
	cfg := env.config(payoutWithdrawal)
	const hash = "3f9a0c1e5b7d2a4c6e8f0b1d3a5c7e9f1b3d5a7c9e1f3b5d7a9c1e3f5b7d9a1c"
	parallelSteps(t,
		resource.TestStep{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(eoAddr, tfjsonpath.New("status"), knownvalue.StringExact("PENDING")),
				statecheck.ExpectKnownValue(eoAddr, tfjsonpath.New("crypto_tx_hash"), knownvalue.Null()),
			},
		},
		resource.TestStep{
			// The network confirms it: the refresh follows, and nothing is
			// planned for the withdrawal itself.
			PreConfig: func() {
				if !emu.SetTransferStatus(onlyTransfer(t, emu).ID, client.TransferStatusCompleted, hash) {
					t.Fatal("the emulator does not know the withdrawal")
				}
			},
			Config:           cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(eoAddr, tfjsonpath.New("status"), knownvalue.StringExact("COMPLETED")),
				statecheck.ExpectKnownValue(eoAddr, tfjsonpath.New("crypto_tx_hash"), knownvalue.StringExact(hash)),
				statecheck.ExpectKnownValue(eoAddr, tfjsonpath.New("amount"), knownvalue.StringExact("0.5")),
			},
			Check: func(*terraform.State) error {
				onlyTransfer(t, emu)
				return nil
			},
		},
		resource.TestStep{Config: cfg, PlanOnly: true},
	)
	if n := emu.Counters.Requests(cwPostKey); n != 1 {
		t.Errorf("%d withdrawal POSTs, want 1", n)
	}
}

func TestAccCryptoWithdrawal_failedIsWarnedNotResent(t *testing.T) {
	t.Parallel()
	emu, w := emulatorWorkdir(t, "", payoutWithdrawal)
	w.mustRun(0, "apply", "-auto-approve")
	tr := onlyTransfer(t, emu)
	emu.SetTransferStatus(tr.ID, client.TransferStatusFailed, "")
	r := w.mustRun(0, "plan", "-detailed-exitcode")
	out := regexp.MustCompile(`\s+`).ReplaceAllString(r.output(), " ")
	for _, want := range []string{"Crypto withdrawal FAILED", "The service reports the crypto withdrawal " + tr.ID, "never sent again on its own", "give it a new ref_id"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan output lacks %q:\n%s", want, r.output())
		}
	}
	w.mustRun(0, "apply", "-auto-approve")
	if st := stateOf(t, w, eoAddr); st["status"] != "FAILED" {
		t.Errorf("state status %v, want FAILED", st["status"])
	}
	onlyTransfer(t, emu)
}

func TestAccCryptoWithdrawal_refreshWithoutReadScope(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{Clients: map[string]emulator.ClientCredentials{
		"writer": {Secret: "writer-secret", Scopes: []string{client.ScopeWriteCryptoWithdrawal}},
	}})
	w := newCLIWorkdir(t)
	two := payoutWithdrawal + strings.Replace(strings.Replace(payoutWithdrawal, `"payout"`, `"second"`, 1), `"0.5"`, `"0.6"`, 1)
	w.write(emulatorProviderBlockFor(emu, "writer", "writer-secret", ""), two)
	w.mustRun(0, "apply", "-auto-approve")
	// The plan could not look the ref_id up: its manifest says the apply
	// may send, and it did.
	if m, _ := stateOf(t, w, "platform_crypto_withdrawal.payout")["money"].(map[string]any); m["sends"] != true || m["amount"] != "0.5" {
		t.Errorf("money = %v, want sends true and amount 0.5", m)
	}
	r := w.mustRun(0, "plan", "-detailed-exitcode")
	if n := strings.Count(r.output(), "Crypto withdrawal not refreshed"); n != 1 {
		t.Errorf("the warning appears %d times, want once:\n%s", n, r.output())
	}
	if !strings.Contains(r.output(), client.ScopeReadTransfer) {
		t.Errorf("the warning does not name the scope:\n%s", r.output())
	}
	if st := stateOf(t, w, eoAddr); st["status"] != "PENDING" || st["id"] == nil {
		t.Errorf("state after the refresh: %v", st)
	}
	if n := len(emu.Transfers()); n != 2 {
		t.Errorf("the emulator holds %d transfers, want 2", n)
	}
}

func TestAccCryptoWithdrawal_import(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	made := postWithdrawal(t, emu, "made-elsewhere")
	w := newCLIWorkdir(t)
	// The configuration declares the same withdrawal, without ref_id, and
	// with a beneficiary, which the service does not report.
	cfg := strings.Replace(eoWithdrawal, `metadata`, `beneficiary = jsonencode({ name = "Example Ltd" })
  metadata`, 1)
	w.write(emulatorProviderBlock(emu, ""), cfg)
	w.mustRun(0, "import", eoAddr, made)
	st := stateOf(t, w, eoAddr)
	for k, want := range map[string]any{
		"id": made, "ref_id": "made-elsewhere", "profile_id": "prof-1", "asset": "BTC", "crypto_network": "BITCOIN",
		"amount": "0.5", "total": "0.5001", "destination_address": "bc1qexampleaddress0000000000000000000000",
	} {
		if st[k] != want {
			t.Errorf("imported %s = %v, want %v", k, st[k], want)
		}
	}
	// Only the beneficiary is recorded, in place; nothing is sent.
	r := w.mustRun(2, "plan", "-detailed-exitcode")
	if !strings.Contains(r.output(), "will be updated in-place") || strings.Contains(r.output(), "replace") {
		t.Errorf("the plan after the import is not an in-place update of the beneficiary:\n%s", r.output())
	}
	w.mustRun(0, "apply", "-auto-approve")
	w.mustRun(0, "plan", "-detailed-exitcode")
	if n := emu.Counters.Requests(cwPostKey); n != 1 {
		t.Errorf("%d withdrawal POSTs, want the 1 made before the import", n)
	}
	onlyTransfer(t, emu)
}

func TestAccCryptoWithdrawal_importByIdentity(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	w := newCLIWorkdir(t)
	skipBelowTerraform(t, w, "1.12.0", "import by resource identity needs Terraform 1.12 or later")
	made := postWithdrawal(t, emu, "by-identity")
	w.write(emulatorProviderBlock(emu, ""), eoWithdrawal+`
import {
  to       = platform_crypto_withdrawal.payout
  identity = { id = "`+made+`" }
}
`)
	r := w.mustRun(0, "apply", "-auto-approve")
	if !strings.Contains(r.output(), "1 imported, 0 added, 0 changed, 0 destroyed") {
		t.Errorf("apply did not import:\n%s", r.output())
	}
	if st := stateOf(t, w, eoAddr); st["id"] != made || st["ref_id"] != "by-identity" {
		t.Errorf("state after the import: %v", st)
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
	onlyTransfer(t, emu)
}
