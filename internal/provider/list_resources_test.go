package provider

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// queryWorkdir is a CLI working directory whose Terraform has
// `terraform query` (1.14+); the test is skipped otherwise.
func queryWorkdir(t *testing.T) *cliWorkdir {
	t.Helper()
	w := newCLIWorkdir(t)
	if terraformVersion(t, w.tf).LessThan(version.Must(version.NewVersion("1.14.0"))) {
		t.Skip("terraform query and list resources need Terraform 1.14 or later")
	}
	return w
}

// writeQuery writes query as the query file of w (find.tfquery.hcl).
func writeQuery(t *testing.T, w *cliWorkdir, query string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, "find.tfquery.hcl"), []byte(query), 0o600); err != nil {
		t.Fatal(err)
	}
}

// listAll is a query with a list block "all" of each of types, through the
// default provider configuration.
func listAll(types ...string) string {
	var blocks []string
	for _, typ := range types {
		blocks = append(blocks, fmt.Sprintf("list %q \"all\" {\n  provider = platform\n}\n", typ))
	}
	return strings.Join(blocks, "\n")
}

func TestAccListResources_queryAndGenerateConfig(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{Transfers: 30})
	w := queryWorkdir(t)
	c := emulatorClient(t, emu)
	const n = 3
	for i := range n {
		if _, err := c.CreateFiatDepositInstructions(t.Context(), client.FiatDepositInstructionsRequest{
			ProfileID: "prof-1", FiatNetwork: "WIRE", RefID: "made-elsewhere-" + string(rune('a'+i)),
		}); err != nil {
			t.Fatal(err)
		}
	}
	made := postWithdrawal(t, emu, "queried")
	w.write(emulatorProviderBlock(emu, ""), "")
	writeQuery(t, w, listAll("platform_fiat_deposit_instructions")+`
list "platform_crypto_withdrawal" "queried" {
  provider = platform
  config {
    ref_ids = ["queried"]
  }
}
`)
	r := w.mustRun(0, "query")
	for _, want := range []string{"memo_id", made, "ref_id queried"} {
		if !strings.Contains(r.output(), want) {
			t.Errorf("query output lacks %q:\n%s", want, r.output())
		}
	}
	if got := strings.Count(r.output(), "list.platform_fiat_deposit_instructions.all"); got != n {
		t.Errorf("query lists %d instructions, want %d:\n%s", got, n, r.output())
	}
	w.mustRun(0, "query", "-generate-config-out=generated.tf")
	gen, err := os.ReadFile(filepath.Join(w.dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(gen), "import {"); got != n+1 {
		t.Errorf("generated configuration has %d import blocks, want %d:\n%s", got, n+1, gen)
	}
	// The generated configuration imports what exists and changes nothing.
	r = w.mustRun(0, "apply", "-auto-approve")
	if want := "4 imported, 0 added, 0 changed, 0 destroyed"; !strings.Contains(r.output(), want) {
		t.Errorf("apply of the generated configuration: want %q:\n%s", want, r.output())
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
	onlyTransfer(t, emu)
	if got := len(emu.FiatDepositInstructions()); got != n {
		t.Errorf("the emulator holds %d instruction sets, want %d", got, n)
	}
	if got := emu.Counters.Requests(cwPostKey); got != 1 {
		t.Errorf("%d withdrawal POSTs, want the 1 made before the query", got)
	}
}

// TestListResourcesThroughProtocol lists instructions and withdrawals
// through the provider's protocol 6 server, as Terraform 1.14+ does, and
// checks the identity schemas Terraform 1.12+ reads.
func TestListResourcesThroughProtocol(t *testing.T) {
	emu := emulator.StartTest(t, emulator.Options{Transfers: 50})
	for _, ref := range []string{"p-1", "p-2"} {
		postWithdrawal(t, emu, ref)
	}
	h := newActionHarness(t, emu, NewProtocol6Server, emulator.DefaultClientID, emulator.DefaultClientSecret, nil)
	srv, ok := h.srv.(tfprotov6.ListResourceServer)
	if !ok {
		t.Fatalf("the server %T does not serve list resources", h.srv)
	}
	ctx := t.Context()
	ids, err := h.srv.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"platform_crypto_withdrawal", "platform_fiat_deposit_instructions"} {
		s := ids.IdentitySchemas[typ]
		if s == nil || len(s.IdentityAttributes) != 1 || s.IdentityAttributes[0].Name != "id" || !s.IdentityAttributes[0].RequiredForImport {
			t.Errorf("identity schema of %s = %+v, want one attribute id required for import", typ, s)
		}
	}
	sch, err := h.srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	ls := sch.ListResourceSchemas["platform_crypto_withdrawal"]
	if ls == nil {
		t.Fatal("no list resource schema for platform_crypto_withdrawal")
	}
	cfgType, _ := ls.ValueType().(tftypes.Object)
	cfg := cwaDynamic(t, cfgType, cwaObject(cfgType, map[string]tftypes.Value{
		"statuses": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "PENDING")}),
	}))
	stream, err := srv.ListResource(ctx, &tfprotov6.ListResourceRequest{
		TypeName: "platform_crypto_withdrawal", Config: cfg, IncludeResource: true, Limit: 100,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, tr := range emu.AllTransfers() {
		if tr.Type == "CRYPTO_WITHDRAWAL" && tr.Status == "PENDING" {
			want[tr.ID] = true
		}
	}
	got := map[string]bool{}
	for res := range stream.Results {
		cwaFailOnError(t, "ListResource", res.Diagnostics)
		id := identityID(t, res.Identity)
		got[id] = true
		if res.Resource == nil || res.DisplayName == "" {
			t.Errorf("result %s has no resource or display name", id)
		}
	}
	if len(got) != len(want) || len(want) < 3 {
		t.Fatalf("listed %d pending withdrawals, the emulator has %d", len(got), len(want))
	}
	for id := range want {
		if !got[id] {
			t.Errorf("withdrawal %s not listed", id)
		}
	}
}

// TestAccListResources_examples runs the query examples of the docs.
func TestAccListResources_examples(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(examplesRoot, "list-resources", "*", "*.tfquery.hcl"))
	if err != nil || len(files) != len(newTestProvider().(*platformProvider).ListResources(t.Context())) {
		t.Fatalf("query examples %v (%v), want one per list resource", files, err)
	}
	emu := emulator.StartTest(t, emulator.Options{Transfers: 10})
	w := queryWorkdir(t)
	w.write(emulatorProviderBlock(emu, ""), "")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(w.dir, filepath.Base(filepath.Dir(f))+".tfquery.hcl"), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	w.mustRun(0, "query")
}

