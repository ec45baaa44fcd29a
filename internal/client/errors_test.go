package client

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

func TestErrorMapping(t *testing.T) {
	sentinels := []error{ErrNotFound, ErrNoSuchOperation, ErrUnauthorized, ErrForbidden, ErrConflict, ErrValidation, ErrRateLimited, ErrServer}
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
		header      map[string]string
		want        error
		wantMsg     string // exact Error() of the operation below
	}{
		{"404 not-found problem", 404, "application/json", `{"type":"about:blank","title":"Not Found","status":404,"detail":"instructions not found"}`, nil, ErrNotFound,
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
		{"405 no such operation", 405, "application/json", `{"message":"nope"}`, nil, ErrNoSuchOperation,
			"POST /transfer/crypto-withdrawals: 405 Method Not Allowed: nope; the service has no operation " +
				"POST {server}/v2/transfer/crypto-withdrawals at this address: check base_url (PLATFORM_BASE_URL, " +
				"the API's address ending in /v2)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, c := answeringClient(t, tc.status, tc.header, tc.contentType, tc.body)
			_, err := c.CreateCryptoWithdrawal(t.Context(), CryptoWithdrawalRequest{ProfileID: "p"})
			if err == nil {
				t.Fatal("no error")
			}
			if want := strings.ReplaceAll(tc.wantMsg, "{server}", f.srv.URL); err.Error() != want {
				t.Errorf("Error() = %q\nwant      %q", err, want)
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

// TestNotFoundOrNoSuchOperation: on an object's own read, a 404 is "this
// object does not exist" (ErrNotFound) when its body is an error answer of
// the API, a problem or an error {code, message}, whatever its type URI or
// code; every other 404 (a body that is not the API's), and every 405,
// says that nothing answers the method and URL (ErrNoSuchOperation), with
// the URL and the setting to check.
func TestNotFoundOrNoSuchOperation(t *testing.T) {
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
		want        error
	}{
		{"reference problem", 404, "application/json",
			`{"type":"about:blank","title":"Not Found","status":404,"detail":"transfer not found"}`, ErrNotFound},
		{"reference problem, problem+json", 404, "application/problem+json",
			`{"type":"about:blank","title":"Not Found","status":404,"detail":"profile not found: b7b77d82"}`, ErrNotFound},
		{"reference problem without detail", 404, "application/json",
			`{"status":404,"title":"Not Found","type":"about:blank"}`, ErrNotFound},
		{"problem type not-found", 404, "application/problem+json",
			`{"type":"https://api.platform.example/problems/not-found","title":"Not Found","status":404,"detail":"transfer x not found"}`, ErrNotFound},
		{"code NOT_FOUND", 404, "application/json", `{"code":"NOT_FOUND","message":"transfer x not found"}`, ErrNotFound},
		{"plain message", 404, "application/json", `{"message":"no route matches GET /v2/transfer/transfers/t-1"}`, ErrNoSuchOperation},
		{"another code", 404, "application/json", `{"code":"NO_ROUTE","message":"unknown path"}`, ErrNotFound},
		{"problem of another type", 404, "application/problem+json",
			`{"type":"https://gateway.example/problems/no-route","title":"Not Found","status":404}`, ErrNotFound},
		{"problem type outside /problems/", 404, "application/problem+json",
			`{"type":"https://errors.platform.example/not-found","title":"Not Found","status":404,"detail":"transfer t-1 not found"}`, ErrNotFound},
		{"problem without status", 404, "application/json",
			`{"type":"https://errors.platform.example/missing","detail":"no such transfer"}`, ErrNotFound},
		{"about:blank with another title", 404, "application/json",
			`{"type":"about:blank","title":"No Route","status":404}`, ErrNotFound},
		{"framework error page", 404, "application/json",
			`{"timestamp":"2026-01-01T00:00:00Z","status":404,"error":"Not Found","path":"/v2/transfer/transfers/t-1"}`, ErrNoSuchOperation},
		{"problem with a numeric title", 404, "application/json", `{"type":"about:blank","title":404,"status":404}`, ErrNoSuchOperation},
		{"code without message", 404, "application/json", `{"code":"NOT_FOUND"}`, ErrNoSuchOperation},
		{"problem of another status", 404, "application/json",
			`{"type":"about:blank","title":"Not Found","status":400}`, ErrNoSuchOperation},
		{"title alone", 404, "application/json", `{"title":"Not Found"}`, ErrNoSuchOperation},
		{"error key", 404, "application/json", `{"error":"Not Found"}`, ErrNoSuchOperation},
		{"plain text", 404, "text/plain", "404 page not found\n", ErrNoSuchOperation},
		{"HTML", 404, "text/html", "<html><body><h1>Not Found</h1></body></html>", ErrNoSuchOperation},
		{"empty", 404, "", "", ErrNoSuchOperation},
		{"JSON array", 404, "application/json", `[{"code":"NOT_FOUND"}]`, ErrNoSuchOperation},
		{"405 with the not-found problem", 405, "application/json",
			`{"type":"about:blank","title":"Not Found","status":404}`, ErrNoSuchOperation},
		{"405 empty", 405, "", "", ErrNoSuchOperation},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, c := answeringClient(t, tc.status, nil, tc.contentType, tc.body)
			_, err := c.GetTransfer(t.Context(), "t-1")
			if err == nil {
				t.Fatal("no error")
			}
			notFound, noOp := errors.Is(tc.want, ErrNotFound), errors.Is(tc.want, ErrNoSuchOperation)
			if errors.Is(err, ErrNotFound) != notFound || IsNotFound(err) != notFound {
				t.Errorf("ErrNotFound = %v, want %v: %v", errors.Is(err, ErrNotFound), notFound, err)
			}
			if errors.Is(err, ErrNoSuchOperation) != noOp || IsNoSuchOperation(err) != noOp {
				t.Errorf("ErrNoSuchOperation = %v, want %v: %v", errors.Is(err, ErrNoSuchOperation), noOp, err)
			}
			msg := err.Error()
			hint := "the service has no operation GET " + f.srv.URL + "/v2/transfer/transfers/t-1 at this address: check base_url (PLATFORM_BASE_URL"
			if strings.Contains(msg, hint) != noOp {
				t.Errorf("Error() = %q; naming the URL and base_url: %v", msg, noOp)
			}
			for _, wrong := range []string{"scope", "deleted", "gone"} {
				if strings.Contains(strings.ToLower(msg), wrong) {
					t.Errorf("Error() = %q mentions %q", msg, wrong)
				}
			}
		})
	}
}

// TestListNotFoundIsNeverGone: a list's path names no object, so no 404 of
// a list is ErrNotFound. A 404 or 405 in the API's words is the service
// saying that it does not offer the list (OperationNotOffered); one that
// is not the API's (a gateway's page) says nothing of the service, and is
// only ErrNoSuchOperation.
func TestListNotFoundIsNeverGone(t *testing.T) {
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
		offered     bool
	}{
		{"reference problem", 404, "application/problem+json",
			`{"type":"about:blank","title":"Not Found","status":404,"detail":"no such route"}`, false},
		{"problem of any type", 404, "application/problem+json",
			`{"type":"https://errors.platform.example/not-found","title":"Not Found","status":404}`, false},
		{"code and message", 404, "application/json", `{"code":"NOT_FOUND","message":"no such list"}`, false},
		{"405 code and message", 405, "application/json", `{"code":"METHOD_NOT_ALLOWED","message":"use POST"}`, false},
		{"HTML page", 404, "text/html", "<html><body><h1>404 Not Found</h1><hr>nginx</body></html>", true},
		{"405 HTML page", 405, "text/html", "<html><body>405 Not Allowed</body></html>", true},
		{"plain text", 404, "text/plain", "404 page not found\n", true},
		{"empty", 404, "", "", true},
		{"gateway JSON", 404, "application/json", `{"message":"no Route matched with those values"}`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, c := answeringClient(t, tc.status, nil, tc.contentType, tc.body)
			var err error
			for _, e := range c.Transfers(t.Context(), ListTransfersQuery{RefIDs: []string{"r-1"}}) {
				if e != nil {
					err = e
					break
				}
			}
			if err == nil {
				t.Fatal("no error")
			}
			if errors.Is(err, ErrNotFound) || IsNotFound(err) {
				t.Errorf("a list's %d is ErrNotFound: %v", tc.status, err)
			}
			if !IsNoSuchOperation(err) {
				t.Errorf("a list's %d is not ErrNoSuchOperation: %v", tc.status, err)
			}
			// offered: the answer is not the service's, so it does not say
			// the service lacks the list.
			if IsOperationNotOffered(err) == tc.offered {
				t.Errorf("OperationNotOffered = %v, want %v: %v", IsOperationNotOffered(err), !tc.offered, err)
			}
		})
	}
}

