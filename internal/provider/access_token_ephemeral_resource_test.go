package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/echoprovider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// testAccEchoProviderFactories are the provider factories plus the echo
// provider, which copies an ephemeral value into state for assertions.
func testAccEchoProviderFactories() map[string]func() (tfprotov6.ProviderServer, error) {
	f := map[string]func() (tfprotov6.ProviderServer, error){"echo": echoprovider.NewProviderServer()}
	for k, v := range testAccProtoV6ProviderFactories {
		f[k] = v
	}
	return f
}

// stateFunc adapts a function to statecheck.StateCheck.
type stateFunc func(ctx context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse)

func (f stateFunc) CheckState(ctx context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	f(ctx, req, resp)
}

// planFunc adapts a function to plancheck.PlanCheck.
type planFunc func(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse)

func (f planFunc) CheckPlan(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	f(ctx, req, resp)
}

// leakedTokens returns the tokens issued by emu that occur in doc (a plan
// or state marshalled to JSON).
func leakedTokens(emu *emulator.Server, doc []byte) []string {
	var out []string
	for _, tok := range emu.IssuedTokens() {
		if strings.Contains(string(doc), tok) {
			out = append(out, tok)
		}
	}
	return out
}

// noTokenInPlan fails when the JSON plan holds an access token issued by emu.
func noTokenInPlan(emu *emulator.Server) plancheck.PlanCheck {
	return planFunc(func(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
		doc, err := json.Marshal(req.Plan)
		if err != nil {
			resp.Error = err
			return
		}
		if len(emu.IssuedTokens()) == 0 {
			resp.Error = fmt.Errorf("no token was issued before the plan check")
			return
		}
		if leaked := leakedTokens(emu, doc); len(leaked) > 0 {
			resp.Error = fmt.Errorf("the plan holds %d issued access token(s)", len(leaked))
		}
	})
}

// stateResourceTypes lists the types of every resource in the state.
func stateResourceTypes(req statecheck.CheckStateRequest) []string {
	var types []string
	if req.State == nil || req.State.Values == nil || req.State.Values.RootModule == nil {
		return nil
	}
	for _, r := range req.State.Values.RootModule.Resources {
		types = append(types, r.Type)
	}
	return types
}

// checkEchoedToken checks the token that echo.token holds: issued by the
// emulator, accepted by its API, expiring about the emulator's token TTL
// from now, and present nowhere in the state but in echo.token.
func checkEchoedToken(emu *emulator.Server, ttl time.Duration) statecheck.StateCheck {
	return stateFunc(func(ctx context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		if got := stateResourceTypes(req); !slices.Equal(got, []string{"echo"}) {
			resp.Error = fmt.Errorf("state holds resources of types %v, want only [echo]", got)
			return
		}
		data, ok := req.State.Values.RootModule.Resources[0].AttributeValues["data"].(map[string]any)
		if !ok {
			resp.Error = fmt.Errorf("echo.token.data is not an object")
			return
		}
		tok, _ := data["access_token"].(string)
		if tok == "" {
			resp.Error = fmt.Errorf("access_token is empty")
			return
		}
		if !slices.Contains(emu.IssuedTokens(), tok) {
			resp.Error = fmt.Errorf("access_token was not issued by the emulator")
			return
		}
		raw, _ := data["expires_at"].(string)
		exp, err := time.Parse(time.RFC3339, raw)
		if err != nil {
			resp.Error = fmt.Errorf("expires_at %q is not RFC 3339: %w", raw, err)
			return
		}
		if now := time.Now(); !exp.After(now.Add(ttl-time.Minute)) || exp.After(now.Add(ttl+time.Minute)) {
			resp.Error = fmt.Errorf("expires_at %s is not about %s from now", raw, ttl)
			return
		}
		// The emulator accepts the token for a scope it carries.
		hr, err := http.NewRequestWithContext(ctx, http.MethodGet, emu.BaseURL()+"/transfer/fiat-accounts", nil)
		if err != nil {
			resp.Error = err
			return
		}
		hr.Header.Set("Authorization", "Bearer "+tok)
		res, err := http.DefaultClient.Do(hr)
		if err != nil {
			resp.Error = err
			return
		}
		_ = res.Body.Close()
		if res.StatusCode != http.StatusOK {
			resp.Error = fmt.Errorf("the emulator answered %d to a request with the token, want 200", res.StatusCode)
			return
		}
		// Only echo.token holds the token: once, in its data.
		doc, err := json.Marshal(req.State)
		if err != nil {
			resp.Error = err
			return
		}
		if n := strings.Count(string(doc), tok); n != 1 {
			resp.Error = fmt.Errorf("the state holds the token %d times, want once (in echo.token)", n)
		}
	})
}

