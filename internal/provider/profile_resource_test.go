package provider

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

const (
	profileAddr    = "platform_profile.treasury"
	profilePostKey = "POST /v2/profiles"
)

// profileConfig is a profile with the nickname and extra arguments.
func profileConfig(nickname, extra string) string {
	return fmt.Sprintf(`
resource "platform_profile" "treasury" {
  nickname = %q
%s}
`, nickname, extra)
}

// profileAt is the profile id of the emulator.
func profileAt(emu *emulator.Server, id string) (emulator.Profile, bool) {
	return withID(emu.Profiles(), id, func(p emulator.Profile) string { return p.ID })
}

// withID is the first of items whose id (idOf) is id.
func withID[T any](items []T, id string, idOf func(T) string) (T, bool) {
	for _, x := range items {
		if idOf(x) == id {
			return x, true
		}
	}
	var none T
	return none, false
}

// profilesNamed counts the profiles of the emulator whose nickname is
// nickname, deactivated ones included.
func profilesNamed(emu *emulator.Server, nickname string) int {
	n := 0
	for _, p := range emu.Profiles() {
		if strings.EqualFold(p.Nickname, nickname) {
			n++
		}
	}
	return n
}

// sandboxDeposit funds the profile as a test funds one in the service's
// sandbox: POST /sandbox/profiles/{id}/deposit.
func sandboxDeposit(t *testing.T, emu *emulator.Server, profileID, asset, amount string) {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {emulator.DefaultClientID},
		"client_secret": {emulator.DefaultClientSecret}, "scope": {client.ScopeReadProfile}}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, emu.AuthURL()+"/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var token struct {
		AccessToken string `json:"access_token"`
	}
	doJSON(t, req, &token)
	body := fmt.Sprintf(`{"asset":%q,"amount":%q}`, asset, amount)
	req, err = http.NewRequestWithContext(t.Context(), http.MethodPost,
		emu.BaseURL()+"/sandbox/profiles/"+url.PathEscape(profileID)+"/deposit", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token.AccessToken)
	var answer struct {
		ActivityID string `json:"activity_id"`
	}
	doJSON(t, req, &answer)
	if answer.ActivityID == "" {
		t.Fatalf("sandbox deposit to %s answered no activity_id", profileID)
	}
}

// spaced is s with every run of whitespace one space: Terraform wraps
// diagnostics.
func spaced(s string) string { return strings.Join(strings.Fields(s), " ") }

