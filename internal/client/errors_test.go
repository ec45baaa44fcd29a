package client

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

func TestErrorMapping(t *testing.T) {
	sentinels := []error{ErrNotFound, ErrUnauthorized, ErrForbidden, ErrConflict, ErrValidation, ErrRateLimited, ErrServer}
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
		header      map[string]string
		want        error
		wantMsg     string // exact Error() of the operation below
	}{
		{"404 message", 404, "application/json", `{"message":"instructions not found"}`, nil, ErrNotFound,
			"POST /transfer/crypto-withdrawals: 404 Not Found: instructions not found"},
		{"409 with code and request id", 409, "application/json", `{"code":"DUPLICATE","message":"ref_id already used","request_id":"abc"}`, nil, ErrConflict,
			"POST /transfer/crypto-withdrawals: 409 Conflict: DUPLICATE: ref_id already used (request id abc)"},
		{"409 request id header wins", 409, "application/json", `{"message":"dup","request_id":"body-id"}`, map[string]string{"X-Request-Id": "hdr-id"}, ErrConflict,
			"POST /transfer/crypto-withdrawals: 409 Conflict: dup (request id hdr-id)"},
		{"400 nested error object", 400, "application/json", `{"error":{"code":"INVALID_AMOUNT","message":"amount and total are exclusive"}}`, nil, ErrValidation,
			"POST /transfer/crypto-withdrawals: 400 Bad Request: INVALID_AMOUNT: amount and total are exclusive"},
		{"422 errors array", 422, "application/json", `{"errors":[{"field":"amount","message":"bad pattern"},{"detail":"metadata too long"}]}`, nil, ErrValidation,
			"POST /transfer/crypto-withdrawals: 422 Unprocessable Entity: amount: bad pattern; metadata too long"},
		{"400 field errors map", 400, "application/json", `{"errors":{"total":["required"],"asset":"unknown"}}`, nil, ErrValidation,
			"POST /transfer/crypto-withdrawals: 400 Bad Request: asset: unknown; total: required"},
		{"400 problem json", 400, "application/problem+json", `{"type":"about:blank","title":"Bad Request","detail":"crypto_network is required"}`, nil, ErrValidation,
			"POST /transfer/crypto-withdrawals: 400 Bad Request: crypto_network is required"},
		{"401 oauth style", 401, "application/json", `{"error":"invalid_token","error_description":"token expired"}`, nil, ErrUnauthorized,
			"POST /transfer/crypto-withdrawals: 401 Unauthorized: invalid_token: token expired; the access token was rejected even after renewing it"},
		{"403 names the scope", 403, "application/json", `{"message":"missing scope"}`, nil, ErrForbidden,
			`POST /transfer/crypto-withdrawals: 403 Forbidden: missing scope; the operation needs a token with the OAuth scope "transfer:write_crypto_withdrawal" granted to these client credentials`},
		{"403 permission problem names the scope", 403, "application/problem+json",
			`{"type":"https://api.example/problems/permission-denied","title":"Forbidden","status":403,"detail":"token lacks the required scope"}`, nil, ErrForbidden,
			`POST /transfer/crypto-withdrawals: 403 Forbidden: permission-denied: token lacks the required scope; the operation needs a token with the OAuth scope "transfer:write_crypto_withdrawal" granted to these client credentials`},
		{"403 insufficient funds says only what the body says", 403, "application/problem+json",
			`{"type":"https://api.example/problems/insufficient-funds","title":"Forbidden","status":403,"detail":"balance too low"}`, nil, ErrForbidden,
			`POST /transfer/crypto-withdrawals: 403 Forbidden: insufficient-funds: balance too low`},
		{"403 expired fee quote", 403, "application/problem+json",
			`{"type":"https://api.example/problems/fee-expired","title":"Forbidden","status":403,"detail":"fee quote fee-1 expired"}`, nil, ErrForbidden,
			`POST /transfer/crypto-withdrawals: 403 Forbidden: fee-expired: fee quote fee-1 expired`},
		{"429 plain text", 429, "text/plain", "  too many\n requests  ", nil, ErrRateLimited,
			"POST /transfer/crypto-withdrawals: 429 Too Many Requests: too many requests; the service throttles this " +
				"address for up to 5 minutes once its rate limit is exceeded (per endpoint and IP, averaged over 5 " +
				"minutes: 1 request/s to the token endpoint, 20/s to crypto withdrawals, 50/s elsewhere), so the " +
				"request was not retried; apply again after that"},
		{"500 html page", 500, "text/html", "<!DOCTYPE html><html><body><h1>Internal Server Error</h1><p>nginx</p></body></html>", nil, ErrServer,
			"POST /transfer/crypto-withdrawals: 500 Internal Server Error"},
		{"502 html without content type", 502, "", "<html><head><title>502</title></head></html>", nil, ErrServer,
			"POST /transfer/crypto-withdrawals: 502 Bad Gateway"},
		{"500 empty body", 500, "", "", nil, ErrServer,
			"POST /transfer/crypto-withdrawals: 500 Internal Server Error"},
		{"500 json string", 500, "application/json", `"database unavailable"`, nil, ErrServer,
			"POST /transfer/crypto-withdrawals: 500 Internal Server Error: database unavailable"},
		{"405 no sentinel", 405, "application/json", `{"message":"nope"}`, nil, nil,
			"POST /transfer/crypto-withdrawals: 405 Method Not Allowed: nope"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.handler = func(w http.ResponseWriter, _ *http.Request, _ int, _ apiRequest) {
				for k, v := range tc.header {
					w.Header().Set(k, v)
				}
				if tc.contentType != "" {
					w.Header().Set("Content-Type", tc.contentType)
				} else {
					w.Header()["Content-Type"] = nil
				}
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}
			c, _ := newTestClient(t, f, func(cfg *Config) { cfg.MaxRetries = 0 })
			_, err := c.CreateCryptoWithdrawal(t.Context(), CryptoWithdrawalRequest{ProfileID: "p"})
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tc.wantMsg {
				t.Errorf("Error() = %q\nwant      %q", err, tc.wantMsg)
			}
			for _, s := range sentinels {
				if got, want := errors.Is(err, s), tc.want != nil && errors.Is(s, tc.want); got != want {
					t.Errorf("errors.Is(err, %v) = %v", s, got)
				}
			}
			var ae *APIError
			if !errors.As(err, &ae) || ae.Status != tc.status || ae.Scope != ScopeWriteCryptoWithdrawal {
				t.Errorf("APIError = %#v", ae)
			}
		})
	}
}