// listThroughProtocol validates the list resource typeName configured with
// set and, when that passes, lists it as Terraform 1.14+ does. It returns
// the ids listed and the diagnostics of validation, or of the listing.
func listThroughProtocol(t *testing.T, h *actionHarness, typeName string, set map[string]tftypes.Value) ([]string, []*tfprotov6.Diagnostic) {
	t.Helper()
	ctx := t.Context()
	srv, ok := h.srv.(tfprotov6.ListResourceServer)
	if !ok {
		t.Fatalf("the server %T does not serve list resources", h.srv)
	}
	sch, err := h.srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	ls := sch.ListResourceSchemas[typeName]
	if ls == nil {
		t.Fatalf("no list resource schema for %s", typeName)
	}
	cfgType, _ := ls.ValueType().(tftypes.Object)
	cfg := cwaDynamic(t, cfgType, cwaObject(cfgType, set))
	v, err := srv.ValidateListResourceConfig(ctx, &tfprotov6.ValidateListResourceConfigRequest{TypeName: typeName, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if hasErrorDiagnostic(v.Diagnostics) {
		return nil, v.Diagnostics
	}
	stream, err := srv.ListResource(ctx, &tfprotov6.ListResourceRequest{TypeName: typeName, Config: cfg, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for res := range stream.Results {
		if hasErrorDiagnostic(res.Diagnostics) {
			return ids, res.Diagnostics
		}
		id := identityID(t, res.Identity)
		ids = append(ids, id)
	}
	return ids, nil
}

// TestListFiltersEmptyArrayThroughProtocol checks, through the protocol
// server, that an empty array filter means the same on both surfaces: a
// list resource and a list data source list nothing and send no request,
// while the same filter with values lists what it names; and that a null
// element is refused at validation on both, on the attribute.
func TestListFiltersEmptyArrayThroughProtocol(t *testing.T) {
	emu := emulator.StartTest(t, emulator.Options{})
	w1, w2 := postWithdrawal(t, emu, "empty-1"), postWithdrawal(t, emu, "empty-2")
	c := emulatorClient(t, emu)
	var instructions []string
	for _, ref := range []string{"fdi-1", "fdi-2"} {
		f, err := c.CreateFiatDepositInstructions(t.Context(), client.FiatDepositInstructionsRequest{
			ProfileID: "prof-1", FiatNetwork: "WIRE", RefID: ref,
		})
		if err != nil {
			t.Fatal(err)
		}
		instructions = append(instructions, f.ID)
	}
	var accounts []string
	for _, ref := range []string{"fa-1", "fa-2"} {
		a, err := c.CreateFiatAccount(t.Context(), client.CreateFiatAccountRequest{
			RefID: ref, FiatAccountOwner: client.FiatAccountOwner{InstitutionDetails: &client.InstitutionDetails{Name: &ref}},
			FiatNetworkInstructions: client.FiatNetworkInstructions{DBSAct: &client.AccountNumberInstructions{AccountNumber: &ref}},
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		accounts = append(accounts, *a.ID)
	}
	h := newActionHarness(t, emu, NewProtocol6Server, emulator.DefaultClientID, emulator.DefaultClientSecret, nil)
	const listInstructionsKey = "GET /v2/transfer/fiat-deposit-instructions"
	null := tftypes.NewValue(tftypes.String, nil)
	withNull := tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tfString("PENDING"), null})

	for _, c := range []struct {
		name, typeName, key string
		set                 map[string]tftypes.Value
		want                []string
		requests            int
	}{
		{"withdrawals, no filter", "platform_crypto_withdrawal", listTransfersKey, nil, []string{w2, w1}, 1},
		{"withdrawals by ref_id", "platform_crypto_withdrawal", listTransfersKey,
			map[string]tftypes.Value{"ref_ids": tfStrings("empty-1", "empty-2")}, []string{w2, w1}, 1},
		{"withdrawals, ref_ids = []", "platform_crypto_withdrawal", listTransfersKey,
			map[string]tftypes.Value{"ref_ids": tfStrings()}, []string{}, 0},
		{"withdrawals, ref_ids = [] beside other filters", "platform_crypto_withdrawal", listTransfersKey,
			map[string]tftypes.Value{"ref_ids": tfStrings(), "statuses": tfStrings("PENDING"), "profile_ids": tfStrings("prof-1")}, []string{}, 0},
		{"withdrawals, profile_ids = []", "platform_crypto_withdrawal", listTransfersKey,
			map[string]tftypes.Value{"profile_ids": tfStrings()}, []string{}, 0},
		{"withdrawals, statuses = []", "platform_crypto_withdrawal", listTransfersKey,
			map[string]tftypes.Value{"statuses": tfStrings()}, []string{}, 0},
		{"instructions, no filter", "platform_fiat_deposit_instructions", listInstructionsKey, nil,
			[]string{instructions[1], instructions[0]}, 1},
		{"fiat accounts by ref_id", "platform_fiat_account", "GET /v2/transfer/fiat-accounts",
			map[string]tftypes.Value{"ref_ids": tfStrings("fa-1", "fa-2")}, []string{accounts[1], accounts[0]}, 1},
		{"fiat accounts, ids = []", "platform_fiat_account", "GET /v2/transfer/fiat-accounts",
			map[string]tftypes.Value{"ids": tfStrings()}, []string{}, 0},
		{"instructions, ids = []", "platform_fiat_deposit_instructions", listInstructionsKey,
			map[string]tftypes.Value{"ids": tfStrings()}, []string{}, 0},
		{"instructions, ref_ids = []", "platform_fiat_deposit_instructions", listInstructionsKey,
			map[string]tftypes.Value{"ref_ids": tfStrings(), "ids": tfStrings(instructions...)}, []string{}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := emu.Counters.Requests(c.key)
			got, diags := listThroughProtocol(t, h, c.typeName, c.set)
			cwaFailOnError(t, "list", diags)
			if !slices.Equal(got, c.want) {
				t.Errorf("listed %q, want %q", got, c.want)
			}
			if n := emu.Counters.Requests(c.key) - before; n != c.requests {
				t.Errorf("%d list requests, want %d", n, c.requests)
			}
		})
	}

	t.Run("null element refused by the list resources", func(t *testing.T) {
		for typeName, attrs := range map[string][]string{
			"platform_crypto_withdrawal":         {"profile_ids", "ref_ids", "statuses"},
			"platform_fiat_deposit_instructions": {"ids", "ref_ids"},
		} {
			for _, a := range attrs {
				before := emu.Counters.APIRequests()
				_, diags := listThroughProtocol(t, h, typeName, map[string]tftypes.Value{a: withNull})
				checkNullElementRefused(t, typeName, a, diags)
				if n := emu.Counters.APIRequests() - before; n != 0 {
					t.Errorf("%s %s: %d requests, want none", typeName, a, n)
				}
			}
		}
	})

	// The list data source of the same objects, through the same server.
	srv := h.srv
	sch, err := srv.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	dsType, _ := sch.DataSourceSchemas["platform_transfers"].ValueType().(tftypes.Object)
	readTransfers := func(t *testing.T, set map[string]tftypes.Value) (map[string]tftypes.Value, []*tfprotov6.Diagnostic) {
		t.Helper()
		cfg := cwaDynamic(t, dsType, cwaObject(dsType, set))
		v, err := srv.ValidateDataResourceConfig(t.Context(), &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "platform_transfers", Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		if hasErrorDiagnostic(v.Diagnostics) {
			return nil, v.Diagnostics
		}
		r, err := srv.ReadDataSource(t.Context(), &tfprotov6.ReadDataSourceRequest{TypeName: "platform_transfers", Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		cwaFailOnError(t, "ReadDataSource", r.Diagnostics)
		return objectAttrs(t, r.State, dsType), nil
	}
	t.Run("platform_transfers, ref_ids = [] and with values", func(t *testing.T) {
		for _, c := range []struct {
			refs     tftypes.Value
			items    int
			requests int
		}{{tfStrings(), 0, 0}, {tfStrings("empty-1", "empty-2"), 2, 1}} {
			before := emu.Counters.Requests(listTransfersKey)
			attrs, diags := readTransfers(t, map[string]tftypes.Value{"ref_ids": c.refs})
			cwaFailOnError(t, "platform_transfers", diags)
			if n := len(listOf(t, attrs["items"])); n != c.items {
				t.Errorf("ref_ids = %v: %d items, want %d", c.refs, n, c.items)
			}
			if n := emu.Counters.Requests(listTransfersKey) - before; n != c.requests {
				t.Errorf("ref_ids = %v: %d list requests, want %d", c.refs, n, c.requests)
			}
		}
	})
	t.Run("null element refused by platform_transfers", func(t *testing.T) {
		before := emu.Counters.APIRequests()
		_, diags := readTransfers(t, map[string]tftypes.Value{"ref_ids": withNull})
		checkNullElementRefused(t, "platform_transfers", "ref_ids", diags)
		if n := emu.Counters.APIRequests() - before; n != 0 {
			t.Errorf("%d requests, want none", n)
		}
	})
}

// checkNullElementRefused checks that diags hold exactly one error, the
// refusal of a null element, on the attribute attr.
func checkNullElementRefused(t *testing.T, typeName, attr string, diags []*tfprotov6.Diagnostic) {
	t.Helper()
	var errs []*tfprotov6.Diagnostic
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			errs = append(errs, d)
		}
	}
	want := tftypes.NewAttributePath().WithAttributeName(attr)
	if len(errs) != 1 || errs[0].Summary != "Null List Value" || errs[0].Attribute == nil || !errs[0].Attribute.Equal(want) ||
		!strings.HasPrefix(errs[0].Detail, "This attribute contains a null value: "+attr+"[1] is null.") {
		for _, d := range errs {
			t.Logf("%s: %s: %s (at %v)", typeName, d.Summary, d.Detail, d.Attribute)
		}
		t.Errorf("%s %s = [\"PENDING\", null]: want one error Null List Value on %s, got %d errors", typeName, attr, attr, len(errs))
	}
}

// listRequests is a query check that the emulator received exactly want
// requests key since its counters were last reset.
type listRequests struct {
	emu  *emulator.Server
	key  string
	want int
}

func (c listRequests) CheckQuery(_ context.Context, _ querycheck.CheckQueryRequest, resp *querycheck.CheckQueryResponse) {
	if n := c.emu.Counters.Requests(c.key); n != c.want {
		resp.Error = fmt.Errorf("the emulator received %d requests %s, want %d", n, c.key, c.want)
	}
}

// TestAccListFilters_emptyArrayMatchesNothing runs `terraform query` and a
// plan of platform_transfers while two withdrawals exist: ref_ids = []
// lists none of them on both surfaces and sends no list request, and the
// same filter naming them lists both.
func TestAccListFilters_emptyArrayMatchesNothing(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t, emulator.Options{})
	env.needEmulator(t)
	emu := env.emu
	refs := []string{"acc-empty-1", "acc-empty-2"}
	w1, w2 := postWithdrawal(t, emu, refs[0]), postWithdrawal(t, emu, refs[1])
	if n := len(emu.AllTransfers()); n != 2 {
		t.Fatalf("the emulator holds %d transfers, want the 2 withdrawals", n)
	}
	list := func(name, args string) string {
		if args == "" {
			return fmt.Sprintf("list \"platform_crypto_withdrawal\" %q {\n  provider = platform\n}\n", name)
		}
		return fmt.Sprintf("list \"platform_crypto_withdrawal\" %q {\n  provider = platform\n  config {\n    %s\n  }\n}\n", name, args)
	}
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: emu.Counters.Reset,
				Config:    env.config(`data "platform_transfers" "empty" { ref_ids = [] }`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.platform_transfers.empty", tfjsonpath.New("items"), knownvalue.ListExact([]knownvalue.Check{})),
				},
				Check: checkRequests(emu, listTransfersKey, 0, "platform_transfers with ref_ids = []: %d list requests, want 0"),
			},
			{
				PreConfig: emu.Counters.Reset,
				Query:     true,
				Config:    list("empty", "ref_ids = []") + list("empty_beside", `ref_ids = []`+"\n    statuses = [\"PENDING\"]"),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("platform_crypto_withdrawal.empty", 0),
					querycheck.ExpectLength("platform_crypto_withdrawal.empty_beside", 0),
					listRequests{emu, listTransfersKey, 0},
				},
			},
			{
				// The same query naming the two withdrawals lists both.
				PreConfig: emu.Counters.Reset,
				Query:     true,
				Config:    list("named", "ref_ids = "+hclStrings(refs...)) + list("all", ""),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("platform_crypto_withdrawal.named", 2),
					querycheck.ExpectLength("platform_crypto_withdrawal.all", 2),
					querycheck.ExpectIdentity("platform_crypto_withdrawal.named", map[string]knownvalue.Check{"id": knownvalue.StringExact(w1)}),
					querycheck.ExpectIdentity("platform_crypto_withdrawal.named", map[string]knownvalue.Check{"id": knownvalue.StringExact(w2)}),
					listRequests{emu, listTransfersKey, 2},
				},
			},
			{
				// A null element is refused, on its attribute, before any
				// request.
				PreConfig:   emu.Counters.Reset,
				Query:       true,
				Config:      list("null", `ref_ids = ["acc-empty-1", null]`),
				ExpectError: regexp.MustCompile(`Null List Value.*This attribute contains a null value: ref_ids\[1\] is null`),
			},
		},
	})
	if n := emu.Counters.APIRequests(); n != 0 {
		t.Errorf("the query refused for its null element sent %d API requests, want none", n)
	}
}

