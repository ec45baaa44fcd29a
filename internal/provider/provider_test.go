package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/contract"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// testAccProtoV6ProviderFactories serves the provider in-process to
// Terraform, with short retry waits so that fault tests stay fast. It is
// the server main.go serves (NewProtocol6Server).
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"platform": NewProtocol6Server(newTestProvider()),
}

func newTestProvider() provider.Provider {
	p := New("test")().(*platformProvider) //nolint:forcetypeassert // New always returns *platformProvider.
	p.retryWaitMin, p.retryWaitMax = 5*time.Millisecond, 50*time.Millisecond
	// The emulator of a test counts no requests: pacing at a thousand
	// times the published rates costs the suite no time.
	p.rates = &testRates
	return p
}

// testRates are the rates the provider and the clients of the tests pace
// to.
var testRates = client.PublishedRates.Scaled(1000)

// accEnv is the service an acceptance test runs against: an in-process
// emulator on 127.0.0.1:0 by default, or the real service when
// PLATFORM_ACC_REAL=1 and the PLATFORM_* variables are set.
type accEnv struct {
	// emu is nil against the real service.
	emu *emulator.Server
	// providerBlock configures the provider for this service.
	providerBlock string
}

// realService reports whether acceptance tests run against the real service.
func realService() bool { return os.Getenv("PLATFORM_ACC_REAL") == "1" }

// newAccEnv starts an emulator with opts (or selects the real service).
func newAccEnv(t *testing.T, opts emulator.Options) *accEnv {
	t.Helper()
	if realService() {
		for _, v := range []string{EnvClientID, EnvClientSecret, EnvBaseURL, EnvAuthURL} {
			if os.Getenv(v) == "" {
				t.Fatalf("PLATFORM_ACC_REAL=1 needs %s to be set", v)
			}
		}
		return &accEnv{providerBlock: `provider "platform" {}` + "\n"}
	}
	checkContract(t, &opts)
	emu := emulator.New(opts)
	if err := emu.Start("127.0.0.1:0"); err != nil {
		t.Fatalf("starting emulator: %v", err)
	}
	t.Cleanup(emu.Close)
	return &accEnv{emu: emu, providerBlock: emulatorProviderBlock(emu, "")}
}

// checkContract holds every request the provider sends to the emulator of
// opts, and every answer of the emulator, against the published reference
// (internal/contract); the test fails on a violation. An emulator made to
// answer outside the reference on purpose (the seed's service among them)
// has only its requests checked.
func checkContract(t testing.TB, opts *emulator.Options) {
	t.Helper()
	faithful := !opts.FiatAccountStatusNested && !opts.ErrorBodyCodeMessage && opts.Profile != emulator.ProfileSeed
	chk, err := contract.NewChecker(true, faithful)
	if err != nil {
		t.Fatal(err)
	}
	observe := opts.Observe
	opts.Observe = func(ex emulator.Exchange) {
		chk.Observe(ex)
		if observe != nil {
			observe(ex)
		}
	}
	t.Cleanup(func() {
		for _, v := range chk.Violations() {
			t.Errorf("outside the published reference: %s", v)
		}
	})
}

// emulatorProviderBlock is a provider block for emu with the default
// client and extra arguments (HCL lines).
func emulatorProviderBlock(emu *emulator.Server, extra string) string {
	return emulatorProviderBlockFor(emu, emulator.DefaultClientID, emulator.DefaultClientSecret, extra)
}

// emulatorProviderBlockFor is a provider block for emu with the given
// client credentials (see emulator.Options.Clients) and extra arguments.
func emulatorProviderBlockFor(emu *emulator.Server, clientID, clientSecret, extra string) string {
	return providerBlockAt(clientID, clientSecret, emu.BaseURL(), emu.AuthURL(), emu.WSURL(), extra)
}

// providerBlockAt is a provider block with the given client credentials,
// URLs and extra arguments (HCL lines).
func providerBlockAt(clientID, clientSecret, baseURL, authURL, wsURL, extra string) string {
	return fmt.Sprintf(`provider "platform" {
  client_id     = %q
  client_secret = %q
  base_url      = %q
  auth_url      = %q
  ws_url        = %q
%s}
`, clientID, clientSecret, baseURL, authURL, wsURL, extra)
}

