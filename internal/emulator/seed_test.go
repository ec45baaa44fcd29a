package emulator

import (
	"reflect"
	"testing"
	"time"
)

func TestSeedDeterministic(t *testing.T) {
	opts := Options{Seed: 42, FiatAccounts: 300, DepositAddresses: 300, RewardClaims: 300, StablecoinConversions: 30}
	a, b := New(opts), New(opts)
	if !reflect.DeepEqual(a.FiatAccounts(), b.FiatAccounts()) || !reflect.DeepEqual(a.DepositAddresses(), b.DepositAddresses()) ||
		!reflect.DeepEqual(a.RewardClaims(), b.RewardClaims()) || !reflect.DeepEqual(a.StablecoinConversions(), b.StablecoinConversions()) {
		t.Fatal("same seed, different data")
	}
	c := New(Options{Seed: 43, FiatAccounts: 300})
	if c.FiatAccounts()[0].ID == a.FiatAccounts()[0].ID {
		t.Fatal("different seeds, same data")
	}
	// The size of one set does not change another.
	d := New(Options{Seed: 42, FiatAccounts: 10, DepositAddresses: 300})
	if !reflect.DeepEqual(d.DepositAddresses(), a.DepositAddresses()) || d.FiatAccounts()[9].ID != a.FiatAccounts()[9].ID {
		t.Fatal("data depends on the size of other sets")
	}
}

func TestSeedVariety(t *testing.T) {
	s := New(Options{Seed: 9, FiatAccounts: 1000, DepositAddresses: 1000, RewardClaims: 1000, StablecoinConversions: 100})
	fa := s.FiatAccounts()
	var deleted, nullPerson, pending int
	for i, a := range fa {
		if i > 0 && !a.CreatedAt.After(fa[i-1].CreatedAt) {
			t.Fatal("fiat accounts not in strictly increasing creation order")
		}
		w := a.FiatNetworkInstructions.Wire
		if a.Deleted {
			deleted++
		}
		if a.FiatAccountOwner.PersonDetails == nil {
			nullPerson++
			if d := a.FiatAccountOwner.InstitutionDetails; d == nil || d.Name == "" {
				t.Errorf("fiat account %s has neither person_details nor institution_details", a.ID)
			}
		} else if a.FiatAccountOwner.InstitutionDetails != nil {
			t.Errorf("fiat account %s has both person_details and institution_details", a.ID)
		}
		if w.FiatAccountOwnerAddress == nil || w.RoutingDetails.BankAddress == nil {
			t.Errorf("fiat account %s lacks an address the reference requires", a.ID)
		}
		// Published form: the status is at the top level, not under wire.
		if a.Status == "PENDING" && w.Status == "" && w.Metadata == nil {
			pending++
		}
	}
	for name, n := range map[string]int{"deleted": deleted, "null person": nullPerson, "pending": pending} {
		if n == 0 || n == len(fa) {
			t.Errorf("%s: %d of %d", name, n, len(fa))
		}
	}
	profiles, networks := map[string]bool{}, map[string]bool{}
	for _, d := range s.DepositAddresses() {
		profiles[d.ProfileID] = true
		networks[d.CryptoNetwork] = true
		if len(d.CompatibleCryptoNetworks) == 0 || d.Address == "" || d.CustomerID != s.CustomerID() {
			t.Fatalf("deposit address %+v", d)
		}
	}
	if len(profiles) < 3 || len(networks) < 5 {
		t.Errorf("profiles %d networks %d", len(profiles), len(networks))
	}
	for _, c := range s.RewardClaims() {
		if (c.OnchainStatus == "CONFIRMED") != (c.ConfirmedAt != nil) || (c.OnchainStatus == "PENDING") != (c.SubmittedAt == nil) ||
			(c.OnchainStatus == "FAILED") != (c.ErrorMessage != nil) {
			t.Fatalf("claim %+v", c)
		}
	}
	var settled, cancelled, open int
	for _, c := range s.StablecoinConversions() {
		switch {
		case c.SettledAt != nil:
			settled++
		case c.CancelledAt != nil:
			cancelled++
		default:
			open++
		}
		if c.Status != "CREATED" {
			t.Fatalf("status %s", c.Status)
		}
	}
	if settled == 0 || cancelled == 0 || open == 0 {
		t.Errorf("conversions settled %d cancelled %d open %d", settled, cancelled, open)
	}
}

// TestSeedLarge seeds 100,000 rows of each data set; how long it takes is a
// figure of the benchmarks (BenchmarkSeed), not of this test.
func TestSeedLarge(t *testing.T) {
	start := time.Now()
	s := New(Options{FiatAccounts: 100_000, DepositAddresses: 100_000, RewardClaims: 100_000, StablecoinConversions: 100_000})
	t.Logf("generated 4 x 100,000 rows in %v", time.Since(start))
	if len(s.FiatAccounts()) != 100_000 || len(s.RewardClaims()) != 100_000 ||
		len(s.DepositAddresses()) != 100_000 || len(s.StablecoinConversions()) != 100_000 {
		t.Fatal("sizes")
	}
}

// TestFiatAccountStatusNested: the spec's form keeps the status and metadata
// under wire, with the same values as the published form's top level.
func TestFiatAccountStatusNested(t *testing.T) {
	published := New(Options{FiatAccounts: 200}).FiatAccounts()
	nested := New(Options{FiatAccounts: 200, FiatAccountStatusNested: true}).FiatAccounts()
	statuses := map[string]bool{}
	for i := range published {
		p, n := published[i], nested[i].FiatNetworkInstructions.Wire
		if nested[i].Status != "" || nested[i].Metadata != nil {
			t.Fatalf("nested form has a top-level status %q", nested[i].Status)
		}
		want := n.Status
		if want == "ACTIVE" {
			want = "APPROVED"
		}
		if p.Status != want || len(p.Metadata) != len(n.Metadata) {
			t.Fatalf("account %d: published %q %v, nested %q %v", i, p.Status, p.Metadata, n.Status, n.Metadata)
		}
		statuses[p.Status] = true
	}
	if !statuses["PENDING"] || !statuses["APPROVED"] || !statuses["REJECTED"] {
		t.Errorf("statuses %v", statuses)
	}
}
