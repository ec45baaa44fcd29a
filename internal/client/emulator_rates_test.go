package client_test

import (
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// emulatorRates are the rates of the tests against an emulator that does
// not count requests: a thousand times the published ones, so that
// pacing costs them no time.
var emulatorRates = client.PublishedRates.Scaled(1000)

// emulatorClient starts an emulator with opts and a client of it, at
// emulatorRates; mutate, when not nil, changes the client's configuration.
func emulatorClient(t *testing.T, opts emulator.Options, mutate func(*client.Config)) (*emulator.Server, *client.Client) {
	t.Helper()
	emu := emulator.StartTest(t, opts)
	cfg := client.Config{
		ClientID: emulator.DefaultClientID, ClientSecret: emulator.DefaultClientSecret,
		BaseURL: emu.BaseURL(), AuthURL: emu.AuthURL(),
		Rates: &emulatorRates, RateStateDir: t.TempDir(),
	}
	if mutate != nil {
		mutate(&cfg)
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return emu, c
}
