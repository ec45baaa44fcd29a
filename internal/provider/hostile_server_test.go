package provider

// Malformed answers from the service, through the provider: an httptest
// server stands in for the API and answers truncated JSON, wrong types,
// huge bodies, HTML error pages and worse. Every case must end in a clear
// diagnostic (never a panic, never a hang), short enough to read, and free
// of the client secret and of the access token, even when the server
// echoes them back.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// hostileSecret is the client secret given to the provider in these tests.
const hostileSecret = "hostile-client-secret-4f1c9a"

// hostileAPI is an httptest server standing in for the service. The token
// endpoint answers tokenMode; GET by id answers the case named by the id;
// the fiat accounts list answers the case named by its ids filter; a
// withdrawal answers the case named by its memo.
type hostileAPI struct {
	srv       *httptest.Server
	token     string
	tokenMode string
	requests  atomic.Int64
	posts     atomic.Int64
}

// hostileProvider starts a hostile API (tokenMode as startHostileAPI takes
// it) and a provider configured against it with maxRetries retries.
func hostileProvider(t *testing.T, tokenMode string, maxRetries int64) (*hostileAPI, *protoProvider) {
	h := startHostileAPI(t, tokenMode)
	p := newProtoProvider(t)
	p.mustConfigure(t, providerArgs(h.srv.URL, map[string]tftypes.Value{
		"client_secret": tfStr(hostileSecret),
		"max_retries":   tfInt(maxRetries),
	}))
	return h, p
}

func startHostileAPI(t *testing.T, tokenMode string) *hostileAPI {
	t.Helper()
	h := &hostileAPI{token: "hostile-access-token-" + uuid.NewString(), tokenMode: tokenMode}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.srv.Close)
	return h
}

// huge is a body larger than any the client accepts (10 MiB).
var huge = `{"id":"x","profile_id":"` + strings.Repeat("a", 11<<20) + `"}`

// hostileBodies maps a case to its status, content type and body. The
// body may use %[1]s for the access token and %[2]s for the client secret.
var hostileBodies = map[string]struct {
	status int
	ct     string
	body   string
}{
	"truncated":      {200, "application/json", `{"id":"x","profile_id":"p","identity_id":"i","status":"VAL`},
	"truncated-201":  {201, "application/json", `{"id":"3f0b","customer_id":"c","profile_id":"p","amount":"1","tot`},
	"html-201":       {201, "text/html", `<html><body>Created</body></html>`},
	"wrong-types":    {200, "application/json", `{"id":"x","profile_id":5,"status":"VALID"}`},
	"wrong-time":     {200, "application/json", `{"id":"x","created_at":"yesterday"}`},
	"array":          {200, "application/json", `[{"id":"x"}]`},
	"null":           {200, "application/json", `null`},
	"empty":          {200, "application/json", ``},
	"no-id":          {200, "application/json", `{"profile_id":"p"}`},
	"trailing":       {200, "application/json", `{"id":"x"} {"id":"y"}`},
	"deep":           {200, "application/json", strings.Repeat("[", 100000)},
	"html-200":       {200, "text/html", `<!DOCTYPE html><html><head><title>Login</title></head><body>Please sign in</body></html>`},
	"html-502":       {502, "text/html", `<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>`},
	"html-500-huge":  {500, "text/html", `<html><body>` + strings.Repeat("<p>stack frame</p>\n", 200000) + `</body></html>`},
	"text-500-huge":  {500, "text/plain", strings.Repeat("error detail ", 200000)},
	"huge":           {200, "application/json", huge},
	"binary":         {200, "application/octet-stream", "\x00\x01\xff\xfe PK\x03\x04"},
	"echo-secrets":   {400, "application/json", `{"code":"BAD","message":"rejected Authorization: Bearer %[1]s for client_secret=%[2]s"}`},
	"echo-token-401": {401, "application/json", `{"error":"invalid_token","error_description":"token %[1]s is not valid"}`},
}

func (h *hostileAPI) write(w http.ResponseWriter, name string) {
	c, ok := hostileBodies[name]
	if !ok {
		http.Error(w, `{"message":"no such case"}`, http.StatusNotFound)
		return
	}
	body := c.body
	if strings.Contains(body, "%[") {
		body = fmt.Sprintf(body, h.token, hostileSecret)
	}
	w.Header().Set("Content-Type", c.ct)
	w.WriteHeader(c.status)
	_, _ = w.Write([]byte(body))
}