// emulatorClient is a client of emu's default client, for tests that make
// objects at the service the way another configuration or an earlier run
// would.
func emulatorClient(t *testing.T, emu *emulator.Server) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{RateStateDir: t.TempDir(),
		ClientID: emulator.DefaultClientID, ClientSecret: emulator.DefaultClientSecret,
		BaseURL: emu.BaseURL(), AuthURL: emu.AuthURL(), Rates: &testRates,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// needEmulator skips tests that need the emulator's seeded data, counters
// or fault switches when running against the real service.
func (e *accEnv) needEmulator(t *testing.T) {
	t.Helper()
	if e.emu == nil {
		t.Skip("needs the emulator (counters, seeded data or fault switches); skipped against the real service")
	}
}

// emulatorEnv is newAccEnv for a test that needs the emulator (needEmulator),
// with the emulator.
func emulatorEnv(t *testing.T, opts emulator.Options) (*accEnv, *emulator.Server) {
	t.Helper()
	env := newAccEnv(t, opts)
	env.needEmulator(t)
	return env, env.emu
}

// needMoneyMovement skips tests that create objects when running against
// the real service, unless PLATFORM_ACC_REAL_WRITE=1 explicitly allows it.
func (e *accEnv) needMoneyMovement(t *testing.T) {
	t.Helper()
	if e.emu == nil && os.Getenv("PLATFORM_ACC_REAL_WRITE") != "1" {
		t.Skip("creates objects on the service; set PLATFORM_ACC_REAL_WRITE=1 to run it against the real service")
	}
}

// config returns the provider block followed by body.
func (e *accEnv) config(body ...string) string {
	return e.providerBlock + strings.Join(body, "\n")
}

// checkRequests fails unless the emulator received exactly want requests
// key ("METHOD /path"); msg is the failure message, with %d for the count.
func checkRequests(emu *emulator.Server, key string, want int, msg string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := emu.Counters.Requests(key); n != want {
			return fmt.Errorf(msg, n)
		}
		return nil
	}
}

// Helpers shared by the acceptance tests.

// requireTFAcc skips a test whose own assertions follow resource.Test, which
// runs nothing unless TF_ACC is set.
func requireTFAcc(t *testing.T) {
	t.Helper()
	if os.Getenv(resource.EnvTfAcc) == "" {
		t.Skipf("acceptance test: set %s=1 to run it", resource.EnvTfAcc)
	}
}

// stateAttr reads one flat attribute of a resource from the state.
func stateAttr(s *terraform.State, addr, attr string) (string, error) {
	rs, ok := s.RootModule().Resources[addr]
	if !ok {
		return "", fmt.Errorf("%s not in state", addr)
	}
	v, ok := rs.Primary.Attributes[attr]
	if !ok {
		return "", fmt.Errorf("%s has no attribute %s", addr, attr)
	}
	return v, nil
}