// noTokenInState fails when the state holds an access token issued by emu,
// or a resource other than the given types.
func noTokenInState(emu *emulator.Server, resourceTypes ...string) statecheck.StateCheck {
	return stateFunc(func(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		if got := stateResourceTypes(req); !slices.Equal(got, resourceTypes) {
			resp.Error = fmt.Errorf("state holds resources of types %v, want %v", got, resourceTypes)
			return
		}
		doc, err := json.Marshal(req.State)
		if err != nil {
			resp.Error = err
			return
		}
		if leaked := leakedTokens(emu, doc); len(leaked) > 0 {
			resp.Error = fmt.Errorf("the state holds %d issued access token(s)", len(leaked))
		}
	})
}

// tokensFor is a state check that the emulator issued at least one token
// for exactly the scope string scope, that is, that the ephemeral resource
// was opened.
func tokensFor(emu *emulator.Server, scope string) statecheck.StateCheck {
	return stateFunc(func(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		if emu.Counters.Tokens(scope) == 0 {
			resp.Error = fmt.Errorf("no token was issued for scope %q", scope)
		}
	})
}

// tokenUsedByPrecondition is an ephemeral platform_access_token "t" with
// the scope transfer:read_deposit_address, and a terraform_data whose
// precondition wants the token longer than least (error message msg), with
// the lines extra last in its body.
func tokenUsedByPrecondition(least int, msg, extra string) string {
	return fmt.Sprintf(`
ephemeral "platform_access_token" "t" {
  scopes = ["transfer:read_deposit_address"]
}

resource "terraform_data" "uses_token" {
  lifecycle {
    precondition {
      condition     = length(ephemeral.platform_access_token.t.access_token) > %d
      error_message = %q
    }
  }%s}
`, least, msg, extra)
}

