package client_test

import (
	"errors"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func TestTransfersAgainstEmulator(t *testing.T) {
	emu, c := emulatorClient(t, emulator.Options{Transfers: 2500}, nil)
	ctx := t.Context()
	made, err := c.CreateCryptoWithdrawal(ctx, client.CryptoWithdrawalRequest{
		ProfileID: "p", DestinationAddress: "d", Asset: "BTC", CryptoNetwork: "BITCOIN", Amount: "1", RefID: "r-1",
	})
	if err != nil {
		t.Fatal(err)
	}
	emu.SetTransferStatus(made.ID, client.TransferStatusCompleted, "0xfeed")
	got, err := c.GetTransfer(ctx, made.ID)
	if err != nil || got.Status != client.TransferStatusCompleted || got.CryptoTxHash == nil || *got.CryptoTxHash != "0xfeed" {
		t.Fatalf("GetTransfer = %+v, %v", got, err)
	}
	if _, err := c.GetTransfer(ctx, "no-such-transfer"); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("GetTransfer of an unknown id: %v, want ErrNotFound", err)
	}
	// Every seeded transfer and the withdrawal, across three pages of 1000.
	n, completed := 0, 0
	for tr, err := range c.Transfers(ctx, client.ListTransfersQuery{}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if tr.Status == client.TransferStatusCompleted {
			completed++
		}
	}
	if n != 2501 {
		t.Errorf("listed %d transfers, want 2501", n)
	}
	want := 0
	for tr, err := range c.Transfers(ctx, client.ListTransfersQuery{Statuses: []string{client.TransferStatusCompleted}}) {
		if err != nil || tr.Status != client.TransferStatusCompleted {
			t.Fatalf("statuses filter gave %+v, %v", tr, err)
		}
		want++
	}
	if want != completed {
		t.Errorf("statuses=COMPLETED listed %d, the full list has %d", want, completed)
	}
	byRef := 0
	for tr, err := range c.Transfers(ctx, client.ListTransfersQuery{RefIDs: []string{"r-1"}}) {
		if err != nil || tr.ID != made.ID {
			t.Fatalf("ref_ids filter gave %+v, %v", tr, err)
		}
		byRef++
	}
	if byRef != 1 {
		t.Errorf("ref_ids filter listed %d, want 1", byRef)
	}
	f, err := c.CreateFiatDepositInstructions(ctx, client.FiatDepositInstructionsRequest{ProfileID: "p", FiatNetwork: "WIRE", RefID: "i-1"})
	if err != nil {
		t.Fatal(err)
	}
	for got, err := range c.FiatDepositInstructionsList(ctx, client.ListFiatDepositInstructionsQuery{RefIDs: []string{"i-1"}}) {
		if err != nil || got.ID != f.ID {
			t.Fatalf("instructions by ref_id: %+v, %v", got, err)
		}
	}
}
