package provider

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// protoHarness drives the provider's protocol 6 server directly, as
// Terraform does, against an emulator.
type protoHarness struct {
	srv     tfprotov6.ProviderServer
	schemas map[string]*tfprotov6.Schema
}

// newProtoHarness configures a server for emu: the provider's streaming
// server (NewProtocol6Server), or a plain framework server.
func newProtoHarness(tb testing.TB, emu *emulator.Server, streaming bool) *protoHarness {
	tb.Helper()
	factory := providerserver.NewProtocol6WithError(newTestProvider())
	if streaming {
		factory = NewProtocol6Server(newTestProvider())
	}
	srv, err := factory()
	if err != nil {
		tb.Fatal(err)
	}
	ctx := tb.Context()
	sresp, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		tb.Fatal(err)
	}
	failOnDiags(tb, "GetProviderSchema", sresp.Diagnostics)
	ptype, _ := sresp.Provider.ValueType().(tftypes.Object)
	config := objectOf(ptype, map[string]tftypes.Value{
		"client_id":     tfString(emulator.DefaultClientID),
		"client_secret": tfString(emulator.DefaultClientSecret),
		"base_url":      tfString(emu.BaseURL()),
		"auth_url":      tfString(emu.AuthURL()),
	})
	cresp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: dynamicValue(tb, ptype, config)})
	if err != nil {
		tb.Fatal(err)
	}
	failOnDiags(tb, "ConfigureProvider", cresp.Diagnostics)
	return &protoHarness{srv: srv, schemas: sresp.DataSourceSchemas}
}

// configType is the object type of the data source typeName.
func (h *protoHarness) configType(tb testing.TB, typeName string) tftypes.Object {
	tb.Helper()
	s, ok := h.schemas[typeName]
	if !ok {
		tb.Fatalf("no data source %s", typeName)
	}
	t, _ := s.ValueType().(tftypes.Object)
	return t
}

// readRaw reads the data source typeName with the configured attributes
// set (the others null) and returns the response.
func (h *protoHarness) readRaw(tb testing.TB, ctx context.Context, typeName string, set map[string]tftypes.Value) *tfprotov6.ReadDataSourceResponse {
	tb.Helper()
	typ := h.configType(tb, typeName)
	resp, err := h.srv.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{
		TypeName: typeName,
		Config:   dynamicValue(tb, typ, objectOf(typ, set)),
	})
	if err != nil {
		tb.Fatal(err)
	}
	return resp
}

// read reads typeName and returns its state's attributes, failing on any
// error diagnostic.
func (h *protoHarness) read(tb testing.TB, typeName string, set map[string]tftypes.Value) map[string]tftypes.Value {
	tb.Helper()
	resp := h.readRaw(tb, tb.Context(), typeName, set)
	failOnDiags(tb, "ReadDataSource "+typeName, resp.Diagnostics)
	return objectAttrs(tb, resp.State, h.configType(tb, typeName))
}

// objectAttrs decodes dv, an object of type typ, into its attributes.
func objectAttrs(tb testing.TB, dv *tfprotov6.DynamicValue, typ tftypes.Type) map[string]tftypes.Value {
	tb.Helper()
	v, err := dv.Unmarshal(typ)
	if err != nil {
		tb.Fatalf("the value does not match its type: %v", err)
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		tb.Fatal(err)
	}
	return attrs
}

func failOnDiags(tb testing.TB, what string, diags []*tfprotov6.Diagnostic) {
	tb.Helper()
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			tb.Fatalf("%s: %s: %s", what, d.Summary, d.Detail)
		}
	}
}

// objectOf is an object of typ with the attributes in set and every other
// attribute null.
func objectOf(typ tftypes.Object, set map[string]tftypes.Value) tftypes.Value {
	vals := make(map[string]tftypes.Value, len(typ.AttributeTypes))
	for name, t := range typ.AttributeTypes {
		if v, ok := set[name]; ok {
			vals[name] = v
		} else {
			vals[name] = tftypes.NewValue(t, nil)
		}
	}
	return tftypes.NewValue(typ, vals)
}

func dynamicValue(tb testing.TB, typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	tb.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		tb.Fatal(err)
	}
	return &dv
}