// doJSON sends req and decodes its 200 answer into v.
func doJSON(t *testing.T, req *http.Request, v any) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s %v", req.Method, req.URL.Path, resp.StatusCode, b, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// TestAccProfile_lifecycle: a create sends one POST after looking the
// nickname up; a rename is one PUT in place; import by id reads the same
// state; a destroy of a funded profile is refused at plan; destroy sends
// one deactivate.
func TestAccProfile_lifecycle(t *testing.T) {
	env, emu := emulatorEnv(t, emulator.Options{})
	var id string
	deactivateKey := func() string { return "PUT /v2/profiles/" + id + "/deactivate" }
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.config(profileConfig("Treasury", `  description = "Operating funds"`+"\n")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(profileAddr, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(profileAddr, tfjsonpath.New("nickname"), knownvalue.StringExact("Treasury")),
					statecheck.ExpectKnownValue(profileAddr, tfjsonpath.New("description"), knownvalue.StringExact("Operating funds")),
					statecheck.ExpectKnownValue(profileAddr, tfjsonpath.New("type"), knownvalue.StringExact("NORMAL")),
				},
				Check: resource.ComposeTestCheckFunc(
					checkRequests(emu, profilePostKey, 1, "%d POSTs after the create, want 1"),
					captureID(profileAddr, &id),
					func(s *terraform.State) error {
						if p, ok := profileAt(emu, id); !ok || p.Nickname != "Treasury" {
							return fmt.Errorf("the emulator holds %+v for %s", p, id)
						}
						if emu.Counters.Requests("GET /v2/profiles") < 1 {
							return fmt.Errorf("no lookup of the nickname before the POST")
						}
						return nil
					},
				),
			},
			{
				// A rename: one PUT, in place, no replacement.
				Config: env.config(profileConfig("Treasury EU", `  description = "Operating funds"`+"\n")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(profileAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(profileAddr, tfjsonpath.New("nickname"), knownvalue.StringExact("Treasury EU")),
				},
				Check: resource.ComposeTestCheckFunc(
					checkRequests(emu, profilePostKey, 1, "%d POSTs after the rename, want 1"),
					func(s *terraform.State) error {
						got, _ := stateAttr(s, profileAddr, "id")
						if n := emu.Counters.Requests("PUT /v2/profiles/" + id); n != 1 || got != id {
							return fmt.Errorf("%d PUTs and id %s after the rename, want 1 PUT and id %s", n, got, id)
						}
						if p, _ := profileAt(emu, id); p.Nickname != "Treasury EU" {
							return fmt.Errorf("the emulator holds %+v", p)
						}
						return nil
					},
				),
			},
			{
				ResourceName:      profileAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				// Funded, the profile cannot be deactivated: the plan of its
				// destroy is refused with the balance, and nothing is sent.
				PreConfig:   func() { sandboxDeposit(t, emu, id, "USD", "10") },
				Config:      env.providerBlock,
				ExpectError: regexp.MustCompile(`(?s)Profile\s+\S+\s+holds\s+a\s+balance\s+above\s+zero.*10\s+USD\s+available.*Nothing\s+was\s+sent`),
			},
			{
				PreConfig: func() {
					if n := emu.Counters.Requests(deactivateKey()); n != 0 {
						t.Fatalf("%d deactivations after the refused plan, want 0", n)
					}
					emu.SetBalance(id, "USD", "0")
				},
				Config: env.config(profileConfig("Treasury EU", `  description = "Operating funds"`+"\n")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(profileAddr, plancheck.ResourceActionNoop),
				}},
			},
		},
		CheckDestroy: resource.ComposeTestCheckFunc(
			func(*terraform.State) error {
				if n := emu.Counters.Requests(deactivateKey()); n != 1 || !emu.ProfileDeactivated(id) {
					return fmt.Errorf("%d deactivations, deactivated %t; want 1 and true", n, emu.ProfileDeactivated(id))
				}
				return nil
			},
			checkRequests(emu, profilePostKey, 1, "%d POSTs in all, want 1"),
		),
	})
}

