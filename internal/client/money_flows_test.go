package client_test

import (
	"errors"
	"net/http"
	"slices"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// moneyEmulator starts an emulator with seeded fiat accounts and a client
// of it that retries at once.
func moneyEmulator(t *testing.T) (*emulator.Server, *client.Client) {
	t.Helper()
	return emulatorClient(t, emulator.Options{FiatAccounts: 40, StablecoinConversions: 2}, func(c *client.Config) {
		c.MaxRetries, c.RetryWaitMin, c.RetryWaitMax = 2, 1, 1
	})
}

// approvedAccount is a seeded fiat account withdrawals may go to.
func approvedAccount(t *testing.T, emu *emulator.Server) string {
	t.Helper()
	for _, a := range emu.FiatAccounts() {
		if !a.Deleted && a.Status == "APPROVED" {
			return a.ID
		}
	}
	t.Fatal("no approved seeded fiat account")
	return ""
}

func TestFiatWithdrawalAgainstEmulator(t *testing.T) {
	emu, c := moneyEmulator(t)
	ctx := t.Context()
	req := client.FiatWithdrawalRequest{ProfileID: "p", FiatAccountID: approvedAccount(t, emu), Asset: "USD",
		Amount: "100", RefID: "fw-1", Memo: "m", Metadata: map[string]string{"k": "v"}}
	made, err := c.CreateFiatWithdrawal(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if made.Type != client.TransferTypeWireWithdrawal || made.Direction != "DEBIT" || made.Status != client.TransferStatusPending ||
		made.FiatAccountID == nil || *made.FiatAccountID != req.FiatAccountID || made.Total != "100" || made.Memo == nil {
		t.Errorf("made %+v", made)
	}
	if !slices.Contains(client.FiatWithdrawalTransferTypes, made.Type) {
		t.Errorf("type %s is not among FiatWithdrawalTransferTypes", made.Type)
	}
	// The same ref_id: 409 with the transfer made with it.
	req.Amount = "5"
	_, err = c.CreateFiatWithdrawal(ctx, req)
	if existing, ok := client.ExistingTransfer(err); !ok || existing.ID != made.ID || !errors.Is(err, client.ErrConflict) {
		t.Errorf("replay: %v, existing %+v", err, existing)
	}
	// A balance that does not cover it.
	emu.SetBalance("p", "USD", "4.99")
	req.RefID = "fw-2"
	_, err = c.CreateFiatWithdrawal(ctx, req)
	if !client.IsInsufficientFunds(err) || !errors.Is(err, client.ErrForbidden) || client.ScopeRefused(err) {
		t.Errorf("insufficient funds: %v", err)
	}
	if got, _ := emu.Balance("p", "USD"); got != "4.99" {
		t.Errorf("balance %s after the refusal", got)
	}
	// With a ref_id, a 5xx is retried; the retry makes the withdrawal.
	emu.SetBalance("p", "USD", "5")
	emu.Faults.ServerErrors(1, http.StatusBadGateway)
	if _, err := c.CreateFiatWithdrawal(ctx, req); err != nil {
		t.Fatalf("retried: %v", err)
	}
	if got, _ := emu.Balance("p", "USD"); got != "0" {
		t.Errorf("balance %s, want 0", got)
	}
	// Without one, it is not.
	req.RefID = ""
	emu.SetBalance("p", "USD", "5")
	emu.Faults.ServerErrors(1, http.StatusBadGateway)
	if _, err := c.CreateFiatWithdrawal(ctx, req); !errors.Is(err, client.ErrServer) {
		t.Errorf("without ref_id: %v, want the 502", err)
	}
	if n := len(emu.TransfersOfType(client.FiatWithdrawalTransferTypes...)); n != 2 {
		t.Errorf("%d fiat withdrawals made, want 2", n)
	}
}

func TestInternalTransferAgainstEmulator(t *testing.T) {
	emu, c := moneyEmulator(t)
	ctx := t.Context()
	req := client.InternalTransferRequest{FromProfileID: "a", ToProfileID: "b", Asset: "USDC", Amount: "7.5", RefID: "it-1"}
	debit, err := c.CreateInternalTransfer(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if debit.Type != client.TransferTypeInternalDebit || debit.ProfileID != "a" || debit.GroupID == nil {
		t.Fatalf("debit %+v", debit)
	}
	n := 0
	for tr, err := range c.Transfers(ctx, client.ListTransfersQuery{GroupIDs: []string{*debit.GroupID}}) {
		if err != nil {
			t.Fatal(err)
		}
		if tr.ID != debit.ID && (tr.Type != client.TransferTypeInternalCredit || tr.ProfileID != "b" || tr.Direction != "CREDIT") {
			t.Errorf("credit side %+v", tr)
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d transfers in the group, want 2", n)
	}
	// The reference's replay answer is a 409 without the transfer: a
	// conflict, found by its ref_id.
	_, err = c.CreateInternalTransfer(ctx, req)
	if _, ok := client.ExistingTransfer(err); ok || !errors.Is(err, client.ErrConflict) {
		t.Errorf("replay: %v, want a 409 without the transfer", err)
	}
	found := 0
	for tr, err := range c.Transfers(ctx, client.ListTransfersQuery{RefIDs: []string{"it-1"}}) {
		if err != nil {
			t.Fatal(err)
		}
		if tr.ID == debit.ID {
			found++
		}
	}
	if found != 1 {
		t.Errorf("the debit side found %d times by its ref_id, want once", found)
	}
	emu.SetBalance("a", "USDC", "1")
	req.RefID = "it-2"
	if _, err := c.CreateInternalTransfer(ctx, req); !client.IsInsufficientFunds(err) {
		t.Errorf("insufficient funds: %v", err)
	}
}

func TestStablecoinConversionAgainstEmulator(t *testing.T) {
	emu, c := moneyEmulator(t)
	ctx := t.Context()
	req := client.StablecoinConversionRequest{ProfileID: "p", SourceAsset: "USD", TargetAsset: "PYUSD", Amount: "20",
		RecipientProfileID: "q", RefID: "sc-1"}
	made, err := c.CreateStablecoinConversion(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if made.ID == nil || made.Status == nil || *made.Status != "CREATED" || made.RecipientProfileID == nil || *made.RecipientProfileID != "q" {
		t.Fatalf("made %+v", made)
	}
	got, err := c.GetStablecoinConversion(ctx, *made.ID)
	if err != nil || *got.ID != *made.ID {
		t.Fatalf("get: %+v, %v", got, err)
	}
	_, err = c.CreateStablecoinConversion(ctx, req)
	if existing, ok := client.ExistingStablecoinConversion(err); !ok || *existing.ID != *made.ID {
		t.Errorf("replay: %v", err)
	}
	if _, ok := client.ExistingTransfer(errors.New("other")); ok {
		t.Error("an error that is no 409 reported an existing transfer")
	}
	emu.SetBalance("p", "USD", "19.99")
	req.RefID = "sc-2"
	if _, err := c.CreateStablecoinConversion(ctx, req); !client.IsInsufficientFunds(err) {
		t.Errorf("insufficient funds: %v", err)
	}
	// Cancel, twice; an unknown id; a settled one.
	cancelled, err := c.CancelStablecoinConversion(ctx, *made.ID)
	if err != nil || cancelled.Status == nil || *cancelled.Status != "CANCELLED" || cancelled.CancelledAt == nil {
		t.Fatalf("cancel: %+v, %v", cancelled, err)
	}
	if again, err := c.CancelStablecoinConversion(ctx, *made.ID); err != nil || *again.Status != "CANCELLED" {
		t.Errorf("cancel again: %+v, %v", again, err)
	}
	if _, err := c.CancelStablecoinConversion(ctx, "00000000-0000-4000-8000-000000000000"); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("cancel of an unknown id: %v", err)
	}
	req.Amount = "1"
	other, err := c.CreateStablecoinConversion(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if !emu.SettleConversion(*other.ID) {
		t.Fatal("not settled")
	}
	if _, err := c.CancelStablecoinConversion(ctx, *other.ID); !errors.Is(err, client.ErrConflict) {
		t.Errorf("cancel of a settled conversion: %v", err)
	}
	if got, _ := emu.Balance("p", "USD"); got != "18.99" {
		t.Errorf("balance %s, want 18.99", got)
	}
}