// A service that ignores the type filter lists deposits and credits among
// the withdrawals: the list resource skips each with a warning, so that no
// configuration generated from its results imports them.
func TestListResourceSkipsTransfersOfOtherTypes(t *testing.T) {
	emu := emulator.StartTest(t, emulator.Options{Transfers: 60})
	next := emu.Handler()
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v2/transfer/transfers" {
			q := r.URL.Query()
			q.Del("type")
			r.URL.RawQuery = q.Encode()
		}
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	postWithdrawal(t, emu, "p-1")
	h := newActionHarness(t, emu, NewProtocol6Server, emulator.DefaultClientID, emulator.DefaultClientSecret, map[string]tftypes.Value{
		"base_url": tftypes.NewValue(tftypes.String, front.URL+"/v2"),
		"auth_url": tftypes.NewValue(tftypes.String, front.URL),
	})
	srv := h.srv.(tfprotov6.ListResourceServer)
	sch, err := h.srv.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	cfgType, _ := sch.ListResourceSchemas["platform_crypto_withdrawal"].ValueType().(tftypes.Object)
	stream, err := srv.ListResource(t.Context(), &tfprotov6.ListResourceRequest{
		TypeName: "platform_crypto_withdrawal", Config: cwaDynamic(t, cfgType, cwaObject(cfgType, nil)),
		IncludeResource: true, Limit: 1000,
	})
	if err != nil {
		t.Fatal(err)
	}
	want, others := map[string]bool{}, 0
	for _, tr := range emu.AllTransfers() {
		if tr.Type == "CRYPTO_WITHDRAWAL" && tr.Direction == "DEBIT" {
			want[tr.ID] = true
		} else {
			others++
		}
	}
	got, skipped := map[string]bool{}, 0
	for res := range stream.Results {
		cwaFailOnError(t, "ListResource", res.Diagnostics)
		if res.Identity == nil {
			if len(res.Diagnostics) != 1 || res.Diagnostics[0].Severity != tfprotov6.DiagnosticSeverityWarning ||
				!strings.Contains(res.Diagnostics[0].Detail, "configuration cannot declare it as one") {
				t.Errorf("a result without identity has diagnostics %+v, want one warning", res.Diagnostics)
			}
			skipped++
			continue
		}
		id := identityID(t, res.Identity)
		if !want[id] {
			t.Errorf("transfer %s listed, but it is not a crypto withdrawal", id)
		}
		got[id] = true
	}
	if len(got) != len(want) || skipped != others || others == 0 {
		t.Fatalf("listed %d withdrawals and skipped %d others; the emulator has %d withdrawals and %d others",
			len(got), skipped, len(want), others)
	}
}

