package provider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// configureWith runs the provider's Configure with the given attribute
// values (others null) and returns the response.
func configureWith(t *testing.T, vals map[string]tftypes.Value) *provider.ConfigureResponse {
	t.Helper()
	return configureIn(t.Context(), vals)
}

// configureIn is configureWith in ctx (a context that records the logs).
func configureIn(ctx context.Context, vals map[string]tftypes.Value) *provider.ConfigureResponse {
	p := newTestProvider()
	var sresp provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &sresp)
	typ := sresp.Schema.Type().TerraformType(ctx).(tftypes.Object) //nolint:forcetypeassert // a schema is an object.
	all := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		if v, ok := vals[name]; ok {
			all[name] = v
		} else {
			all[name] = tftypes.NewValue(at, nil)
		}
	}
	resp := &provider.ConfigureResponse{}
	p.Configure(ctx, provider.ConfigureRequest{
		Config: tfsdk.Config{Schema: sresp.Schema, Raw: tftypes.NewValue(typ, all)},
	}, resp)
	return resp
}

// countingServer counts every request it receives.
func countingServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n.Add(1)
		w.WriteHeader(http.StatusTeapot)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func clearEnv(t *testing.T) {
	t.Helper()
	for _, v := range []string{EnvClientID, EnvClientSecret, EnvBaseURL, EnvAuthURL, EnvWSURL, EnvScopes, EnvRequestTimeout, EnvMaxRetries} {
		t.Setenv(v, "")
	}
}

