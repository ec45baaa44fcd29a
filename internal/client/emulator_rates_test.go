package client_test

import "github.com/platform/terraform-provider-platform/internal/client"

// emulatorRates are the rates of the tests against an emulator that does
// not count requests: a thousand times the published ones, so that
// pacing costs them no time.
var emulatorRates = client.PublishedRates.Scaled(1000)