// TestNoSuchOperationURLWithoutSecrets: the URL an error names has no query
// and no user information.
func TestNoSuchOperationURLWithoutSecrets(t *testing.T) {
	if got := addressOf("https://user:pw@api.example/v1/transfer/transfers?ref_ids=a&ids=b#x"); got != "https://api.example/v1/transfer/transfers" {
		t.Errorf("addressOf = %q", got)
	}
}

// TestTokenEndpointNoSuchOperation: a 404 of the token endpoint is an
// address that issues no tokens (check auth_url), never rejected
// credentials, whatever its body.
func TestTokenEndpointNoSuchOperation(t *testing.T) {
	f := newFake(t)
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.AuthURL = f.srv.URL + "/nowhere"; cfg.MaxRetries = 0 })
	_, err := c.GetTransfer(t.Context(), "t-1")
	if err == nil {
		t.Fatal("no error")
	}
	if !IsNoSuchOperation(err) || CredentialsRejected(err) || errors.Is(err, ErrNotFound) {
		t.Errorf("token 404: no such operation %v, credentials rejected %v: %v", IsNoSuchOperation(err), CredentialsRejected(err), err)
	}
	if msg := err.Error(); !strings.Contains(msg, "POST "+f.srv.URL+"/nowhere/oauth2/token at this address: check auth_url (PLATFORM_AUTH_URL)") {
		t.Errorf("Error() = %q", msg)
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

// answeringClient is a fake service that answers every API request with
// status, header, contentType (no Content-Type when empty) and body, and a
// client of it that does not retry.
func answeringClient(t *testing.T, status int, header map[string]string, contentType, body string) (*fakeService, *Client) {
	t.Helper()
	f := newFake(t)
	f.handler = func(w http.ResponseWriter, _ *http.Request, _ int, _ apiRequest) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		} else {
			w.Header()["Content-Type"] = nil
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.MaxRetries = 0 })
	return f, c
}