// TestAccProfile_lostAnswer runs the CLI: a nickname another profile has
// is refused at plan and at apply with that profile's id and import block,
// and no POST; a create whose answer is lost records the profile it made,
// found by its nickname, without a second POST; a destroy of a funded
// profile is refused at plan, its balances its only read and nothing sent.
func TestAccProfile_lostAnswer(t *testing.T) {
	t.Parallel()
	requireTFAcc(t)
	opts := emulator.Options{}
	checkContract(t, &opts)
	emu := emulator.StartTest(t, opts)
	w := newCLIWorkdir(t)
	c := emulatorClient(t, emu)
	other, err := c.CreateProfile(t.Context(), client.CreateProfileRequest{Nickname: "Payroll"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	emu.Counters.Reset()
	provider := emulatorProviderBlock(emu, "  max_retries = 0\n")
	w.write(provider, profileConfig("payroll", ""))
	refusedAtPlanAndApply(t, w, "Nickname already used by profile "+other.ID, "import {",
		`id = "`+other.ID+`"`, "Nothing was sent")
	if n := emu.Counters.Requests(profilePostKey); n != 0 {
		t.Fatalf("%d POSTs, want none", n)
	}

	// The service makes the profile and its answer is lost (500): the
	// apply finds it by its nickname and records it; one profile, one POST.
	emu.Faults.AcceptThenFail(1)
	w.write(provider, profileConfig("Treasury", ""))
	r := w.mustRun(0, "apply", "-auto-approve")
	if !strings.Contains(spaced(r.output()), "was created earlier, not created again") {
		t.Errorf("apply output does not say the profile was found:\n%s", r.output())
	}
	id, _ := stateOf(t, w, profileAddr)["id"].(string)
	if p, ok := profileAt(emu, id); !ok || p.Nickname != "Treasury" || profilesNamed(emu, "Treasury") != 1 {
		t.Fatalf("state id %q, emulator %+v", id, emu.Profiles())
	}
	if n := emu.Counters.Requests(profilePostKey); n != 1 {
		t.Errorf("%d POSTs, want the 1 whose answer was lost", n)
	}
	w.mustRun(0, "plan", "-detailed-exitcode")

	// A rename to the nickname of another profile is refused at plan.
	w.write(provider, profileConfig("PAYROLL", ""))
	r = w.mustRun(1, "plan")
	mustContain(t, "plan of the rename", r.output(), "Nickname already used by profile "+other.ID, "Choose another nickname")
	if n := emu.Counters.Requests("PUT /v2/profiles/" + id); n != 0 {
		t.Errorf("%d PUTs for a refused rename, want 0", n)
	}
	w.write(provider, profileConfig("Treasury", ""))

	// Funded: the destroy is refused at plan; the balances are its only
	// read beyond the refresh, and nothing is written.
	sandboxDeposit(t, emu, id, "USDC", "2.5")
	emu.Counters.Reset()
	for _, cmd := range [][]string{{"plan", "-destroy"}, {"destroy", "-auto-approve"}} {
		r = w.mustRun(1, cmd...)
		if !strings.Contains(spaced(r.output()), spaced("2.5 USDC available")) {
			t.Errorf("%s output lacks the balance:\n%s", cmd[0], r.output())
		}
	}
	all := emu.Counters.AllRequests()
	t.Logf("requests of the two refused destroys: %v", all)
	for key, n := range all {
		if strings.Contains(key, " /v2/") && !strings.HasPrefix(key, "GET ") {
			t.Errorf("%d × %s during the refused destroys, want no write", n, key)
		}
	}
	if n := all["GET /v2/profiles/"+id+"/balances"]; n != 2 {
		t.Errorf("%d balance reads for 2 refused plans, want 2", n)
	}
	emu.SetBalance(id, "USDC", "0")
	w.mustRun(0, "destroy", "-auto-approve")
	if !emu.ProfileDeactivated(id) || emu.Counters.Requests("PUT /v2/profiles/"+id+"/deactivate") != 1 {
		t.Errorf("after destroy: deactivated %t, %d deactivations", emu.ProfileDeactivated(id),
			emu.Counters.Requests("PUT /v2/profiles/"+id+"/deactivate"))
	}
}

// TestAccProfile_query lists the profiles with `terraform query`
// (Terraform 1.14+).
func TestAccProfile_query(t *testing.T) {
	t.Parallel()
	env, emu := emulatorEnv(t, emulator.Options{})
	c := emulatorClient(t, emu)
	var ids []string
	for _, n := range []string{"Ops North", "Ops South", "Payroll"} {
		p, err := c.CreateProfile(t.Context(), client.CreateProfileRequest{Nickname: n}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Query: true,
			Config: env.config(`
list "platform_profile" "ops" {
  provider = platform
  config {
    nickname = "ops"
  }
}
`),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("platform_profile.ops", 2),
				querycheck.ExpectIdentity("platform_profile.ops", map[string]knownvalue.Check{"id": knownvalue.StringExact(ids[0])}),
				querycheck.ExpectIdentity("platform_profile.ops", map[string]knownvalue.Check{"id": knownvalue.StringExact(ids[1])}),
			},
		}},
	})
}

// madeProfiles lists the NORMAL profiles of the emulator as the objects of
// the exactly-once helpers.
func madeProfiles(emu *emulator.Server) []moneyObject {
	return objectsWhere(emu.Profiles(), func(p emulator.Profile) bool { return p.Type == emulator.ProfileTypeNormal },
		func(p emulator.Profile) moneyObject { return moneyObject{ID: p.ID, Summary: p.Nickname} })
}

// startObserved starts an emulator whose exchanges are held against the
// published reference and, with observe, handed to observe with the
// emulator.
func startObserved(t *testing.T, observe func(*emulator.Server, emulator.Exchange)) *emulator.Server {
	t.Helper()
	var emu *emulator.Server
	opts := emulator.Options{}
	if observe != nil {
		opts.Observe = func(ex emulator.Exchange) { observe(emu, ex) }
	}
	checkContract(t, &opts)
	emu = emulator.StartTest(t, opts)
	return emu
}

// failLookupAfterLostCreate is an observer that, once a profile create is
// answered 500 (its answer lost), fails the next request (the lookup
// after it) with a 503.
func failLookupAfterLostCreate() func(*emulator.Server, emulator.Exchange) {
	var failed atomic.Bool
	return func(emu *emulator.Server, ex emulator.Exchange) {
		if ex.Method == http.MethodPost && ex.URL.Path == "/v2/profiles" && ex.Status == http.StatusInternalServerError && failed.CompareAndSwap(false, true) {
			emu.Faults.ServerErrors(1, http.StatusServiceUnavailable)
		}
	}
}