// identityID is the id of a list result's identity.
func identityID(t *testing.T, identity *tfprotov6.ResourceIdentityData) string {
	t.Helper()
	idType := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String}}
	v, err := identity.IdentityData.Unmarshal(idType)
	if err != nil {
		t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	var id string
	if err := v.As(&attrs); err != nil || attrs["id"].As(&id) != nil {
		t.Fatalf("identity %v: %v", v, err)
	}
	return id
}

// A transfer list resource sends the one filter List Transfers takes of
// those set (ref_ids, else profile_ids, else statuses, else the types with
// the limit), which the client accepts, and checks the others, the types
// included, on each transfer answered.
func TestTransferListSendsWhatTheServiceCombines(t *testing.T) {
	types := []string{"CRYPTO_WITHDRAWAL"}
	ref := func(s string) *string { return &s }
	w := func(refID, profile, status string) *client.Transfer {
		return &client.Transfer{Type: "CRYPTO_WITHDRAWAL", RefID: ref(refID), ProfileID: profile, Status: status}
	}
	deposit := &client.Transfer{Type: "CRYPTO_DEPOSIT", RefID: ref("r1"), ProfileID: "p1", Status: "PENDING"}
	cases := []struct {
		name    string
		f       client.ListTransfersQuery
		sent    client.ListTransfersQuery
		kept    []*client.Transfer
		notKept []*client.Transfer
	}{
		{"no filter", client.ListTransfersQuery{}, client.ListTransfersQuery{Types: types, MaxItems: 50},
			[]*client.Transfer{w("r1", "p1", "PENDING"), deposit}, nil},
		{"ref_ids, profile_ids and statuses", client.ListTransfersQuery{RefIDs: []string{"r1"}, ProfileIDs: []string{"p1"}, Statuses: []string{"PENDING"}},
			client.ListTransfersQuery{RefIDs: []string{"r1"}},
			[]*client.Transfer{w("r1", "p1", "PENDING")},
			[]*client.Transfer{w("r2", "p1", "PENDING"), w("r1", "p2", "PENDING"), w("r1", "p1", "FAILED"), deposit}},
		{"profile_ids and statuses", client.ListTransfersQuery{ProfileIDs: []string{"p1"}, Statuses: []string{"FAILED"}},
			client.ListTransfersQuery{ProfileIDs: []string{"p1"}},
			[]*client.Transfer{w("r9", "p1", "FAILED")},
			[]*client.Transfer{w("r9", "p1", "PENDING"), w("r9", "p2", "FAILED")}},
		{"statuses", client.ListTransfersQuery{Statuses: []string{"FAILED"}},
			client.ListTransfersQuery{Statuses: []string{"FAILED"}},
			[]*client.Transfer{w("r9", "p1", "FAILED")},
			[]*client.Transfer{{Type: "CRYPTO_DEPOSIT", Status: "FAILED"}}},
	}
	for _, c := range cases {
		q, keep := transferServiceQuery(types, c.f, 50)
		if !reflect.DeepEqual(q, c.sent) {
			t.Errorf("%s: sent %+v, want %+v", c.name, q, c.sent)
		}
		for _, tr := range c.kept {
			if !keep(tr) {
				t.Errorf("%s: %+v not kept", c.name, tr)
			}
		}
		for _, tr := range c.notKept {
			if keep(tr) {
				t.Errorf("%s: %+v kept", c.name, tr)
			}
		}
	}
}
