package emulator

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/shopspring/decimal"
)

// Balances are an admin hook: the available balance of a profile in one
// asset, set by SetBalance (or PUT /admin/balances). Only a balance that is
// set is checked and moved; a money operation whose profile and asset have
// none is never refused for funds, as before balances existed.

// Balance is the available balance of a profile in an asset: an item of
// GET /admin/balances and the body of PUT /admin/balances.
type Balance struct {
	ProfileID string `json:"profile_id"`
	Asset     string `json:"asset"`
	Available string `json:"available"`
}

// AdminBalances is the body of GET and PUT /admin/balances: every balance
// set, by profile and then asset.
type AdminBalances struct {
	Balances []Balance `json:"balances"`
}

// balanceKey names a balance; the asset is in upper case, so that USDC and
// usdc are one balance.
type balanceKey struct {
	profile, asset string
}

func keyOf(profile, asset string) balanceKey {
	return balanceKey{profile: profile, asset: strings.ToUpper(asset)}
}

// SetBalance sets the available balance of profileID in asset, an exact
// decimal of the spec's pattern (^[0-9]*\.?[0-9]+$). From then on every
// money operation that debits that balance is refused with 403
// insufficient-funds when it needs more than is available, and otherwise
// debits it. It panics when available is not such a decimal.
func (s *Server) SetBalance(profileID, asset, available string) {
	if !decimalPattern.MatchString(available) {
		panic(fmt.Sprintf("emulator: balance %q is not a decimal of the pattern %s", available, decimalPattern))
	}
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	st.balances[keyOf(profileID, asset)] = decimal.RequireFromString(available)
}

// Balance returns the available balance of profileID in asset, in
// shortest form, and whether one is set.
func (s *Server) Balance(profileID, asset string) (string, bool) {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	b, ok := st.balances[keyOf(profileID, asset)]
	if !ok {
		return "", false
	}
	return b.String(), true
}

// Balances returns every balance set, by profile and then asset (in upper
// case).
func (s *Server) Balances() []Balance {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]Balance, 0, len(st.balances))
	for k, v := range st.balances {
		out = append(out, Balance{ProfileID: k.profile, Asset: k.asset, Available: v.String()})
	}
	slices.SortFunc(out, func(a, b Balance) int {
		return cmp.Or(cmp.Compare(a.ProfileID, b.ProfileID), cmp.Compare(a.Asset, b.Asset))
	})
	return out
}

// validateBalance checks the body of PUT /admin/balances.
func validateBalance(b Balance) *apiError {
	if e := required("profile_id", b.ProfileID, "asset", b.Asset, "available", b.Available); e != nil {
		return e
	}
	if !decimalPattern.MatchString(b.Available) {
		return errInvalid("available", "must match ^[0-9]*\\.?[0-9]+$")
	}
	return nil
}

// lackOfFunds is the refusal of an operation (what: "fiat withdrawal")
// that needs amount of asset from profile, under the store's lock: the
// published insufficient-funds problem when a balance is set and holds
// less, else nil.
func (st *store) lackOfFunds(profile, asset string, amount decimal.Decimal, what string) *Problem {
	have, ok := st.balances[keyOf(profile, asset)]
	if !ok || !amount.GreaterThan(have) {
		return nil
	}
	return &Problem{
		Type: problemTypeBase + "insufficient-funds", Title: "Forbidden", Status: http.StatusForbidden,
		Detail: fmt.Sprintf("insufficient funds: profile %s has %s %s available, the %s needs %s %s",
			profile, have, asset, what, amount, asset),
	}
}

// moveBalance adds delta (negative for a debit) to the balance of profile
// in asset, under the store's lock, when one is set; a balance that is not
// set stays unset. It reports whether one was set.
func (st *store) moveBalance(profile, asset string, delta decimal.Decimal) bool {
	k := keyOf(profile, asset)
	have, ok := st.balances[k]
	if ok {
		st.balances[k] = have.Add(delta)
	}
	return ok
}

// ProfileBalance is an item of GET /profiles/{id}/balances.
type ProfileBalance struct {
	Asset     string `json:"asset"`
	Available string `json:"available"`
	Trading   string `json:"trading"`
}

// ProfileBalances is the answer of GET /profiles/{id}/balances.
type ProfileBalances struct {
	Items []ProfileBalance `json:"items"`
}

// handleGetProfileBalances answers the balances set for the profile id
// (SetBalance), by asset; trading is always "0". A profile without any
// balance set answers an empty list: the emulator knows every profile id.
func (s *Server) handleGetProfileBalances(w http.ResponseWriter, _ *http.Request, id string) {
	out := ProfileBalances{Items: []ProfileBalance{}}
	for _, b := range s.Balances() {
		if b.ProfileID == id {
			out.Items = append(out.Items, ProfileBalance{Asset: b.Asset, Available: b.Available, Trading: "0"})
		}
	}
	writeJSON(w, http.StatusOK, out)
}