func TestParseErrorBodyShapes(t *testing.T) {
	long := strings.Repeat("word ", 500)
	tests := []struct {
		body, ct           string
		code, msg, request string
	}{
		{`{"Message":"case insensitive"}`, "", "", "case insensitive", ""},
		{`{"error":"Not Found"}`, "", "", "Not Found", ""},
		{`{"error":"not_found","message":"gone"}`, "", "not_found", "gone", ""},
		{`{"detail":{"message":"nested"},"traceId":"t1"}`, "", "", "nested", "t1"},
		{`["first","second"]`, "", "", "first; second", ""},
		{`{"message":"m","errors":["e1"]}`, "", "", "m (e1)", ""},
		{`{"code":1234,"message":"numeric code"}`, "", "1234", "numeric code", ""},
		{`{"message":"ctl\u0001\u0002 chars\ttab\nnext"}`, "", "", "ctl chars tab next", ""},
		{`{"message":"x"`, "application/json", "", `{"message":"x"`, ""},
		{"\xff\xfe garbage", "", "", "", ""},
		{`{"unknown":"shape"}`, "", "", "", ""},
		{`<?xml version="1.0"?><error>x</error>`, "application/xml", "", `<?xml version="1.0"?><error>x</error>`, ""},
	}
	for _, tc := range tests {
		code, msg, rid := parseErrorBody(tc.ct, []byte(tc.body))
		if code != tc.code || msg != tc.msg || rid != tc.request {
			t.Errorf("parseErrorBody(%q) = %q, %q, %q; want %q, %q, %q", tc.body, code, msg, rid, tc.code, tc.msg, tc.request)
		}
	}
	_, msg, _ := parseErrorBody("text/plain", []byte(long))
	if n := len([]rune(msg)); n > maxMessageLen+1 || !strings.HasSuffix(msg, "…") {
		t.Errorf("long message not capped: %d runes", n)
	}
}

func TestAPIErrorWithoutStatusText(t *testing.T) {
	e := &APIError{Method: "GET", Path: "/x", Status: 599}
	if e.Error() != "GET /x: status 599" || !errors.Is(e, ErrServer) {
		t.Errorf("Error() = %q", e.Error())
	}
}

// The service's text reaches the terminal without control, bidirectional
// or zero-width characters: none of them can hide or reorder what a
// diagnostic shows.
func TestCleanTextDropsInvisibleCharacters(t *testing.T) {
	for _, r := range []rune{'\x1b', '\a', '\u202e', '\u2066', '\u200e', '\u200b', '\u200d', '\u2060', '\ufeff', '\u00ad'} {
		in := "amount " + string(r) + "exceeds"
		if got := cleanText(in, 100); got != "amount exceeds" {
			t.Errorf("cleanText(%q) = %q, want %q", in, got, "amount exceeds")
		}
	}
}
