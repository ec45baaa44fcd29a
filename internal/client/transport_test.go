package client

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"testing"
)

func TestNoSecretOrTokenInAnyLogLine(t *testing.T) {
	f := newFake(t)
	f.handler = okAfter(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusServiceUnavailable, `{"message":"retry me"}`)
	})
	c, logs := newTestClient(t, f, nil)
	ctx := t.Context()
	if _, err := c.CreateCryptoWithdrawal(ctx, CryptoWithdrawalRequest{ProfileID: "p", RefID: "r"}); err != nil {
		t.Fatal(err)
	}
	if err := drain(c.FiatAccounts(ctx, ListFiatAccountsQuery{})); err != nil {
		t.Fatal(err)
	}
	f.revoke()
	if _, err := c.GetStablecoinConversion(ctx, "conv-1"); err != nil {
		t.Fatal(err)
	}

	var secrets []string
	secrets = append(secrets, testSecret)
	for _, r := range f.apiRequests() {
		secrets = append(secrets, r.Token)
	}
	for i := range f.tokenRequests() {
		secrets = append(secrets, "refresh-"+string(rune('1'+i))+"-zzz")
	}
	entries := logs.all()
	if len(entries) < 10 {
		t.Fatalf("only %d log entries", len(entries))
	}
	sawTokenBody, sawAuthHeader := false, false
	for _, e := range entries {
		line := e.String()
		for _, s := range secrets {
			if s != "" && strings.Contains(line, s) {
				t.Errorf("log line holds a secret %q: %s", s, line)
			}
		}
		if e.Msg == "HTTP response body" && strings.Contains(line, `"access_token":"[REDACTED]"`) {
			sawTokenBody = true
		}
		if h, ok := e.Fields["headers"].(map[string]string); ok && h["Authorization"] == redacted {
			sawAuthHeader = true
		}
	}
	if !sawTokenBody || !sawAuthHeader {
		t.Errorf("redacted token body logged: %v, redacted Authorization logged: %v", sawTokenBody, sawAuthHeader)
	}
}

func TestRedactBody(t *testing.T) {
	tests := []struct {
		name, ct, body string
		want           string
	}{
		{"token response", "application/json", `{"access_token":"AT","refresh_token":"RT","expires_in":3600}`,
			`{"access_token":"[REDACTED]","expires_in":3600,"refresh_token":"[REDACTED]"}`},
		{"nested", "application/json", `{"data":[{"Client_Secret":"S","x":1}]}`, `{"data":[{"Client_Secret":"[REDACTED]","x":1}]}`},
		{"escaped key", "application/json", `{"\u0061ccess_token":"AT"}`, `{"access_token":"[REDACTED]"}`},
		{"clean json kept as is", "application/json", `{"id": "x"}`, `{"id": "x"}`},
		{"form", "application/x-www-form-urlencoded", "client_id=id&client_secret=S&grant_type=client_credentials&scope=a+b",
			"client_id=id&client_secret=%5BREDACTED%5D&grant_type=client_credentials&scope=a+b"},
		{"form without content type", "", "client_secret=S&x=1", "client_secret=%5BREDACTED%5D&x=1"},
		{"encoded form key", "application/x-www-form-urlencoded", "client%5Fsecret=S", "client_secret=%5BREDACTED%5D"},
		{"truncated json", "application/json", `{"id":"x","access_token":"AT`, "[REDACTED 28 bytes]"},
		{"truncated escaped json", "application/json", `{"\u0061ccess_token":"AT`, "[REDACTED 24 bytes]"},
		// A JSON value that is not the whole body: the rest is not redacted
		// field by field, so the whole body is withheld.
		{"stray bracket after the value", "application/json", `{"p":0}},"access_token":"AT"}`, "[REDACTED 29 bytes]"},
		{"second value", "application/json", `{"a":1} {"access_token":"AT"}`, "[REDACTED 29 bytes]"},
		{"bad form", "application/x-www-form-urlencoded", "client_secret=S;x", "[REDACTED 17 bytes]"},
		// Sensitive by place: CUBIX's account_id is a bank account, the
		// account_id of a transfer is not.
		{"cubix account by place", "application/json",
			`{"account_id":"acct-1","instructions":{"cubix":{"account_id":"CUBIX-0012345678"}}}`,
			`{"account_id":"acct-1","instructions":{"cubix":{"account_id":"[REDACTED]"}}}`},
		{"cubix in a list", "application/json", `{"items":[{"cubix":{"Account_ID":"CUBIX-0012345678"}}]}`,
			`{"items":[{"cubix":{"Account_ID":"[REDACTED]"}}]}`},
		{"truncated cubix", "application/json", `{"cubix":{"account_id":"CUBIX-00123`, "[REDACTED 35 bytes]"},
		{"plain", "text/plain", "hello", "hello"},
		{"empty", "", "  ", ""},
	}
	for _, tc := range tests {
		if got := RedactBody(tc.ct, []byte(tc.body)); got != tc.want {
			t.Errorf("%s: RedactBody = %q, want %q", tc.name, got, tc.want)
		}
	}
	big := bytes.Repeat([]byte("a"), 3*maxLoggedBody)
	if got := RedactBody("text/plain", big); len(got) > maxLoggedBody+32 {
		t.Errorf("body not capped: %d", len(got))
	}
}

