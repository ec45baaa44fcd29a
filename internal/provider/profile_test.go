package provider

import (
	"slices"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// TestHeldBalances: what a plan that deactivates a profile lists as held:
// every available or trading value above zero, and any value that is not
// a decimal (nothing says it is zero).
func TestHeldBalances(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []client.ProfileBalance
		want []string
	}{
		{"none", nil, nil},
		{"zeros", []client.ProfileBalance{{Asset: "USD", Available: "0", Trading: "0.00"}, {Asset: "BTC", Available: "", Trading: ""}}, nil},
		{"available", []client.ProfileBalance{{Asset: "USD", Available: "10.5", Trading: "0"}}, []string{"10.5 USD available"}},
		{"trading", []client.ProfileBalance{{Asset: "BTC", Available: "0", Trading: ".25"}}, []string{".25 BTC trading"}},
		{"both and another", []client.ProfileBalance{{Asset: "ETH", Available: "1", Trading: "2"}, {Asset: "SOL", Available: "0", Trading: "0"}},
			[]string{"1 ETH available", "2 ETH trading"}},
		{"not a decimal", []client.ProfileBalance{{Asset: "USD", Available: "lots", Trading: "0"}}, []string{"lots USD available"}},
		{"negative", []client.ProfileBalance{{Asset: "USD", Available: "-1", Trading: "0"}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := heldBalances(c.in); !slices.Equal(got, c.want) {
				t.Errorf("held %q, want %q", got, c.want)
			}
		})
	}
}
