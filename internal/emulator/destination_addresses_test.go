package emulator

import (
	"net/http"
	"net/url"
	"slices"
	"testing"
)

const (
	destPutPath  = "/v2/transfer/crypto-destination-address"
	destListPath = "/v2/transfer/crypto-destination-addresses"
	evmAddr      = "0xe4b0ACa9Fb669817775274775b20e52118595515"
)

func (e *env) put(path string, body any) response {
	return e.call(http.MethodPut, path, e.token, body)
}

// putAddress PUTs body and returns the answered address.
func (e *env) putAddress(body any) CryptoDestinationAddress {
	e.t.Helper()
	r := e.put(destPutPath, body)
	e.wantStatus(r, http.StatusOK)
	var out struct {
		Address CryptoDestinationAddress `json:"address"`
	}
	r.decode(e.t, &out)
	return out.Address
}

// listAddresses reads every page of the list with query and returns the
// ids, the number of pages and the last answer.
func (e *env) listAddresses(query url.Values) (ids []string, pages int) {
	e.t.Helper()
	for {
		r := e.get(destListPath + "?" + query.Encode())
		e.wantStatus(r, http.StatusOK)
		var p struct {
			Addresses      []CryptoDestinationAddress `json:"addresses"`
			NextPageCursor *string                    `json:"next_page_cursor"`
			Items          []any                      `json:"items"`
		}
		r.decode(e.t, &p)
		if p.Items != nil || p.NextPageCursor == nil {
			e.t.Fatalf("answer %s is not {addresses, next_page_cursor}", r.body)
		}
		pages++
		for _, a := range p.Addresses {
			ids = append(ids, a.ID)
		}
		if *p.NextPageCursor == "" {
			return ids, pages
		}
		query.Set("page_cursor", *p.NextPageCursor)
	}
}

func TestDestinationAddressUpsert(t *testing.T) {
	e := newEnv(t, Options{})
	made := e.putAddress(map[string]any{"crypto_network": "ETHEREUM", "address": evmAddr})
	if made.ID == "" || made.Status != "PENDING" || made.Bookmarked || made.PolicyExecutionID == "" ||
		made.Nickname != "ethereum-595515" || made.IdentityID != nil || made.CreatedAt.IsZero() || made.TravelruleMetadata != nil {
		t.Fatalf("new address = %+v, want PENDING, not bookmarked, nickname ethereum-595515, a policy execution", made)
	}
	// The same tuple again updates it in place.
	again := e.putAddress(map[string]any{"crypto_network": "ETHEREUM", "address": evmAddr, "nickname": "treasury"})
	if again.ID != made.ID || again.Nickname != "treasury" || !again.CreatedAt.Equal(made.CreatedAt) {
		t.Fatalf("PUT of the same tuple = %+v, want %s renamed treasury", again, made.ID)
	}
	// Another identity is another entry.
	scoped := e.putAddress(map[string]any{"crypto_network": "ETHEREUM", "address": evmAddr, "identity_id": "idn-1"})
	if scoped.ID == made.ID || scoped.IdentityID == nil || *scoped.IdentityID != "idn-1" {
		t.Fatalf("PUT with identity_id = %+v, want a new entry scoped to idn-1", scoped)
	}
	// By id: bookmarked and Travel Rule data.
	upd := e.putAddress(map[string]any{"id": made.ID, "bookmarked_status": true, "travelrule_metadata": map[string]any{
		"custodian_type": "VASP", "transfer_purpose": "payroll",
		"vasp":        map[string]any{"id": "vasp-7"},
		"beneficiary": map[string]any{"institution_details": map[string]any{"name": "Acme", "physical_address": map[string]any{"country": "USA"}}},
	}})
	tr := upd.TravelruleMetadata
	if upd.ID != made.ID || !upd.Bookmarked || upd.Nickname != "treasury" || tr == nil || tr.CustodianType != "VASP" ||
		tr.Vasp == nil || tr.Vasp.ID != "vasp-7" || tr.Vasp.Name != "Known VASP vasp-7" ||
		tr.Beneficiary == nil || tr.Beneficiary.InstitutionDetails == nil || tr.Beneficiary.InstitutionDetails.Name != "Acme" {
		t.Fatalf("PUT by id = %+v (travel rule %+v), want bookmarked, VASP vasp-7, Acme", upd, tr)
	}
	if got := e.s.CryptoDestinationAddresses(); len(got) != 2 {
		t.Fatalf("the book holds %d addresses, want 2", len(got))
	}

	// The admin switch.
	r := e.call(http.MethodPost, "/admin/crypto-destination-addresses/"+made.ID+"/status", "", map[string]string{"status": "APPROVED"})
	e.wantStatus(r, http.StatusOK)
	var approved CryptoDestinationAddress
	r.decode(t, &approved)
	if approved.Status != "APPROVED" || approved.ID != made.ID {
		t.Fatalf("admin answer %+v, want %s APPROVED", approved, made.ID)
	}
	e.wantStatus(e.call(http.MethodPost, "/admin/crypto-destination-addresses/"+made.ID+"/status", "", map[string]string{"status": "DONE"}), http.StatusBadRequest)
	e.wantStatus(e.call(http.MethodPost, "/admin/crypto-destination-addresses/nope/status", "", map[string]string{"status": "REJECTED"}), http.StatusNotFound)
	if !e.s.SetCryptoDestinationAddressStatus(scoped.ID, "REJECTED") || e.s.SetCryptoDestinationAddressStatus(scoped.ID, "DONE") {
		t.Fatal("SetCryptoDestinationAddressStatus: want true for REJECTED, false for DONE")
	}
	ids, _ := e.listAddresses(url.Values{"ids": {made.ID, scoped.ID}, "order": {"ASC"}})
	if !slices.Equal(ids, []string{made.ID, scoped.ID}) {
		t.Fatalf("listed %v", ids)
	}
	if a := e.s.CryptoDestinationAddresses(); a[0].Status != "APPROVED" || a[1].Status != "REJECTED" {
		t.Fatalf("statuses %s, %s; want APPROVED, REJECTED", a[0].Status, a[1].Status)
	}
}

