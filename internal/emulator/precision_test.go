package emulator

import (
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// An amount finer than its asset's smallest unit is refused, as the
// service refuses it: 400 with the published problem exceed-precision,
// nothing made; the finest amount the unit allows (trailing zeros aside)
// is accepted, and an asset without a published unit is not checked.
func TestAmountPrecision(t *testing.T) {
	e := newEnv(t, Options{})
	profile := "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
	withdrawal := func(asset, network, amount string) map[string]any {
		return map[string]any{"profile_id": profile, "destination_address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
			"asset": asset, "crypto_network": network, "amount": amount}
	}
	refused := []struct {
		path  string
		body  map[string]any
		field string
		want  string
	}{
		{"/v2/transfer/crypto-withdrawals", withdrawal("BTC", "BITCOIN", "0.123456789"), "amount", "max precision allowed for asset BTC is 8"},
		{"/v2/transfer/crypto-withdrawals", map[string]any{"profile_id": profile, "destination_address": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
			"asset": "usdc", "crypto_network": "ETHEREUM", "total": "10.0000001"}, "total", "max precision allowed for asset USDC is 6"},
		{"/v2/transfer/internal", map[string]any{"from_profile_id": profile, "to_profile_id": "8c5f7a42-6a9d-4d55-9f4e-0b6d1e1c2a33",
			"asset": "USD", "amount": "1.005"}, "amount", "max precision allowed for asset USD is 2"},
		{"/v2/conversion/stablecoins", map[string]any{"profile_id": profile, "source_asset": "USDC", "target_asset": "USD",
			"amount": "1.1234567"}, "amount", "max precision allowed for asset USDC is 6"},
		{"/v2/sandbox/profiles/" + profile + "/deposit", map[string]any{"asset": "SOL", "amount": "1.0000000001"}, "amount",
			"max precision allowed for asset SOL is 9"},
	}
	for _, c := range refused {
		r := e.post(c.path, c.body)
		e.wantStatus(r, http.StatusBadRequest)
		var p Problem
		r.decode(t, &p)
		if p.Type != problemTypeBase+"exceed-precision" || p.Title != "Exceeds Maximum Precision Allowed" || p.Status != 400 ||
			p.Detail != c.want || p.Meta["field"] != c.field {
			t.Errorf("POST %s %v: problem %+v, want exceed-precision %q on %s", c.path, c.body, p, c.want, c.field)
		}
	}
	if n := len(e.s.Transfers()); n != 0 {
		t.Errorf("the refused requests made %d transfers", n)
	}
	for _, amount := range []string{"0.12345678", "0.123456780", "1"} {
		e.wantStatus(e.post("/v2/transfer/crypto-withdrawals", withdrawal("BTC", "BITCOIN", amount)), http.StatusOK)
	}
	e.wantStatus(e.post("/v2/transfer/crypto-withdrawals", withdrawal("DOGE", "DOGECOIN", "1.123456789012")), http.StatusOK)
}

// goFieldName is how encoding/json names a field that has no json tag: its
// Go name, such as Share or WindowSeconds.
var goFieldName = regexp.MustCompile(`^[A-Z][a-z]+([A-Z][a-z0-9]*)*$`)

// Every answer of the admin API's reads names its fields in snake_case, as
// the guide documents them: a field without a json tag would answer its Go
// name ("Share" for "share").
func TestAdminAnswersSnakeCase(t *testing.T) {
	e := newEnv(t, Options{})
	// Something in every answer.
	e.wantStatus(e.call(http.MethodPut, "/admin/rate-limits", "", map[string]any{"enabled": true, "window_seconds": 30, "share": 0.25}), http.StatusOK)
	e.wantStatus(e.call(http.MethodPut, "/admin/balances", "", map[string]any{"profile_id": "p1", "asset": "BTC", "available": "2"}), http.StatusOK)
	e.wantStatus(e.call(http.MethodPut, "/admin/limits", "", map[string]any{"limits": []map[string]any{{"rule_id": "single-usd",
		"transfer_types": []string{"CRYPTO_WITHDRAWAL"}, "period_seconds": "0", "limit": "30000", "limit_asset": "USD"}}}), http.StatusOK)
	e.wantStatus(e.post("/v2/transfer/crypto-withdrawals", map[string]any{"profile_id": "p1", "asset": "BTC", "crypto_network": "BITCOIN",
		"destination_address": "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "amount": "0.1"}), http.StatusOK)
	read := 0
	for _, route := range AdminRoutes() {
		method, path, _ := strings.Cut(route, " ")
		if method != http.MethodGet || strings.Contains(path, "{") {
			continue
		}
		read++
		r := e.call(http.MethodGet, path, "", nil)
		e.wantStatus(r, http.StatusOK)
		var v any
		r.decode(t, &v)
		var keys []string
		jsonKeys(v, &keys)
		if len(keys) == 0 {
			t.Errorf("GET %s answers no field: %s", path, r.body)
		}
		for _, k := range keys {
			if goFieldName.MatchString(k) {
				t.Errorf("GET %s answers the field %q, a Go name: %s", path, k, r.body)
			}
		}
	}
	if read < 8 {
		t.Errorf("read %d admin answers, want every GET route's", read)
	}
	var st struct {
		Share *float64 `json:"share"`
	}
	r := e.call(http.MethodGet, "/admin/rate-limits", "", nil)
	r.decode(t, &st)
	if st.Share == nil || *st.Share != 0.25 || !strings.Contains(string(r.body), `"share":0.25`) {
		t.Errorf("GET /admin/rate-limits: %s, want \"share\": 0.25", r.body)
	}
}

// jsonKeys collects every object key of v, sorted.
func jsonKeys(v any, keys *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			*keys = append(*keys, k)
			jsonKeys(x, keys)
		}
	case []any:
		for _, x := range v {
			jsonKeys(x, keys)
		}
	}
	sort.Strings(*keys)
}