// refusedAtPlanAndApply runs plan, then apply, in w: each must fail, and
// its output (whitespace folded) hold every one of want.
func refusedAtPlanAndApply(t *testing.T, w *cliWorkdir, want ...string) {
	t.Helper()
	for _, cmd := range [][]string{{"plan"}, {"apply", "-auto-approve"}} {
		r := w.mustRun(1, cmd...)
		for _, s := range want {
			if !strings.Contains(spaced(r.output()), spaced(s)) {
				t.Errorf("%s output lacks %q:\n%s", cmd[0], s, r.output())
			}
		}
	}
}

// TestAccProfile_exactlyOnce: a create without a ref_id is made once
// whatever happens to its answer. An answer lost and a lookup that fails
// after it: the state records the attempt, the next plan says the apply
// records the profile, and it does without a second POST. A timeout: the
// client's retry finds the profile by its nickname instead of sending it
// again. A run killed during the create: the next plan names the profile
// it made and its import block, which adopts it; one profile in all.
func TestAccProfile_exactlyOnce(t *testing.T) {
	t.Parallel()
	requireTFAcc(t)
	start := func(t *testing.T, extra string, observe func(*emulator.Server, emulator.Exchange)) (*emulator.Server, *cliWorkdir) {
		emu := startObserved(t, observe)
		w := newCLIWorkdir(t)
		w.write(emulatorProviderBlock(emu, extra), profileConfig("Treasury", ""))
		return emu, w
	}
	one := func(t *testing.T, emu *emulator.Server, w *cliWorkdir) {
		t.Helper()
		made := madeProfiles(emu)
		if len(made) != 1 {
			t.Fatalf("the emulator holds %d profiles, want 1: %+v", len(made), made)
		}
		if id, _ := stateOf(t, w, profileAddr)["id"].(string); id != made[0].ID {
			t.Fatalf("the state holds %q, the emulator %s", id, made[0].ID)
		}
		if n := emu.Counters.Requests(profilePostKey); n != 1 {
			t.Errorf("%d POSTs, want 1", n)
		}
		w.mustRun(0, "plan", "-detailed-exitcode")
	}

	t.Run("unconfirmed", func(t *testing.T) {
		t.Parallel()
		// The lookup after the lost answer fails too.
		emu, w := start(t, "  max_retries = 0\n", failLookupAfterLostCreate())
		emu.Faults.AcceptThenFail(1)
		r := w.mustRun(1, "apply", "-auto-approve")
		mustContain(t, "apply", r.output(), "Outcome of profile create unknown", "The state records the attempt")
		r = w.mustRun(0, "plan")
		mustContain(t, "plan", r.output(), "Profile was created earlier", "Applying records it and sends nothing")
		r = w.mustRun(0, "apply", "-auto-approve")
		mustContain(t, "apply", r.output(), "was created earlier, not created again")
		one(t, emu, w)
	})

	t.Run("timeout", func(t *testing.T) {
		t.Parallel()
		emu, w := start(t, "  request_timeout = \"1s\"\n", nil)
		emu.Faults.AcceptThenHang(1, time.Hour)
		w.mustRun(0, "apply", "-auto-approve")
		one(t, emu, w)
	})

	t.Run("killed", func(t *testing.T) {
		t.Parallel()
		emu, w := start(t, "", nil)
		interruptMidApply(t, w, emu, moneyResource{list: madeProfiles}, syscall.SIGKILL)
		made := madeProfiles(emu)
		if len(made) != 1 {
			t.Fatalf("the killed run left %d profiles, want 1", len(made))
		}
		r := w.mustRun(1, "plan")
		mustContain(t, "plan after the kill", r.output(), "Nickname already used by profile "+made[0].ID, "import {",
			`id = "`+made[0].ID+`"`)
		w.write(emulatorProviderBlock(emu, ""), profileConfig("Treasury", "")+fmt.Sprintf(`
import {
  to = %s
  id = %q
}
`, profileAddr, made[0].ID))
		r = w.mustRun(0, "apply", "-auto-approve")
		mustContain(t, "apply of the import", r.output(), "1 imported, 0 added, 0 changed, 0 destroyed")
		one(t, emu, w)
	})
}