func str(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

func TestProviderConfigureFromEnvironment(t *testing.T) {
	srv, n := countingServer(t)
	clearEnv(t)
	t.Setenv(EnvClientID, "id-from-env")
	t.Setenv(EnvClientSecret, "secret-from-env")
	t.Setenv(EnvBaseURL, srv.URL+"/v2/")
	t.Setenv(EnvAuthURL, srv.URL)
	t.Setenv(EnvWSURL, strings.Replace(srv.URL, "http", "ws", 1)+"/ws")
	t.Setenv(EnvRequestTimeout, "7s")
	t.Setenv(EnvMaxRetries, "2")
	t.Setenv(EnvScopes, "transfer:read_fiat_account, rewards:read_claims")

	resp := configureWith(t, nil)
	if resp.Diagnostics.HasError() {
		t.Fatalf("unexpected diagnostics: %v", resp.Diagnostics)
	}
	d, ok := resp.ResourceData.(*providerData)
	if !ok || d.client == nil {
		t.Fatalf("ResourceData = %T, want *providerData with a client", resp.ResourceData)
	}
	if want := strings.Replace(srv.URL, "http", "ws", 1) + "/ws"; d.wsURL != want {
		t.Errorf("wsURL = %q, want %q", d.wsURL, want)
	}
	if d.requestTimeout.String() != "7s" {
		t.Errorf("requestTimeout = %s, want 7s", d.requestTimeout)
	}
	if resp.DataSourceData != resp.ResourceData {
		t.Error("data sources and resources must share the provider data")
	}
	if got := n.Load(); got != 0 {
		t.Errorf("Configure sent %d requests, want 0", got)
	}
}

func TestProviderConfigureBlockOverridesEnvironment(t *testing.T) {
	srv, _ := countingServer(t)
	clearEnv(t)
	t.Setenv(EnvBaseURL, "http://example.com/v2") // would be refused
	t.Setenv(EnvClientID, "env-id")
	t.Setenv(EnvClientSecret, "env-secret")
	t.Setenv(EnvAuthURL, srv.URL)
	resp := configureWith(t, map[string]tftypes.Value{"base_url": str(srv.URL + "/v2")})
	if resp.Diagnostics.HasError() {
		t.Fatalf("the provider block must take precedence over %s: %v", EnvBaseURL, resp.Diagnostics)
	}
}

// TestProviderConfigureBaseURLVersion: base_url's path is /v2, with or
// without a trailing slash, or ends in /v2 behind a gateway's prefix.
func TestProviderConfigureBaseURLVersion(t *testing.T) {
	srv, n := countingServer(t)
	for _, base := range []string{srv.URL + "/v2", srv.URL + "/v2/", srv.URL + "/gateway/platform/v2"} {
		clearEnv(t)
		resp := configureWith(t, map[string]tftypes.Value{
			"client_id": str("id"), "client_secret": str("secret"), "base_url": str(base), "auth_url": str(srv.URL),
		})
		if resp.Diagnostics.HasError() {
			t.Errorf("base_url %q refused: %v", base, resp.Diagnostics)
		}
	}
	if got := n.Load(); got != 0 {
		t.Errorf("Configure sent %d requests, want 0", got)
	}
}

func TestProviderConfigureErrors(t *testing.T) {
	srv, n := countingServer(t)
	good := map[string]tftypes.Value{
		"client_id":     str("id"),
		"client_secret": str("s3cr3t-value"),
		"base_url":      str(srv.URL + "/v2"),
		"auth_url":      str(srv.URL),
	}
	with := func(k string, v tftypes.Value) map[string]tftypes.Value {
		m := map[string]tftypes.Value{}
		for kk, vv := range good {
			m[kk] = vv
		}
		if v.IsNull() {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	null := tftypes.NewValue(tftypes.String, nil)
	unknown := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)

	cases := []struct {
		name      string
		vals      map[string]tftypes.Value
		env       map[string]string
		attr      string
		summary   string
		detailHas []string
	}{
		{"missing client_id", with("client_id", null), nil, "client_id", "Missing an OAuth 2.0 client id", []string{`"client_id"`, EnvClientID}},
		{"missing client_secret", with("client_secret", null), nil, "client_secret", "Missing an OAuth 2.0 client secret", []string{`"client_secret"`, EnvClientSecret}},
		{"missing base_url", with("base_url", null), nil, "base_url", "Missing the base URL of the HTTP API", []string{`"base_url"`, EnvBaseURL}},
		{"missing auth_url", with("auth_url", null), nil, "auth_url", "Missing the base URL of the OAuth 2.0 server", []string{`"auth_url"`, EnvAuthURL}},
		{"plain http to a remote base_url", with("base_url", str("http://api.example.com/v2")), nil, "base_url", "Invalid base_url", []string{EnvBaseURL, "https"}},
		{"plain http to a remote auth_url", with("auth_url", str("http://auth.example.com")), nil, "auth_url", "Invalid auth_url", []string{EnvAuthURL, "https"}},
		{"plain ws to a remote ws_url", with("ws_url", str("ws://stream.example.com")), nil, "ws_url", "Invalid ws_url", []string{EnvWSURL, "wss"}},
		{"wrong scheme", with("base_url", str("ftp://127.0.0.1/v2")), nil, "base_url", "Invalid base_url", []string{EnvBaseURL}},
		{"base_url without a path", with("base_url", str(srv.URL)), nil, "base_url", "Invalid base_url",
			[]string{`base_url (from the provider block or ` + EnvBaseURL + `)`, "/v2", "it has no path", srv.URL}},
		{"base_url of another version", with("base_url", str("https://api.example.com/v1")), nil, "base_url", "Invalid base_url",
			[]string{EnvBaseURL, "version segment /v2", `its path is "/v1"`, "https://api.example.com/v2"}},
		{"base_url under /v2", with("base_url", str(srv.URL+"/v2/transfer")), nil, "base_url", "Invalid base_url",
			[]string{EnvBaseURL, `its path is "/v2/transfer"`}},
		{"base_url without /v2 from env", with("base_url", null), map[string]string{EnvBaseURL: srv.URL + "/api/"}, "base_url",
			"Invalid base_url", []string{EnvBaseURL, `its path is "/api"`}},
		{"not a URL", with("auth_url", str("::not a url")), nil, "auth_url", "Invalid auth_url", []string{EnvAuthURL}},
		{"malformed request_timeout from env", good, map[string]string{EnvRequestTimeout: "soon"}, "request_timeout", "Invalid request_timeout", []string{EnvRequestTimeout, `"soon"`}},
		{"malformed max_retries from env", good, map[string]string{EnvMaxRetries: "many"}, "max_retries", "Invalid max_retries", []string{EnvMaxRetries, `"many"`}},
		{"max_retries out of range from env", good, map[string]string{EnvMaxRetries: "99"}, "max_retries", "Invalid max_retries", []string{EnvMaxRetries}},
		{"unknown client_id", with("client_id", unknown), nil, "client_id", "Unknown provider configuration value", []string{EnvClientID}},
		{"missing client_secret in env too", with("client_secret", null), map[string]string{EnvClientSecret: ""}, "client_secret", "Missing an OAuth 2.0 client secret", []string{EnvClientSecret}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clearEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			resp := configureWith(t, tc.vals)
			if !resp.Diagnostics.HasError() {
				t.Fatal("expected an error diagnostic")
			}
			found := false
			for _, d := range resp.Diagnostics.Errors() {
				if d.Summary() != tc.summary {
					continue
				}
				found = true
				for _, s := range tc.detailHas {
					if !strings.Contains(d.Detail(), s) {
						t.Errorf("detail %q does not mention %q", d.Detail(), s)
					}
				}
				if strings.Contains(d.Detail(), "s3cr3t-value") {
					t.Errorf("detail leaks the client secret: %q", d.Detail())
				}
				wp, ok := d.(diag.DiagnosticWithPath)
				if !ok || wp.Path().String() != tc.attr {
					t.Errorf("diagnostic %q is not attached to %s", d.Summary(), tc.attr)
				}
			}
			if !found {
				t.Fatalf("no diagnostic %q in %v", tc.summary, resp.Diagnostics)
			}
			if resp.ResourceData != nil {
				t.Error("a failed Configure must not hand out provider data")
			}
		})
	}
	if got := n.Load(); got != 0 {
		t.Errorf("bad configurations sent %d requests, want 0", got)
	}
}