func (h *hostileAPI) serve(w http.ResponseWriter, r *http.Request) {
	h.requests.Add(1)
	if r.URL.Path == "/oauth2/token" {
		h.serveToken(w)
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+h.token {
		http.Error(w, `{"message":"unauthenticated"}`, http.StatusUnauthorized)
		return
	}
	switch {
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v2/transfer/fiat-deposit-instructions/"):
		h.write(w, strings.TrimPrefix(r.URL.Path, "/v2/transfer/fiat-deposit-instructions/"))
	case r.Method == http.MethodGet && r.URL.Path == "/v2/transfer/fiat-accounts":
		h.serveList(w, r.URL.Query().Get("ids"))
	case r.Method == http.MethodPost && r.URL.Path == "/v2/transfer/crypto-withdrawals":
		var body struct {
			Memo string `json:"memo"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, `{"message":"bad body"}`, http.StatusBadRequest)
			return
		}
		h.posts.Add(1)
		h.write(w, body.Memo)
	default:
		http.Error(w, `{"message":"unexpected request"}`, http.StatusNotFound)
	}
}

func (h *hostileAPI) serveToken(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	switch h.tokenMode {
	case "html":
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`<html><body><h1>Service Unavailable</h1></body></html>`))
	case "truncated":
		_, _ = fmt.Fprintf(w, `{"access_token":"%s","token_type":"Bea`, h.token)
	case "no-token":
		_, _ = w.Write([]byte(`{"token_type":"Bearer","expires_in":3600}`))
	case "wrong-types":
		_, _ = fmt.Fprintf(w, `{"access_token":["%s"],"token_type":1,"expires_in":"soon"}`, h.token)
	case "echo-secret":
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = fmt.Fprintf(w, `{"error":"invalid_client","error_description":"client_secret %s is wrong"}`, hostileSecret)
	default:
		_, _ = fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":3600}`, h.token)
	}
}

// serveList answers the fiat accounts list: a good first page whose cursor
// leads to the case, so that the failure comes in the middle of paging.
func (h *hostileAPI) serveList(w http.ResponseWriter, name string) {
	switch name {
	case "items-object":
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"items":{"id":"a"},"next_page_cursor":""}`))
	case "null-item":
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"items":[{"id":"a"},null],"next_page_cursor":""}`))
	case "cursor-loop":
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"items":[{"id":"a"}],"next_page_cursor":"same"}`))
	default:
		h.write(w, name)
	}
}

// checkHostileDiags checks that diags hold an error matching want and
// nothing secret, and that they stay readable.
func checkHostileDiags(t *testing.T, h *hostileAPI, diags string, want string) {
	t.Helper()
	t.Logf("diagnostics:\n%s", truncate(diags, 1000))
	if !regexp.MustCompile(want).MatchString(diags) {
		t.Errorf("diagnostics do not match %s:\n%s", want, truncate(diags, 2000))
	}
	if strings.Contains(diags, h.token) {
		t.Errorf("diagnostics hold the access token:\n%s", diags)
	}
	if strings.Contains(diags, hostileSecret) {
		t.Errorf("diagnostics hold the client secret:\n%s", diags)
	}
	if len(diags) > 3000 {
		t.Errorf("diagnostics are %d bytes long; a server's body must be capped, not copied", len(diags))
	}
}

// TestHostileServer_getByID reads platform_fiat_deposit_instructions from
// a server that answers each id with a different malformed answer.
func TestHostileServer_getByID(t *testing.T) {
	h, p := hostileProvider(t, "", 1)
	cases := map[string]string{
		"truncated":      `truncated JSON`,
		"wrong-types":    `field profile_id is number, expected a string`,
		"wrong-time":     `unexpected JSON: parsing time "yesterday"`,
		"array":          `top-level value is array, expected an object|expected an object`,
		"null":           `expected a JSON object, got null`,
		"empty":          `empty response body, expected JSON`,
		"no-id":          `have no id`,
		"trailing":       `(?i)malformed JSON|invalid character|after top-level value`,
		"deep":           `(?i)(exceeded max depth|truncated JSON|malformed JSON)`,
		"html-200":       `expected JSON, got an HTML page`,
		"html-502":       `GET /transfer/fiat-deposit-instructions/html-502: gave up after 2 attempts: 502 Bad Gateway`,
		"html-500-huge":  `GET /transfer/fiat-deposit-instructions/html-500-huge: gave up after 2 attempts: 500 Internal Server Error`,
		"text-500-huge":  `GET /transfer/fiat-deposit-instructions/text-500-huge: gave up after 2 attempts: 500 Internal Server Error`,
		"huge":           `response body too large: more than 10 MiB`,
		"binary":         `(?i)malformed JSON|invalid character`,
		"echo-secrets":   `400 Bad Request: BAD: rejected Authorization`,
		"echo-token-401": `401 Unauthorized.*rejected even after renewing it`,
	}
	for name, want := range cases {
		t.Run(name, func(t *testing.T) {
			state, diags := p.readData(t, "platform_fiat_deposit_instructions", map[string]tftypes.Value{"id": tfStr(name)})
			if !hasErrorDiagnostic(diags) {
				t.Fatalf("the read succeeded: %v", state)
			}
			if !state.IsNull() {
				t.Errorf("a failed read left a state: %v", state)
			}
			checkHostileDiags(t, h, diagText(diags), `(?s)Reading fiat deposit instructions failed.*`+want)
		})
	}
}

// TestHostileServer_listPages pages platform_fiat_accounts through
// malformed pages.
func TestHostileServer_listPages(t *testing.T) {
	h, p := hostileProvider(t, "", 0)
	cases := map[string]string{
		"items-object": `field items is object, expected an array`,
		"null-item":    `items\[1\] is null`,
		"cursor-loop":  `returned the cursor "same" again`,
		"truncated":    `truncated JSON`,
		"html-200":     `expected JSON, got an HTML page`,
		"html-502":     `GET /transfer/fiat-accounts: 502 Bad Gateway`,
		"huge":         `response body too large`,
		"echo-secrets": `400 Bad Request`,
	}
	for name, want := range cases {
		t.Run(name, func(t *testing.T) {
			_, diags := p.readData(t, "platform_fiat_accounts", map[string]tftypes.Value{
				"ids": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tfStr(name)}),
			})
			if !hasErrorDiagnostic(diags) {
				t.Fatal("the read succeeded")
			}
			checkHostileDiags(t, h, diagText(diags), `(?s)Unable to list fiat accounts.*`+want)
		})
	}
}

// TestHostileServer_tokenEndpoint configures the provider against token
// endpoints that answer badly; the first read must fail with a clear
// error and no secret.
func TestHostileServer_tokenEndpoint(t *testing.T) {
	cases := map[string]string{
		"html":        `obtaining an access token for scope .*/oauth2/token: 503 Service Unavailable`,
		"truncated":   `obtaining an access token for scope .*/oauth2/token: oauth2: cannot parse json`,
		"no-token":    `obtaining an access token for scope .*/oauth2/token: oauth2: server response missing access_token`,
		"wrong-types": `obtaining an access token for scope .*/oauth2/token: oauth2: cannot parse json`,
		"echo-secret": `obtaining an access token for scope .*/oauth2/token: 401 Unauthorized: invalid_client: .*the service rejected the client credentials: check client_id and client_secret`,
	}
	for mode, want := range cases {
		t.Run(mode, func(t *testing.T) {
			h, p := hostileProvider(t, mode, 0)
			_, diags := p.readData(t, "platform_fiat_deposit_instructions", map[string]tftypes.Value{"id": tfStr("truncated")})
			if !hasErrorDiagnostic(diags) {
				t.Fatal("the read succeeded")
			}
			checkHostileDiags(t, h, diagText(diags), `(?s)`+want)
		})
	}
}

// TestHostileServer_withdrawalAnswers sends withdrawals that the server
// accepts with an unreadable answer. The provider cannot know whether the
// withdrawal was made, so it must say so, keep the ref_id it sent in state
// (to retry with it) and never send the POST a second time by itself.
func TestHostileServer_withdrawalAnswers(t *testing.T) {
	h := startHostileAPI(t, "")
	p := newProtoProvider(t)
	p.mustConfigure(t, providerArgs(h.srv.URL, map[string]tftypes.Value{"client_secret": tfStr(hostileSecret)}))
	cases := map[string]string{
		"truncated-201": `truncated JSON`,
		"html-201":      `expected JSON, got an HTML page`,
		"no-id":         `transfer in the response has no id`,
		"huge":          `response body too large`,
	}
	for memo, want := range cases {
		t.Run(memo, func(t *testing.T) {
			before := h.posts.Load()
			state, diags := p.create(t, "platform_crypto_withdrawal", map[string]tftypes.Value{
				"profile_id":          tfStr("profile-1"),
				"destination_address": tfStr(cwDestination),
				"asset":               tfStr("BTC"),
				"crypto_network":      tfStr("BITCOIN"),
				"amount":              tfStr("0.5"),
				"memo":                tfStr(memo),
			})
			checkHostileDiags(t, h, diagText(diags), `(?s)Outcome of crypto withdrawal unknown.*ref_id [0-9a-f-]{36}.*`+want)
			if state.IsNull() {
				t.Fatal("no state was saved; the ref_id of a withdrawal that may have been made is lost")
			}
			if ref := stringOf(t, attrOf(t, state, "ref_id")); !regexp.MustCompile(uuidPattern).MatchString(ref) {
				t.Errorf("state ref_id = %q, want the generated UUID that was sent", ref)
			}
			if n := h.posts.Load() - before; n != 1 {
				t.Errorf("%d POSTs for one withdrawal, want 1", n)
			}
		})
	}
}

// hostileItemPages holds, for each list data source, a page of one item
// with every field of its type set, some to unusual values. The server
// answers the address book's pages under the key the reference names
// (addresses).
var hostileItemPages = map[string]string{
	"platform_fiat_accounts": `{"items":[{"id":"a","ref_id":"r","fiat_account_owner":{"person_details":{"first_name":"A","last_name":"B"}},` +
		`"fiat_network_instructions":{"wire":{"account_number":"*1234","status":"ACTIVE","metadata":{"n":1.5,` +
		`"o":{"p":[true,null,"x"]},"big":1e300,"neg":-0,"s":"\u00e9\u2028"},"routing_details":{"routing_number_type":"ABA",` +
		`"routing_number":"1","bank_name":"b","bank_address":{"country":"US"}},"fiat_account_owner_address":null}},` +
		`"created_at":"2024-01-01T00:00:00.123456789Z","updated_at":"2024-01-02T00:00:00+05:30"}],"next_page_cursor":""}`,
	"platform_deposit_addresses": `{"items":[{"id":"d","profile_id":"p","crypto_network":"SOLANA","address":"x",` +
		`"compatible_crypto_networks":["A",""],"metadata":{"k":"v","":""},"created_at":"2024-01-01T00:00:00Z"}]}`,
	"platform_reward_claims": `{"items":[{"id":"c","payout_group_id":"g","amount":"1","addresses":[],"blockchain":"cosmos","tx_hash":null,` +
		`"submitted_at":"2024-01-01T00:00:00Z","created_at":"2024-01-01T00:00:00Z"}],"next_page_cursor":null}`,
	"platform_transfers": `{"items":[{"id":"t","customer_id":"c","profile_id":"p","amount":"1.5","total":"1.6","fee":"0.1",` +
		`"asset":"BTC","direction":"DEBIT","type":"CRYPTO_WITHDRAWAL","status":"PENDING","created_at":"2024-01-01T00:00:00Z",` +
		`"updated_at":"2024-01-01T00:00:01.5-07:00","identity_id":null,"ref_id":"r","secondary_status":{"a":[1,null]},` +
		`"status_details":"text","metadata":{"k":"\u00e9"},"destination_address":"bc1q","crypto_network":"BITCOIN",` +
		`"crypto_tx_hash":"0xabc","auto_conversion":{"to":"USD"},"memo":""}],"next_page_cursor":""}`,
	"platform_transfer_limits": `{"items":[{"rule_id":"r","transfer_types":["CRYPTO_WITHDRAWAL",""],"period_seconds":"0",` +
		`"limit":"1e3","remaining":"","limit_asset":"\u00e9"},{"id":"l","rule_id":"","transfer_types":[],` +
		`"period_seconds":"86400","limit":"0.000000000000000001","remaining":"0","limit_asset":"USD"}],"next_page_cursor":""}`,
	"platform_crypto_destination_addresses": `{"items":[{"id":"a","identity_id":null,"crypto_network":"ETHEREUM",` +
		`"address":"0xE4b0","nickname":"\u00e9","status":"APPROVED","created_at":"2024-01-01T00:00:00.5+01:00",` +
		`"bookmarked":false,"policy_execution_id":"","travelrule_metadata":{"beneficiary":{"person_details":` +
		`{"first_name":"A","last_name":"B","physical_address":{"country":"USA"}},"self":true},"vasp":{"name":"V"},` +
		`"custodian_type":"OTHER"}}],"next_page_cursor":""}`,
}

// TestHostileServer_pagesToState serves unusual pages to every list data
// source the provider registers: odd but valid ones (among them the page
// of each list's hostileItemPages) must become a state that Terraform can
// decode against the schema, with one item per item of the page; broken
// ones must become an error naming the request. Never a panic.
func TestHostileServer_pagesToState(t *testing.T) {
	type page struct {
		name, body string
		ok         bool
	}
	lists := registeredLists(t)
	var pages []page
	for _, typ := range lists {
		body, ok := hostileItemPages[typ]
		if !ok {
			t.Fatalf("no row in hostileItemPages for %s", typ)
		}
		pages = append(pages, page{"full item of " + typ, body, true})
	}
	pages = append(pages, []page{
		{"empty objects", `{"items":[{}, {"id":""}, {"metadata":{}}, {"fiat_network_instructions":{}}]}`, true},
		{"no items", `{"items":[]}`, true},
		{"no items key", `{}`, true},
		{"unknown fields", `{"items":[{"id":"a","surprise":{"x":[1,2,3]}}],"extra":true}`, true},
		{"invalid UTF-8", "{\"items\":[{\"id\":\"\xff\xfe\",\"metadata\":{\"\xc0\":\"\xed\xa0\x80\"}}]}", true},
		{"many items", `{"items":[` + strings.TrimSuffix(strings.Repeat(`{"id":"x"},`, 1000), ",") + `]}`, true},
		{"null item", `{"items":[null]}`, false},
		{"items not a list", `{"items":"x"}`, false},
		{"number too large", `{"items":[{"fiat_network_instructions":{"wire":{"metadata":{"n":1e400}}},` +
			`"metadata":{"n":1e400},"addresses":[1e400],"transfer_types":[1e400],"bookmarked":1e400}]}`, false},
		{"cursor loop", `{"items":[{"id":"a"}],"next_page_cursor":"again"}`, false},
	}...)
	var body atomic.Pointer[string]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/oauth2/token" {
			_, _ = w.Write([]byte(`{"access_token":"odd-pages-token","token_type":"Bearer","expires_in":3600}`))
			return
		}
		b := *body.Load()
		if strings.HasSuffix(r.URL.Path, client.PathCryptoDestinationAddresses) {
			// The one list whose items the reference names addresses.
			b = strings.Replace(b, `{"items":`, `{"addresses":`, 1)
		}
		_, _ = w.Write([]byte(b))
	}))
	t.Cleanup(srv.Close)
	p := newProtoProvider(t)
	p.mustConfigure(t, providerArgs(srv.URL, map[string]tftypes.Value{"max_retries": tfInt(0)}))

	for _, pg := range pages {
		t.Run(pg.name, func(t *testing.T) {
			body.Store(&pg.body)
			var probe struct {
				Items []json.RawMessage `json:"items"`
			}
			_ = json.Unmarshal([]byte(pg.body), &probe)
			for _, typeName := range lists {
				state, diags := p.readData(t, typeName, nil)
				text := diagText(diags)
				if !utf8.ValidString(text) {
					t.Fatalf("%s: diagnostics are not valid UTF-8: %q", typeName, text)
				}
				if !pg.ok {
					if !hasErrorDiagnostic(diags) || !strings.Contains(text, "GET /") {
						t.Fatalf("%s: want an error naming the request, got:\n%s", typeName, text)
					}
					continue
				}
				failOnErrorDiags(t, typeName, diags)
				items := elementsOf(t, attrOf(t, state, "items"))
				if len(items) != len(probe.Items) {
					t.Fatalf("%s: %d items in state, %d in the page", typeName, len(items), len(probe.Items))
				}
				typ := p.schema.DataSourceSchemas[typeName].ValueType()
				dv, err := tfprotov6.NewDynamicValue(typ, state)
				if err != nil {
					t.Fatalf("%s: encoding the state: %v", typeName, err)
				}
				if _, err := dv.Unmarshal(typ); err != nil {
					t.Fatalf("%s: decoding the state: %v", typeName, err)
				}
			}
		})
	}
}