// TestAccProfile_defaultProfile: the default profile is imported like any
// other, and a plan that would deactivate it is refused, reading nothing;
// a removed block forgets it.
func TestAccProfile_defaultProfile(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	env.needEmulator(t)
	emu := env.emu
	id := emu.DefaultProfileID()
	const addr = "platform_profile.default"
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.config(fmt.Sprintf(`
import {
  to = %s
  id = %q
}
resource "platform_profile" "default" {
  nickname = "default"
}
`, addr, id)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(id)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("type"), knownvalue.StringExact("DEFAULT")),
				},
			},
			{
				Config:      env.providerBlock,
				ExpectError: regexp.MustCompile(`(?s)Destroying\s+the\s+default\s+profile\s+is\s+refused.*removed\s+block`),
			},
			{
				PreConfig: func() {
					if n := emu.Counters.Requests("GET /v2/profiles/" + id + "/balances"); n != 0 {
						t.Errorf("%d balance reads for the default profile, want 0", n)
					}
				},
				Config: env.config(`
removed {
  from = platform_profile.default
  lifecycle {
    destroy = false
  }
}
`),
			},
		},
		CheckDestroy: func(*terraform.State) error {
			if emu.ProfileDeactivated(id) || emu.Counters.Requests("PUT /v2/profiles/"+id+"/deactivate") != 0 {
				return fmt.Errorf("the default profile was deactivated")
			}
			return nil
		},
	})
}

// TestAccProfile_replacement: a new description replaces the profile (the
// service cannot change it), which deactivates the old one: refused at
// plan while it holds a balance; once it is empty, the old profile is
// deactivated and a new one made under the same nickname.
func TestAccProfile_replacement(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	env.needEmulator(t)
	emu := env.emu
	var first string
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.config(profileConfig("Reserve", `  description = "Cold reserve"`+"\n")),
				Check:  captureID(profileAddr, &first),
			},
			{
				PreConfig:   func() { sandboxDeposit(t, emu, first, "BTC", "0.1") },
				Config:      env.config(profileConfig("Reserve", `  description = "Reserve"`+"\n")),
				ExpectError: regexp.MustCompile(`(?s)holds\s+a\s+balance\s+above\s+zero.*Replacing\s+profile.*0\.1\s+BTC\s+available`),
			},
			{
				PreConfig: func() { emu.SetBalance(first, "BTC", "0") },
				Config:    env.config(profileConfig("Reserve", `  description = "Reserve"`+"\n")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(profileAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(profileAddr, tfjsonpath.New("description"), knownvalue.StringExact("Reserve")),
				},
				Check: func(s *terraform.State) error {
					id, _ := stateAttr(s, profileAddr, "id")
					if id == first || !emu.ProfileDeactivated(first) || emu.Counters.Requests(profilePostKey) != 2 {
						return fmt.Errorf("after the replacement: id %s (was %s), old deactivated %t, %d POSTs",
							id, first, emu.ProfileDeactivated(first), emu.Counters.Requests(profilePostKey))
					}
					return nil
				},
			},
		},
	})
}

