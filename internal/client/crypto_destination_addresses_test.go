package client_test

import (
	"net/http"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func TestCryptoDestinationAddressesAgainstEmulator(t *testing.T) {
	emu, c := emulatorClient(t, emulator.Options{CryptoDestinationAddresses: 2100}, nil)
	ctx := t.Context()
	const addr = "0xe4b0ACa9Fb669817775274775b20e52118595515"
	made, err := c.PutCryptoDestinationAddress(ctx, client.PutCryptoDestinationAddressRequest{
		CryptoNetwork: "ETHEREUM", Address: addr, Nickname: "treasury",
		TravelruleMetadata: &client.TravelruleMetadata{CustodianType: ptr("PRIVATE"),
			Beneficiary: &client.Beneficiary{Self: ptr(true)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if made.Address != addr || made.Nickname == nil || *made.Nickname != "treasury" || made.Status == nil ||
		*made.Status != client.DestinationAddressPending || made.Bookmarked == nil || *made.Bookmarked ||
		made.TravelruleMetadata == nil || made.TravelruleMetadata.Beneficiary == nil || !*made.TravelruleMetadata.Beneficiary.Self {
		t.Fatalf("PUT answered %+v", made)
	}
	upd, err := c.PutCryptoDestinationAddress(ctx, client.PutCryptoDestinationAddressRequest{ID: made.ID, BookmarkedStatus: ptr(true)})
	if err != nil || upd.ID != made.ID || !*upd.Bookmarked {
		t.Fatalf("PUT by id answered %+v, %v", upd, err)
	}
	if _, err := c.PutCryptoDestinationAddress(ctx, client.PutCryptoDestinationAddressRequest{ID: made.ID, Address: addr}); err == nil {
		t.Fatal("a PUT naming both id and address was sent")
	}
	if n := emu.Counters.Requests(http.MethodPut + " /v2/transfer/crypto-destination-address"); n != 2 {
		t.Errorf("%d PUTs, want 2", n)
	}
	// Every entry, across three pages of 1000.
	all, err := c.ListCryptoDestinationAddresses(ctx, client.ListCryptoDestinationAddressesQuery{})
	if err != nil || len(all) != 2101 || all[0].ID != made.ID {
		t.Fatalf("listed %d addresses (first %v), %v; want 2101, newest first", len(all), all[0].ID, err)
	}
	if n := emu.Counters.Requests(http.MethodGet + " /v2/transfer/crypto-destination-addresses"); n != 3 {
		t.Errorf("%d list requests, want 3", n)
	}
	got, err := c.ListCryptoDestinationAddresses(ctx, client.ListCryptoDestinationAddressesQuery{
		Addresses: []string{addr}, CryptoNetworks: []string{"ETHEREUM"}, BookmarkedStatus: ptr(true),
	})
	if err != nil || len(got) != 1 || got[0].ID != made.ID {
		t.Fatalf("by tuple: %+v, %v", got, err)
	}
	var approved []string
	for a, err := range c.CryptoDestinationAddresses(ctx, client.ListCryptoDestinationAddressesQuery{Order: "ASC", MaxItems: 50}) {
		if err != nil {
			t.Fatal(err)
		}
		if *a.Status == client.DestinationAddressApproved {
			approved = append(approved, a.ID)
		}
	}
	if len(approved) == 0 {
		t.Fatalf("no approved address among the first 50")
	}
}

func ptr[T any](v T) *T { return &v }
