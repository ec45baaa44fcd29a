package emulator

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestCreateDepositAddress(t *testing.T) {
	e := newEnv(t, Options{DepositAddresses: 3})
	seeded := e.s.DepositAddresses()
	r := e.post(depositAddressesPath, map[string]any{
		"profile_id": "p-1", "crypto_network": "ETHEREUM", "identity_id": "i-1", "account_id": "a-1",
		"ref_id": "da-1", "metadata": map[string]string{"purpose": "test"},
	})
	e.wantStatus(r, http.StatusOK)
	var d DepositAddress
	r.decode(t, &d)
	if !regexp.MustCompile(`^0x[0-9a-f]{40}$`).MatchString(d.Address) {
		t.Errorf("address %q is not an EVM address", d.Address)
	}
	if want := []string{"ETHEREUM", "POLYGON_POS", "BASE", "ARBITRUM_ONE", "INK", "XLAYER"}; !slices.Equal(d.CompatibleCryptoNetworks, want) {
		t.Errorf("compatible_crypto_networks %v, want %v", d.CompatibleCryptoNetworks, want)
	}
	if d.ProfileID != "p-1" || d.CustomerID != e.s.CustomerID() || *d.IdentityID != "i-1" || d.AccountID != "a-1" ||
		*d.RefID != "da-1" || d.Metadata["purpose"] != "test" || *d.ConversionTargetAsset != "NO_CONVERSION" ||
		d.CreatedAt.IsZero() {
		t.Errorf("answer %s", r.body)
	}

	// The address is listed after the seeded ones, by id and by ref_id.
	all := e.s.DepositAddresses()
	if len(all) != len(seeded)+1 || all[len(seeded)].ID != d.ID {
		t.Fatalf("DepositAddresses() = %d items, want the 3 seeded and %s", len(all), d.ID)
	}
	for _, q := range []string{"?ids=" + d.ID, "?ref_ids=da-1", "?order=ASC&limit=1&networks=ETHEREUM&profile_ids=p-1"} {
		var page struct{ Items []DepositAddress }
		l := e.get(depositAddressesPath + q)
		e.wantStatus(l, http.StatusOK)
		l.decode(t, &page)
		if len(page.Items) != 1 || page.Items[0].ID != d.ID || page.Items[0].Address != d.Address {
			t.Errorf("list %s: %s", q, l.body)
		}
	}
	var page struct{ Items []DepositAddress }
	l := e.get(depositAddressesPath)
	l.decode(t, &page)
	if len(page.Items) != 4 || page.Items[0].ID != d.ID {
		t.Errorf("the newest first: %s", l.body)
	}

	// A repeated ref_id, with the same or another body: 409 with the
	// address made first; nothing is made.
	for _, network := range []string{"ETHEREUM", "SOLANA"} {
		again := e.post(depositAddressesPath, map[string]any{"profile_id": "p-1", "crypto_network": network, "ref_id": "da-1"})
		p, existing := alreadyExists[DepositAddress](t, e, again)
		if p.Detail != "deposit address already exists with ref_id 'da-1'" ||
			existing.ID != d.ID || existing.Address != d.Address || !existing.CreatedAt.Equal(d.CreatedAt) {
			t.Errorf("replay answer %s", again.body)
		}
	}
	// A seeded address's ref_id is taken too.
	if ref := seeded[0].RefID; ref != nil {
		again := e.post(depositAddressesPath, map[string]any{"profile_id": "p-1", "crypto_network": "BITCOIN", "ref_id": *ref})
		e.wantStatus(again, http.StatusConflict)
	}
	if n := len(e.s.DepositAddresses()); n != 4 {
		t.Fatalf("%d addresses after replays, want 4", n)
	}
	if n := e.s.Counters.Requests("POST " + depositAddressesPath); n < 3 {
		t.Errorf("counter of creates %d", n)
	}
}

func TestCreateDepositAddressNetworks(t *testing.T) {
	e := newEnv(t, Options{})
	cases := map[string]struct {
		pattern    string
		compatible []string
	}{
		"BITCOIN":   {`^bc1q[0-9a-z]{38}$`, []string{"BITCOIN"}},
		"SOLANA":    {`^[1-9A-HJ-NP-Za-km-z]{44}$`, []string{"SOLANA"}},
		"BASE":      {`^0x[0-9a-f]{40}$`, evmFamily},
		"AVALANCHE": {`^0x[0-9a-f]{40}$`, []string{"AVALANCHE"}},
		"DOGECOIN":  {`^D[1-9A-HJ-NP-Za-km-z]{33}$`, []string{"DOGECOIN"}},
		"SUI":       {`^0x[0-9a-f]{64}$`, []string{"SUI"}},
		"STELLAR":   {`^G[0-9A-Z]{55}$`, []string{"STELLAR"}},
	}
	for network, c := range cases {
		r := e.post(depositAddressesPath, map[string]any{"profile_id": "p", "crypto_network": network, "conversion_target_asset": "USD"})
		e.wantStatus(r, http.StatusOK)
		var d DepositAddress
		r.decode(t, &d)
		if !regexp.MustCompile(c.pattern).MatchString(d.Address) || !slices.Equal(d.CompatibleCryptoNetworks, c.compatible) ||
			*d.ConversionTargetAsset != "USD" || d.RefID != nil || d.AccountID != "" {
			t.Errorf("%s: %s", network, r.body)
		}
		if strings.Contains(string(r.body), `"account_id"`) {
			t.Errorf("%s: account_id answered though none was asked: %s", network, r.body)
		}
	}
}

func TestCreateDepositAddressRejects(t *testing.T) {
	e := newEnv(t, Options{})
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"crypto_network": "ETHEREUM"}, "profile_id"},
		{map[string]any{"profile_id": "p"}, "crypto_network"},
		{map[string]any{"profile_id": "p", "crypto_network": "DOGE"}, "crypto_network"},
		{map[string]any{"profile_id": "p", "crypto_network": "BASE", "conversion_target_asset": "EUR"}, "conversion_target_asset"},
		{map[string]any{"profile_id": "p", "crypto_network": "BASE", "metadata": map[string]string{
			"a": "1", "b": "2", "c": "3", "d": "4", "e": "5", "f": "6", "g": "7"}}, "metadata"},
		{map[string]any{"profile_id": "p", "crypto_network": "BASE", "nickname": "x"}, "nickname"},
	} {
		r := e.post(depositAddressesPath, c.body)
		e.wantStatus(r, http.StatusBadRequest)
		if b := r.errBody(t); b.Code != "INVALID_ARGUMENT" || b.Field != c.field {
			t.Errorf("%v: %+v", c.body, b)
		}
	}
	// The write scope is the create's; the read scope does not do.
	r := e.call(http.MethodPost, depositAddressesPath, e.tokenFor("transfer:read_deposit_address"),
		map[string]any{"profile_id": "p", "crypto_network": "BASE"})
	e.wantStatus(r, http.StatusForbidden)
	r = e.call(http.MethodPost, depositAddressesPath, e.tokenFor("transfer:write_deposit_address"),
		map[string]any{"profile_id": "p", "crypto_network": "BASE"})
	e.wantStatus(r, http.StatusOK)
	if n := len(e.s.DepositAddresses()); n != 1 {
		t.Errorf("%d addresses, want 1", n)
	}
}