// TestAccProfile_lostAnswerAdoptsOnlyItsOwn: after a create whose answer is
// lost (a 502 that made nothing), the next plan and apply record the
// profile found under the nickname only with evidence that the attempt
// made it: the nickname and description it sent, made after it started,
// no other candidate. A profile another team made with that nickname, or
// one made before the attempt and renamed to it, is refused, named (id,
// nickname, creation) with the import block, and a destroy does not
// deactivate it. The attempt's own profile is still recorded.
func TestAccProfile_lostAnswerAdoptsOnlyItsOwn(t *testing.T) {
	t.Parallel()
	requireTFAcc(t)
	cfg := profileConfig("Treasury", "  description = \"Treasury desk\"\n")
	start := func(t *testing.T, observe func(*emulator.Server, emulator.Exchange)) (*emulator.Server, *client.Client, *cliWorkdir) {
		emu := startObserved(t, observe)
		w := newCLIWorkdir(t)
		w.write(emulatorProviderBlock(emu, "  max_retries = 0\n"), cfg)
		return emu, emulatorClient(t, emu), w
	}
	// lose runs an apply whose create is answered 502 and makes nothing.
	lose := func(t *testing.T, emu *emulator.Server, w *cliWorkdir) {
		t.Helper()
		emu.Faults.WriteErrors(1, http.StatusBadGateway)
		r := w.mustRun(1, "apply", "-auto-approve")
		mustContain(t, "apply of the lost create", r.output(), "Outcome of profile create unknown", "The state records the attempt")
		if n := profilesNamed(emu, "Treasury"); n != 0 {
			t.Fatalf("the lost create made %d profiles", n)
		}
	}
	// refused checks that plan and apply refuse the profile p, naming it,
	// record nothing, and that a destroy leaves it active.
	refused := func(t *testing.T, emu *emulator.Server, w *cliWorkdir, p *client.Profile, why ...string) {
		t.Helper()
		emu.Counters.Reset()
		for _, cmd := range [][]string{{"plan"}, {"apply", "-auto-approve"}} {
			r := w.mustRun(1, cmd...)
			mustContain(t, cmd[0], spaced(r.output()), append([]string{
				"Profile " + p.ID + " was not made by the lost create", "id: " + p.ID, "nickname: Treasury",
				"Nothing was sent", "import {", `id = "` + p.ID + `"`}, why...)...)
			if st := stateOf(t, w, profileAddr); st["id"] != nil {
				t.Fatalf("%s recorded %v", cmd[0], st)
			}
		}
		if n := emu.Counters.Requests(profilePostKey); n != 0 {
			t.Errorf("%d POSTs, want none", n)
		}
		// A destroy plans with the configuration first, which refuses it
		// likewise; without that refresh it forgets the unconfirmed state.
		// Neither deactivates the profile.
		r := w.mustRun(1, "destroy", "-auto-approve")
		mustContain(t, "destroy", spaced(r.output()), "Profile "+p.ID+" was not made by the lost create")
		w.mustRun(0, "destroy", "-auto-approve", "-refresh=false")
		if emu.ProfileDeactivated(p.ID) || emu.Counters.Requests("PUT /v2/profiles/"+p.ID+"/deactivate") != 0 {
			t.Errorf("the destroy deactivated the other team's profile %s", p.ID)
		}
		if r := w.mustRun(0, "state", "list"); strings.TrimSpace(r.stdout) != "" {
			t.Errorf("state after the destroy: %s", r.stdout)
		}
	}

	t.Run("made by another team", func(t *testing.T) {
		t.Parallel()
		emu, c, w := start(t, nil)
		lose(t, emu, w)
		other, err := c.CreateProfile(t.Context(), client.CreateProfileRequest{Nickname: "Treasury", Description: "Team B"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		refused(t, emu, w, other, "created_at: after the attempt started",
			`description: the attempt sent "Treasury desk", the object holds "Team B"`)
	})

	t.Run("made before the attempt", func(t *testing.T) {
		t.Parallel()
		emu, c, w := start(t, nil)
		old, err := c.CreateProfile(t.Context(), client.CreateProfileRequest{Nickname: "Old desk", Description: "Treasury desk"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		emu.Advance(time.Hour)
		lose(t, emu, w)
		if _, err := c.UpdateProfile(t.Context(), old.ID, "Treasury"); err != nil {
			t.Fatal(err)
		}
		refused(t, emu, w, old, "created_at: before the attempt started", "not after the attempt started")
	})

	t.Run("its own", func(t *testing.T) {
		t.Parallel()
		// The lookup after the lost answer fails too.
		emu, _, w := start(t, failLookupAfterLostCreate())
		emu.Faults.AcceptThenFail(1)
		r := w.mustRun(1, "apply", "-auto-approve")
		mustContain(t, "apply", r.output(), "Outcome of profile create unknown")
		made := madeProfiles(emu)
		if len(made) != 1 {
			t.Fatalf("the emulator holds %d profiles, want 1", len(made))
		}
		r = w.mustRun(0, "plan")
		mustContain(t, "plan", spaced(r.output()), "Profile was created earlier", "after the attempt started",
			"Applying records it and sends nothing")
		w.mustRun(0, "apply", "-auto-approve")
		st := stateOf(t, w, profileAddr)
		if st["id"] != made[0].ID || st["nickname"] != "Treasury" || st["description"] != "Treasury desk" || st["type"] != "NORMAL" {
			t.Fatalf("state %v, the emulator's profile %+v", st, made[0])
		}
		if n := emu.Counters.Requests(profilePostKey); n != 1 {
			t.Errorf("%d POSTs, want 1", n)
		}
		w.mustRun(0, "plan", "-detailed-exitcode")
	})
}