// stateAttrs reads flat attributes of a resource from the state, one
// for each of attrs.
func stateAttrs(s *terraform.State, addr string, attrs ...string) ([]string, error) {
	out := make([]string, len(attrs))
	for i, attr := range attrs {
		v, err := stateAttr(s, addr, attr)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// stateHolds checks that each flat attribute of addr in the state is what
// want says the emulator has.
func stateHolds(s *terraform.State, addr string, want map[string]string) error {
	for attr, v := range want {
		got, err := stateAttr(s, addr, attr)
		if err != nil {
			return err
		}
		if got != v {
			return fmt.Errorf("%s.%s = %q, emulator has %q", addr, attr, got, v)
		}
	}
	return nil
}

// errorRe matches the words of msg in a Terraform diagnostic, whatever the
// line wrapping.
func errorRe(msg string) *regexp.Regexp {
	words := strings.Fields(msg)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	return regexp.MustCompile(strings.Join(words, `\s+`))
}

// rfc3339 is t as the provider renders times.
func rfc3339(t time.Time) string { return t.Format(time.RFC3339Nano) }

// strOrNull is the expected value of an optional string: null when absent
// or empty.
func strOrNull(s string) knownvalue.Check {
	if s == "" {
		return knownvalue.Null()
	}
	return knownvalue.StringExact(s)
}

func ptrOrNull(p *string) knownvalue.Check { return knownOrNull(p, strOrNull) }

// knownOrNull is null for a nil p, and known(*p) otherwise.
func knownOrNull[T any](p *T, known func(T) knownvalue.Check) knownvalue.Check {
	if p == nil {
		return knownvalue.Null()
	}
	return known(*p)
}

// testRejectedAtPlan plans the data source typeName with each of the
// arguments in cases and expects the error of the case, which must also
// show the argument (Terraform prints the offending line), and no request
// at all.
func testRejectedAtPlan(t *testing.T, env *accEnv, typeName string, cases []struct{ args, err string }) {
	t.Helper()
	steps := make([]resource.TestStep, len(cases))
	for i, c := range cases {
		name := strings.TrimSpace(strings.SplitN(c.args, "=", 2)[0])
		re := errorRe(c.err)
		if !strings.Contains(c.err, name) {
			// The message does not name the argument: Terraform's snippet
			// of the configuration, printed after the summary, must show it.
			re = regexp.MustCompile(`(?s)` + re.String() + `.*` + regexp.QuoteMeta(name) + `\s*=`)
		}
		steps[i] = resource.TestStep{
			Config:      env.config(fmt.Sprintf("data %q \"test\" {\n%s\n}\n", typeName, c.args)),
			ExpectError: re,
			PlanOnly:    true,
		}
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
	if env.emu != nil {
		if n := env.emu.Counters.APIRequests(); n != 0 {
			t.Fatalf("%d API requests were sent for configurations rejected at plan time", n)
		}
	}
}

// hclStrings renders ss as an HCL list of strings.
func hclStrings(ss ...string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// hclManyStrings is an HCL list of n distinct strings.
func hclManyStrings(n int) string {
	ss := make([]string, n)
	for i := range ss {
		ss[i] = fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
	}
	return hclStrings(ss...)
}

// itemsPath is the path of attr of items[i].
func itemsPath(i int, attrs ...string) tfjsonpath.Path {
	p := tfjsonpath.New("items").AtSliceIndex(i)
	for _, a := range attrs {
		p = p.AtMapKey(a)
	}
	return p
}

// testFilterCases reads every case in one configuration, one data block
// per case (c0, c1, ...), by one apply of the CLI: each must hold exactly
// its items, and key must reach the emulator as many times as the cases
// add up to, during the apply's one read. The state is read once, by
// terraform show: the cases' lists run to thousands of items, and the
// plans the test harness adds to a step would read them all again.
func testFilterCases(t *testing.T, env *accEnv, typeName, key string, cases []filterCase) {
	t.Helper()
	var blocks []string
	var checks []statecheck.StateCheck
	requests := 0
	for i, c := range cases {
		name := fmt.Sprintf("c%d", i)
		blocks = append(blocks, fmt.Sprintf("data %q %q {\n%s\n}\n", typeName, name, c.args))
		addr := "data." + typeName + "." + name
		checks = append(checks, expectIDs(addr, c.want)...)
		checks = append(checks, statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"),
			knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{32}$`))))
		if c.extra != nil {
			checks = append(checks, c.extra(addr)...)
		}
		requests += c.requests
	}
	w := newCLIWorkdir(t)
	w.write(env.providerBlock, strings.Join(blocks, "\n"))
	env.emu.Counters.Reset()
	w.mustRun(0, "apply", "-auto-approve")
	if n := env.emu.Counters.Requests(key); n != requests {
		t.Errorf("%s: %d requests, want %d", key, n, requests)
	}
	var state tfjson.State
	if err := json.Unmarshal([]byte(w.mustRun(0, "show", "-json").stdout), &state); err != nil {
		t.Fatalf("show -json: %v", err)
	}
	for _, c := range checks {
		var resp statecheck.CheckStateResponse
		c.CheckState(t.Context(), statecheck.CheckStateRequest{State: &state}, &resp)
		if resp.Error != nil {
			t.Error(resp.Error)
		}
	}
}

// idsWhere returns the ids (their ID field) of the items of all that keep
// passes, newest first (the API's default order: the emulator holds them
// oldest first) unless asc.
func idsWhere[T any](all []T, asc bool, keep func(T) bool) []string {
	ids := []string{}
	for _, it := range all {
		if keep(it) {
			ids = append(ids, itemID(it))
		}
	}
	if !asc {
		slices.Reverse(ids)
	}
	return ids
}

// itemID is the ID field of an item.
func itemID[T any](it T) string { return reflect.ValueOf(it).FieldByName("ID").String() }

// every keeps every item (idsWhere).
func every[T any](T) bool { return true }

// seededItems starts an emulator seeded as opts says, for the tests of a
// list data source, and returns its environment, the items list reads
// from it, and their ids newest first.
func seededItems[T any](t *testing.T, opts emulator.Options, list func(*emulator.Server) []T) (*accEnv, []T, []string) {
	t.Helper()
	env, emu := emulatorEnv(t, opts)
	all := list(emu)
	return env, all, idsWhere(all, false, every)
}

// wholeItems returns checks that the items at indexes of the data source
// at addr are whole as known(index) says.
func wholeItems(indexes []int, known func(i int) knownvalue.Check) func(addr string) []statecheck.StateCheck {
	return func(addr string) []statecheck.StateCheck {
		var checks []statecheck.StateCheck
		for _, i := range indexes {
			checks = append(checks, statecheck.ExpectKnownValue(addr, itemsPath(i), known(i)))
		}
		return checks
	}
}

// firstItemsWhole returns checks that, for each of matches, the first of
// the items with ids (in the list's order) that it takes is whole as known
// says. The items are those of all; each of matches must take one, or the
// test fails, naming it.
func firstItemsWhole[T any](t *testing.T, all []T, ids []string, matches map[string]func(T) bool,
	known func(T) knownvalue.Check) func(addr string) []statecheck.StateCheck {
	t.Helper()
	byID := map[string]T{}
	for _, it := range all {
		byID[itemID(it)] = it
	}
	var picks []int
	for what, match := range matches {
		i := slices.IndexFunc(ids, func(id string) bool { return match(byID[id]) })
		if i < 0 {
			t.Fatalf("the seeded data has no item with %s", what)
		}
		picks = append(picks, i)
	}
	return wholeItems(picks, func(i int) knownvalue.Check { return known(byID[ids[i]]) })
}

// expectIDs checks that the data source addr has exactly the items with
// these ids, in this order; an empty ids means an empty list, not null.
func expectIDs(addr string, ids []string) []statecheck.StateCheck {
	return []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, tfjsonpath.New("items"), itemIDs(ids))}
}

// diagRegexp matches text in Terraform's output, where long diagnostics
// are wrapped: each space may be any run of white space.
func diagRegexp(text string) *regexp.Regexp {
	words := strings.Fields(text)
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	return regexp.MustCompile(strings.Join(words, `\s+`))
}

// filterCase is one configuration of a list data source and what it must
// read: exactly the items with ids want, in order, in this many requests.
type filterCase struct {
	args     string
	want     []string
	requests int
	// extra, when set, returns more checks of the data source at addr.
	extra func(addr string) []statecheck.StateCheck
}

// itemIDs is a knownvalue.Check of a list of objects: their id attributes
// must be exactly ids, in order.
type itemIDs []string

func (want itemIDs) String() string { return fmt.Sprintf("%d items with the expected ids", len(want)) }

func (want itemIDs) CheckValue(v any) error {
	items, ok := v.([]any)
	if !ok {
		return fmt.Errorf("expected a list of %d items, got %T", len(want), v)
	}
	if len(items) != len(want) {
		return fmt.Errorf("expected %d items, got %d", len(want), len(items))
	}
	for i, it := range items {
		obj, _ := it.(map[string]any)
		if id, _ := obj["id"].(string); id != want[i] {
			return fmt.Errorf("items[%d].id is %q, want %q", i, id, want[i])
		}
	}
	return nil
}