func TestDestinationAddressDefaultStatusOption(t *testing.T) {
	e := newEnv(t, Options{CryptoDestinationAddressStatus: "APPROVED"})
	if a := e.putAddress(map[string]any{"crypto_network": "BITCOIN", "address": "bc1qexample"}); a.Status != "APPROVED" {
		t.Fatalf("status %s, want APPROVED", a.Status)
	}
}

func TestDestinationAddressValidation(t *testing.T) {
	e := newEnv(t, Options{})
	known := e.putAddress(map[string]any{"crypto_network": "SOLANA", "address": "So1anaAddress"})
	for _, c := range []struct {
		name  string
		body  string
		field string
	}{
		{"id and tuple", `{"id":"` + known.ID + `","crypto_network":"SOLANA","address":"So1anaAddress"}`, "id"},
		{"id and identity", `{"id":"` + known.ID + `","identity_id":"i"}`, "id"},
		{"no network", `{"address":"x"}`, "crypto_network"},
		{"no address", `{"crypto_network":"BITCOIN"}`, "address"},
		{"unknown network", `{"crypto_network":"DOGE","address":"x"}`, "crypto_network"},
		{"EVM shape", `{"crypto_network":"BASE","address":"0x12"}`, "address"},
		{"whitespace", `{"crypto_network":"BITCOIN","address":"bc1 q"}`, "address"},
		{"empty identity", `{"crypto_network":"BITCOIN","address":"bc1q","identity_id":""}`, "identity_id"},
		{"empty nickname", `{"crypto_network":"BITCOIN","address":"bc1q","nickname":" "}`, "nickname"},
		{"custodian", `{"id":"` + known.ID + `","travelrule_metadata":{"custodian_type":"BANK"}}`, "travelrule_metadata.custodian_type"},
		{"vasp both", `{"id":"` + known.ID + `","travelrule_metadata":{"vasp":{"id":"v","custom_vasp_name":"n"}}}`, "travelrule_metadata.vasp"},
		{"vasp website", `{"id":"` + known.ID + `","travelrule_metadata":{"vasp":{"custom_vasp_name":"n"}}}`, "travelrule_metadata.vasp.custom_vasp_website"},
		{"vasp name", `{"id":"` + known.ID + `","travelrule_metadata":{"vasp":{"name":"n"}}}`, "name"},
		{"person", `{"id":"` + known.ID + `","travelrule_metadata":{"beneficiary":{"person_details":{"first_name":"A"}}}}`, "travelrule_metadata.beneficiary.person_details.last_name"},
		{"self and person", `{"id":"` + known.ID + `","travelrule_metadata":{"beneficiary":{"self":true,"person_details":{"first_name":"A","last_name":"B"}}}}`, "travelrule_metadata.beneficiary"},
		{"country", `{"id":"` + known.ID + `","travelrule_metadata":{"beneficiary":{"institution_details":{"name":"A","physical_address":{"country":"US"}}}}}`, "travelrule_metadata.beneficiary.institution_details.physical_address.country"},
		{"unknown field", `{"crypto_network":"BITCOIN","address":"bc1q","bookmarked":true}`, "bookmarked"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := e.put(destPutPath, c.body)
			e.wantStatus(r, http.StatusBadRequest)
			if b := r.errBody(t); b.Field != c.field {
				t.Errorf("field %q, want %q (%s)", b.Field, c.field, b.Message)
			}
		})
	}
	e.wantStatus(e.put(destPutPath, `{"id":"unknown","nickname":"n"}`), http.StatusNotFound)
	if n := len(e.s.CryptoDestinationAddresses()); n != 1 {
		t.Errorf("the book holds %d addresses after refused PUTs, want 1", n)
	}

	// Scopes: each operation needs its own.
	read := e.tokenFor("transfer:read_crypto_destination_address")
	write := e.tokenFor("transfer:write_crypto_destination_address")
	e.wantStatus(e.call(http.MethodPut, destPutPath, read, `{"crypto_network":"BITCOIN","address":"bc1q"}`), http.StatusForbidden)
	e.wantStatus(e.call(http.MethodGet, destListPath, write, nil), http.StatusForbidden)
	e.wantStatus(e.call(http.MethodPost, destPutPath, write, `{}`), http.StatusMethodNotAllowed)
	e.wantStatus(e.get(destListPath+"?crypto_networks=DOGE"), http.StatusBadRequest)
	e.wantStatus(e.get(destListPath+"?bookmarked_status=yes"), http.StatusBadRequest)
	e.wantStatus(e.get(destListPath+"?limit=1001"), http.StatusBadRequest)
}