func TestRedactHeadersAndQuery(t *testing.T) {
	h := http.Header{"Authorization": {"Bearer AT"}, "Cookie": {"c"}, "Accept": {"application/json"}}
	got := RedactHeaders(h)
	if got["Authorization"] != redacted || got["Cookie"] != redacted || got["Accept"] != "application/json" {
		t.Errorf("RedactHeaders = %v", got)
	}
	if h.Get("Authorization") != "Bearer AT" {
		t.Error("RedactHeaders modified its input")
	}
	if q := RedactQuery("ids=a&access_token=AT"); strings.Contains(q, "AT") {
		t.Errorf("RedactQuery = %q", q)
	}
	if q := RedactQuery("ids=a&ids=b"); q != "ids=a&ids=b" {
		t.Errorf("RedactQuery changed a clean query: %q", q)
	}
}

func TestDecodeRobustness(t *testing.T) {
	tests := []struct {
		body, want string
	}{
		{``, "empty response body"},
		{`null`, "expected a JSON object, got null"},
		{`{"id":"t-1","amount":`, "truncated JSON"},
		{`{"id":"t-1","amount":1.5}`, "field amount is number, expected a string"},
		{`{"id":"t-1"} trailing`, "malformed JSON"},
		{`[1,2]`, "top-level value is array"},
		{`<!doctype html><title>oops</title>`, "HTML page"},
		{`{"customer_id":"c"}`, "has no id"},
		{`{"id":"t-1","created_at":"2024-13-45"}`, "month out of range"},
	}
	for _, tc := range tests {
		_, err := decodeTransfer([]byte(tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("decodeTransfer(%q) = %v, want %q", tc.body, err, tc.want)
		}
	}
	tr, err := decodeTransfer([]byte(transferJSON))
	if err != nil || tr.ID != "t-1" || tr.RefID == nil || *tr.RefID != "r-1" || tr.AutoConversion == nil || tr.IdentityID != nil {
		t.Errorf("decodeTransfer = %+v, %v", tr, err)
	}
	fdi, err := decodeFiatDepositInstructions([]byte(instructionsJSON))
	if err != nil || *fdi.FiatNetworkInstructions.Wire.RoutingDetails.BankName != "Bank" {
		t.Errorf("decodeFiatDepositInstructions = %+v, %v", fdi, err)
	}
	conv, err := decodeStablecoinConversion([]byte(conversionJSON))
	if err != nil || conv.CreatedAt.Nanosecond() != 123_000_000 {
		t.Errorf("decodeStablecoinConversion = %+v, %v", conv, err)
	}
}

func TestHugeBodyIsRefused(t *testing.T) {
	f := newFake(t)
	f.handler = func(w http.ResponseWriter, _ *http.Request, _ int, _ apiRequest) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"items":[`))
		chunk := bytes.Repeat([]byte(`{"id":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},`), 1<<14)
		for range 13 { // About 11 MiB.
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		_, _ = w.Write([]byte(`{"id":"z"}]}`))
	}
	c, _ := newTestClient(t, f, nil)
	err := drain(c.FiatAccounts(t.Context(), ListFiatAccountsQuery{}))
	if !errors.Is(err, errBodyTooLarge) || !strings.Contains(err.Error(), "GET /transfer/fiat-accounts") || !strings.Contains(err.Error(), "10 MiB") {
		t.Fatalf("err = %v", err)
	}
}