func TestAccAccessTokenEphemeralResource(t *testing.T) {
	t.Parallel()
	const ttl = 30 * time.Minute
	env := newAccEnv(t, emulator.Options{TokenTTL: ttl})
	env.needEmulator(t)
	emu := env.emu

	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: testAccEchoProviderFactories(),
		Steps: []resource.TestStep{
			{
				// Used without the echo provider, the token is in neither
				// plan nor state. (This step comes first: afterwards the
				// prior state of echo.token would hold a token.)
				Config: env.config(tokenUsedByPrecondition(0, "empty token", `
  # As in the example: a provisioner receives the token.
  provisioner "local-exec" {
    command = "test -n \"$PLATFORM_TOKEN\""
    environment = {
      PLATFORM_TOKEN = ephemeral.platform_access_token.t.access_token
    }
  }
`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{noTokenInPlan(emu)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					tokensFor(emu, "transfer:read_deposit_address"),
					noTokenInState(emu, "terraform_data"),
				},
			},
			{
				// The token reaches state only through the echo provider.
				Config: env.config(`
ephemeral "platform_access_token" "t" {
  scopes = ["transfer:read_fiat_account", "rewards:read_claims"]
}

provider "echo" {
  data = ephemeral.platform_access_token.t
}

resource "echo" "token" {}
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{noTokenInPlan(emu)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("echo.token", tfjsonpath.New("data").AtMapKey("token_type"),
						knownvalue.StringExact("Bearer")),
					statecheck.ExpectKnownValue("echo.token", tfjsonpath.New("data").AtMapKey("scopes"),
						knownvalue.ListExact([]knownvalue.Check{
							knownvalue.StringExact("transfer:read_fiat_account"),
							knownvalue.StringExact("rewards:read_claims"),
						})),
					// The emulator answers the granted scopes in its own order.
					statecheck.ExpectKnownValue("echo.token", tfjsonpath.New("data").AtMapKey("granted_scopes"),
						knownvalue.SetExact([]knownvalue.Check{
							knownvalue.StringExact("transfer:read_fiat_account"),
							knownvalue.StringExact("rewards:read_claims"),
						})),
					checkEchoedToken(emu, ttl),
					tokensFor(emu, "transfer:read_fiat_account rewards:read_claims"),
				},
			},
		},
	})
}

func TestAccAccessTokenEphemeralResource_errors(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t, emulator.Options{Clients: map[string]emulator.ClientCredentials{
		"reader": {Secret: "reader-secret", Scopes: []string{"transfer:read_fiat_account"}},
	}})
	env.needEmulator(t)
	emu := env.emu
	reader := emulatorProviderBlockFor(emu, "reader", "reader-secret", "")
	config := func(providerBlock, scopes string) string {
		return providerBlock + fmt.Sprintf(`
ephemeral "platform_access_token" "t" {
  scopes = %s
}

provider "echo" {
  data = ephemeral.platform_access_token.t
}

resource "echo" "token" {}
`, scopes)
	}

	steps := []resource.TestStep{}
	// Plan-time validation: nothing reaches the emulator.
	for _, tc := range []struct{ scopes, want string }{
		{`[]`, `(?s)scopes.*at least 1`},
		{`[""]`, `(?s)string length must be at least 1`},
		{`["a b"]`, `(?s)must not contain whitespace`},
		{`["transfer:read_fiat_account", "transfer:read_fiat_account"]`, `(?s)duplicate`},
	} {
		steps = append(steps, resource.TestStep{
			Config:      config(reader, tc.scopes),
			ExpectError: regexp.MustCompile(tc.want),
		})
	}
	steps = append(steps,
		// A scope the client is not allowed: the authorization server's
		// answer, without the client secret.
		resource.TestStep{
			Config:      config(reader, `["rewards:read_claims"]`),
			ExpectError: regexp.MustCompile(`(?s)Access token refused for these scopes.*rewards:read_claims`),
		},
		// Wrong credentials.
		resource.TestStep{
			Config:      config(emulatorProviderBlockFor(emu, "reader", "wrong-secret", ""), `["transfer:read_fiat_account"]`),
			ExpectError: regexp.MustCompile(`(?s)Authentication failed.*client_secret`),
		},
	)

	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		ProtoV6ProviderFactories: testAccEchoProviderFactories(),
		Steps:                    steps,
	})
	if n := emu.Counters.TotalTokens(); n != 0 {
		t.Errorf("the emulator issued %d tokens, want none", n)
	}
}

func TestDurationWords(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Minute:      "one minute",
		5 * time.Minute:  "5 minutes",
		90 * time.Second: "1m30s",
	} {
		if got := durationWords(d); got != want {
			t.Errorf("durationWords(%s) = %q, want %q", d, got, want)
		}
	}
}

// TestAccessTokenEphemeralResource_open opens the ephemeral resource through
// the protocol server, as Terraform does, without the Terraform CLI.
func TestAccessTokenEphemeralResource_open(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	// The action harness configures the provider server for emu.
	h := newActionHarness(t, emu, NewProtocol6Server, emulator.DefaultClientID, emulator.DefaultClientSecret, nil)
	ctx := t.Context()
	sresp, err := h.srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	es, ok := sresp.EphemeralResourceSchemas["platform_access_token"]
	if !ok {
		t.Fatal("the provider has no ephemeral resource platform_access_token")
	}
	for _, a := range es.Block.Attributes {
		if a.Name == "access_token" && !a.Sensitive {
			t.Error("access_token is not sensitive")
		}
	}
	typ, _ := es.ValueType().(tftypes.Object)
	scopes := tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{
		tftypes.NewValue(tftypes.String, "transfer:read_deposit_address"),
	})
	before := time.Now()
	resp, err := h.srv.OpenEphemeralResource(ctx, &tfprotov6.OpenEphemeralResourceRequest{
		TypeName: "platform_access_token",
		Config:   cwaDynamic(t, typ, cwaObject(typ, map[string]tftypes.Value{"scopes": scopes})),
	})
	if err != nil {
		t.Fatal(err)
	}
	cwaFailOnError(t, "OpenEphemeralResource", resp.Diagnostics)
	attrs := objectAttrs(t, resp.Result, typ)
	var tok, typeName, expires string
	for name, dst := range map[string]*string{"access_token": &tok, "token_type": &typeName, "expires_at": &expires} {
		if err := attrs[name].As(dst); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if tok == "" || !slices.Contains(emu.IssuedTokens(), tok) {
		t.Errorf("access_token %q was not issued by the emulator", tok)
	}
	if typeName != "Bearer" {
		t.Errorf("token_type = %q, want Bearer", typeName)
	}
	exp, err := time.Parse(time.RFC3339, expires)
	if err != nil || exp.Before(before.Add(59*time.Minute)) {
		t.Errorf("expires_at = %q (%v), want about an hour from now", expires, err)
	}
	if n := emu.Counters.Tokens("transfer:read_deposit_address"); n != 1 {
		t.Errorf("%d tokens issued for the scope, want 1", n)
	}
	if !resp.RenewAt.IsZero() || len(resp.Private) != 0 {
		t.Errorf("RenewAt %v, private %q: want neither (the token cannot be renewed)", resp.RenewAt, resp.Private)
	}
}
