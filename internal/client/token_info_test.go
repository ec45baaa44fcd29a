package client

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestTokenInfo(t *testing.T) {
	f := newFake(t)
	c, _ := newTestClient(t, f, nil)
	ctx := t.Context()

	before := time.Now()
	tok, err := c.TokenInfo(ctx, []string{"a:read", "b:write"})
	if err != nil {
		t.Fatal(err)
	}
	if tok.AccessToken == "" || tok.TokenType != "Bearer" {
		t.Fatalf("token = %q, type %q; want a token of type Bearer", tok.AccessToken, tok.TokenType)
	}
	if got := tok.Expiry; got.Before(before.Add(3599*time.Second)) || got.After(time.Now().Add(3601*time.Second)) {
		t.Errorf("expiry = %s, want about one hour from now", got)
	}
	if !slices.Equal(tok.Scopes, []string{"a:read", "b:write"}) {
		t.Errorf("scopes = %v", tok.Scopes)
	}
	reqs := f.tokenRequests()
	if len(reqs) != 1 || reqs[0].Get("scope") != "a:read b:write" {
		t.Fatalf("token requests = %v, want one with scope %q", reqs, "a:read b:write")
	}
	if strings.Contains(tok.String(), tok.AccessToken) {
		t.Errorf("String() reveals the token: %s", tok)
	}

	// Cached: the same scope set asks for no new token.
	again, err := c.TokenInfo(ctx, []string{"a:read", "b:write"})
	if err != nil {
		t.Fatal(err)
	}
	if again.AccessToken != tok.AccessToken || len(f.tokenRequests()) != 1 {
		t.Errorf("second call: token %q (first %q), %d token requests; want the cached token",
			again.AccessToken, tok.AccessToken, len(f.tokenRequests()))
	}

	// The cache is the client's own: a single-scope token is shared with
	// Token.
	single, err := c.TokenInfo(ctx, []string{"a:read"})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := c.Token(ctx, "a:read")
	if err != nil {
		t.Fatal(err)
	}
	if plain != single.AccessToken || len(f.tokenRequests()) != 2 {
		t.Errorf("Token = %q, TokenInfo = %q, %d token requests; want one shared token",
			plain, single.AccessToken, len(f.tokenRequests()))
	}
}

func TestTokenInfoIgnoresPinnedScopes(t *testing.T) {
	f := newFake(t)
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.Scopes = []string{"pinned:one"} })
	if _, err := c.TokenInfo(t.Context(), []string{"x:y"}); err != nil {
		t.Fatal(err)
	}
	reqs := f.tokenRequests()
	if len(reqs) != 1 || reqs[0].Get("scope") != "x:y" {
		t.Fatalf("token requests = %v, want one with scope x:y", reqs)
	}
}

func TestTokenInfoRenewsShortLivedToken(t *testing.T) {
	f := newFake(t)
	f.tokenHandler = func(w http.ResponseWriter, _ *http.Request, form url.Values) bool {
		tok := "short-" + strconv.Itoa(len(f.tokenRequests()))
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"access_token": tok,
			"token_type":   "Bearer",
			// Valid for the library (more than its 10s margin) but
			// shorter than TokenMinValidity.
			"expires_in": 30,
		})
		f.mu.Lock()
		f.issued[tok] = form.Get("scope")
		f.mu.Unlock()
		return true
	}
	c, _ := newTestClient(t, f, nil)
	ctx := t.Context()

	// Token accepts the 30s token from the cache ...
	first, err := c.Token(ctx, "a:read")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := c.Token(ctx, "a:read"); again != first {
		t.Fatalf("Token did not reuse its cached token")
	}
	// ... but TokenInfo renews it rather than hand it out.
	info, err := c.TokenInfo(ctx, []string{"a:read"})
	if err != nil {
		t.Fatal(err)
	}
	if info.AccessToken == first || len(f.tokenRequests()) != 2 {
		t.Errorf("TokenInfo returned %q (cached %q) after %d token requests; want a renewed token",
			info.AccessToken, first, len(f.tokenRequests()))
	}
	// No scope field in the response: the requested scopes are reported.
	if !slices.Equal(info.Scopes, []string{"a:read"}) {
		t.Errorf("scopes = %v, want [a:read]", info.Scopes)
	}
}

func TestTokenInfoErrors(t *testing.T) {
	f := newFake(t)
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.ClientSecret = "wrong-" + testSecret })
	for _, scopes := range [][]string{nil, {""}, {"a b"}, {"a\tb"}} {
		if _, err := c.TokenInfo(t.Context(), scopes); err == nil {
			t.Errorf("TokenInfo(%q): no error", scopes)
		}
	}
	if n := len(f.tokenRequests()); n != 0 {
		t.Fatalf("invalid scopes made %d token requests", n)
	}
	_, err := c.TokenInfo(t.Context(), []string{"a:read"})
	if err == nil {
		t.Fatal("rejected credentials: no error")
	}
	if strings.Contains(err.Error(), testSecret) {
		t.Errorf("error reveals the secret: %v", err)
	}
}
