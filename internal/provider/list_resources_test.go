package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

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

func TestAccListResources_queryAndGenerateConfig(t *testing.T) {
	emu := emulator.StartTest(t, emulator.Options{Transfers: 30})
	w := queryWorkdir(t)
	c, err := client.New(client.Config{
		ClientID: emulator.DefaultClientID, ClientSecret: emulator.DefaultClientSecret,
		BaseURL: emu.BaseURL(), AuthURL: emu.AuthURL(),
	})
	if err != nil {
		t.Fatal(err)
	}
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
	query := `
list "platform_fiat_deposit_instructions" "all" {
  provider = platform
}

list "platform_crypto_withdrawal" "queried" {
  provider = platform
  config {
    ref_ids = ["queried"]
  }
}
`
	if err := os.WriteFile(filepath.Join(w.dir, "find.tfquery.hcl"), []byte(query), 0o600); err != nil {
		t.Fatal(err)
	}
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
	idType := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String}}
	want := map[string]bool{}
	for _, tr := range emu.AllTransfers() {
		if tr.Type == "CRYPTO_WITHDRAWAL" && tr.Status == "PENDING" {
			want[tr.ID] = true
		}
	}
	got := map[string]bool{}
	for res := range stream.Results {
		cwaFailOnError(t, "ListResource", res.Diagnostics)
		v, err := res.Identity.IdentityData.Unmarshal(idType)
		if err != nil {
			t.Fatal(err)
		}
		var attrs map[string]tftypes.Value
		var id string
		if err := v.As(&attrs); err != nil || attrs["id"].As(&id) != nil {
			t.Fatalf("identity %v: %v", v, err)
		}
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
	files, err := filepath.Glob(filepath.Join(examplesRoot, "list-resources", "*", "*.tfquery.hcl"))
	if err != nil || len(files) != 2 {
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