func TestListDestinationAddresses(t *testing.T) {
	e := newEnv(t, Options{CryptoDestinationAddresses: 250})
	all := e.s.CryptoDestinationAddresses()
	added := e.putAddress(map[string]any{"crypto_network": "ETHEREUM", "address": evmAddr, "bookmarked_status": true})
	all = append(all, added)
	id := func(a *CryptoDestinationAddress) string { return a.ID }

	ids, pages := e.listAddresses(url.Values{"limit": {"100"}})
	if want := expected(all, true, func(*CryptoDestinationAddress) bool { return true }, id); !slices.Equal(ids, want) || pages != 3 {
		t.Fatalf("listed %d in %d pages, want all %d newest first in 3 pages", len(ids), pages, len(want))
	}
	eth := func(a *CryptoDestinationAddress) bool { return a.CryptoNetwork == "ETHEREUM" }
	ids, _ = e.listAddresses(url.Values{"crypto_networks": {"ETHEREUM"}, "order": {"ASC"}, "limit": {"7"}})
	if want := expected(all, false, eth, id); !slices.Equal(ids, want) || len(want) < 10 {
		t.Fatalf("ETHEREUM: listed %d, want %d", len(ids), len(want))
	}
	bookmarked := func(a *CryptoDestinationAddress) bool { return a.Bookmarked }
	ids, _ = e.listAddresses(url.Values{"bookmarked_status": {"true"}})
	if want := expected(all, true, bookmarked, id); !slices.Equal(ids, want) || len(want) < 10 {
		t.Fatalf("bookmarked: listed %d, want %d", len(ids), len(want))
	}
	ids, _ = e.listAddresses(url.Values{"bookmarked_status": {"false"}})
	if want := expected(all, true, func(a *CryptoDestinationAddress) bool { return !a.Bookmarked }, id); !slices.Equal(ids, want) {
		t.Fatalf("not bookmarked: listed %d, want %d", len(ids), len(want))
	}
	ids, _ = e.listAddresses(url.Values{"addresses": {evmAddr, all[3].Address}, "crypto_networks": {"ETHEREUM", all[3].CryptoNetwork}})
	if want := []string{added.ID, all[3].ID}; !slices.Equal(ids, want) {
		t.Fatalf("by address: listed %v, want %v", ids, want)
	}
	var identity string
	for _, a := range all {
		if a.IdentityID != nil {
			identity = *a.IdentityID
			break
		}
	}
	ids, _ = e.listAddresses(url.Values{"identity_ids": {identity}})
	scoped := func(a *CryptoDestinationAddress) bool { return a.IdentityID != nil && *a.IdentityID == identity }
	if want := expected(all, true, scoped, id); !slices.Equal(ids, want) || len(want) < 10 {
		t.Fatalf("identity: listed %d, want %d", len(ids), len(want))
	}
	ids, _ = e.listAddresses(url.Values{"nicknames": {all[10].Nickname}, "created_at.lte": {all[10].CreatedAt.Format("2006-01-02T15:04:05Z07:00")}})
	if !slices.Contains(ids, all[10].ID) {
		t.Fatalf("by nickname: listed %v, want %s among them", ids, all[10].ID)
	}
	// A cursor binds to its filters.
	r := e.get(destListPath + "?limit=1")
	var p struct {
		NextPageCursor string `json:"next_page_cursor"`
	}
	r.decode(t, &p)
	e.wantStatus(e.get(destListPath+"?limit=1&crypto_networks=BITCOIN&page_cursor="+p.NextPageCursor), http.StatusBadRequest)
	e.wantStatus(e.get(depositAddressesPath+"?page_cursor="+p.NextPageCursor), http.StatusBadRequest)
}