func tfString(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

func tfBool(b bool) tftypes.Value { return tftypes.NewValue(tftypes.Bool, b) }

// listOf returns the elements of the list v.
func listOf(tb testing.TB, v tftypes.Value) []tftypes.Value {
	tb.Helper()
	var out []tftypes.Value
	if err := v.As(&out); err != nil {
		tb.Fatal(err)
	}
	return out
}

// equivalenceItems is the number of items
// TestEquivalenceListStateStreamed seeds for each list data source (more
// than a page, and a last page that is not full).
var equivalenceItems = map[string]int{
	"platform_fiat_accounts":                1200,
	"platform_deposit_addresses":            300,
	"platform_reward_claims":                250,
	"platform_transfers":                    1100,
	"platform_transfer_limits":              40,
	"platform_crypto_destination_addresses": 1050,
}

// TestEquivalenceListStateStreamed checks, for each list data source the
// provider registers, that the state the streaming server sends (written
// by bypass.ReadList) is exactly the state a plain framework server
// builds, and that both hold every seeded item.
func TestEquivalenceListStateStreamed(t *testing.T) {
	t.Parallel()
	lists := registeredLists(t)
	var opts emulator.Options
	for _, typ := range lists {
		if n, ok := equivalenceItems[typ]; ok {
			listFixture(t, typ).Seed(&opts, n)
		}
	}
	emu := emulator.StartTest(t, opts)
	streaming := newProtoHarness(t, emu, true)
	plain := newProtoHarness(t, emu, false)
	for _, typeName := range lists {
		t.Run(typeName, func(t *testing.T) {
			want, ok := equivalenceItems[typeName]
			if !ok {
				t.Fatalf("no row in equivalenceItems for %s", typeName)
			}
			set := listFixture(t, typeName).Args
			a := streaming.read(t, typeName, set)
			b := plain.read(t, typeName, set)
			got := listOf(t, a["items"])
			if len(got) != want {
				t.Fatalf("streamed %d items, want %d", len(got), want)
			}
			// The streaming server sent the bytes readList wrote (items in
			// an array with a 32-bit length), not the framework's encoding.
			raw := streaming.readRaw(t, t.Context(), typeName, set).State.MsgPack
			mark := binary.BigEndian.AppendUint32([]byte("\xa5items\xdd"), uint32(want))
			if !bytes.Contains(raw, mark) {
				t.Fatal("the streaming server did not send the state written by readList")
			}
			if fw := plain.readRaw(t, t.Context(), typeName, set).State.MsgPack; bytes.Contains(fw, mark) {
				t.Fatal("the framework's encoding of items is not told apart from readList's")
			}
			typ := streaming.configType(t, typeName)
			if sa, sb := tftypes.NewValue(typ, a), tftypes.NewValue(typ, b); !sa.Equal(sb) {
				diffs, _ := sa.Diff(sb)
				t.Fatalf("streamed and framework states differ in %d places, first %v", len(diffs), diffs[0].Path)
			}
		})
	}
}

// TestListStateAPIErrorIsDiagnostic checks that a failing page is an error
// diagnostic that says what failed, and that no partial state is sent.
func TestListStateAPIErrorIsDiagnostic(t *testing.T) {
	emu := emulator.StartTest(t, emulator.Options{FiatAccounts: 1500})
	h := newProtoHarness(t, emu, true)
	// Every attempt (the first and each retry) answers 500.
	emu.Faults.OnlyPath("/v2/transfer/fiat-accounts")
	emu.Faults.ServerErrors(100, 500)
	resp := h.readRaw(t, t.Context(), "platform_fiat_accounts", map[string]tftypes.Value{"include_deleted": tfBool(true)})
	var errs []string
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			errs = append(errs, d.Summary+": "+d.Detail)
		}
	}
	if len(errs) != 1 || !regexp.MustCompile(`Unable to list fiat accounts: Listing fiat accounts failed after 0 items: .*500`).MatchString(errs[0]) {
		t.Fatalf("diagnostics = %q", errs)
	}
}

// pinnedItems is the number of items TestEquivalenceListStatePinned
// seeds for each list data source.
const pinnedItems = 10000

// TestEquivalenceListStatePinned pins the state of 10,000 seeded items of
// each list data source the provider registers, read with no argument
// set: the SHA-256 of its bytes is in testdata/pinned/<type>.sha256. The
// states of platform_fiat_accounts, platform_deposit_addresses and
// platform_reward_claims are those the provider wrote before its list path
// moved to internal/tfmsgpack (fiat accounts with status and metadata at
// the top level and fiat_account_owner.institution_details, deposit
// addresses with account_id, claims with onchain_status, claim_type and
// the asset_type filter). A change of these bytes is a change of what
// users' states hold, and must be deliberate (a new attribute, for one):
// go test ./internal/provider -run TestEquivalenceListStatePinned -update
// rewrites the files, and the diff shows which states changed.
func TestEquivalenceListStatePinned(t *testing.T) {
	t.Parallel()
	lists := registeredLists(t)
	var opts emulator.Options
	for _, typ := range lists {
		listFixture(t, typ).Seed(&opts, pinnedItems)
	}
	emu := emulator.StartTest(t, opts)
	h := newProtoHarness(t, emu, true)
	for _, typ := range lists {
		t.Run(typ, func(t *testing.T) {
			resp := h.readRaw(t, t.Context(), typ, nil)
			failOnDiags(t, typ, resp.Diagnostics)
			got := fmt.Sprintf("%x", sha256.Sum256(resp.State.MsgPack))
			file := pinnedFile(typ)
			if *update {
				writeGolden(t, file, []byte(got+"\n"))
				return
			}
			b, err := os.ReadFile(file)
			if errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("%s has no pinned state (%s): run go test ./internal/provider -run TestEquivalenceListStatePinned -update, and review the new file", typ, file)
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.TrimSpace(string(b)); got != want {
				t.Errorf("%s: state of %d bytes has SHA-256 %s, want %s (%s)", typ, len(resp.State.MsgPack), got, want, file)
			}
		})
	}
}

// TestListSchemaContract checks that a list schema without its computed
// id and items, or with another computed attribute, is refused.
func TestListSchemaContract(t *testing.T) {
	computed := dschema.StringAttribute{Computed: true}
	items := dschema.ListNestedAttribute{Computed: true, NestedObject: dschema.NestedAttributeObject{
		Attributes: map[string]dschema.Attribute{"x": computed},
	}}
	for name, attrs := range map[string]map[string]dschema.Attribute{
		"no items":       {"id": computed},
		"optional id":    {"id": dschema.StringAttribute{Optional: true}, "items": items},
		"other computed": {"id": computed, "items": items, "count": computed},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: listSchema accepted it", name)
				}
			}()
			listSchema(dschema.Schema{Attributes: attrs})
		}()
	}
	listSchema(dschema.Schema{Attributes: map[string]dschema.Attribute{
		"id": computed, "items": items, "ids": dschema.ListAttribute{Optional: true, ElementType: types.StringType},
	}})
}
