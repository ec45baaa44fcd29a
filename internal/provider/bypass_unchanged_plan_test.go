package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/bypass"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// tfUnknown stands for an unknown value in tfValueOf.
type tfUnknown struct{}

// tfValueOf builds a value of typ from v, JSON-like (maps for objects and
// maps, strings, numbers and bools, tfUnknown{} for an unknown value); an
// attribute v leaves out is null.
func tfValueOf(tb testing.TB, typ tftypes.Type, v any) tftypes.Value {
	tb.Helper()
	if v == nil {
		return tftypes.NewValue(typ, nil)
	}
	if _, ok := v.(tfUnknown); ok {
		return tftypes.NewValue(typ, tftypes.UnknownValue)
	}
	switch t := typ.(type) {
	case tftypes.Object:
		m, _ := v.(map[string]any)
		vals := map[string]tftypes.Value{}
		for name, at := range t.AttributeTypes {
			vals[name] = tfValueOf(tb, at, m[name])
		}
		for name := range m {
			if _, ok := t.AttributeTypes[name]; !ok {
				tb.Fatalf("no attribute %q in %s", name, t)
			}
		}
		return tftypes.NewValue(t, vals)
	case tftypes.Map:
		m, _ := v.(map[string]any)
		vals := map[string]tftypes.Value{}
		for k, e := range m {
			vals[k] = tfValueOf(tb, t.ElementType, e)
		}
		return tftypes.NewValue(t, vals)
	}
	return tftypes.NewValue(typ, v)
}

// unchangedPlanArguments are the arguments of one object of each resource
// that plans its unchanged objects itself.
var unchangedPlanArguments = map[string]map[string]any{
	"platform_crypto_withdrawal": {
		"profile_id": "p1", "destination_address": validBTCAddress("bc1qunchanged"), "asset": "BTC",
		"crypto_network": "BITCOIN", "amount": "0.01", "metadata": map[string]any{"run": "unchanged"},
	},
	"platform_deposit_address": {
		"profile_id": "p1", "crypto_network": "ETHEREUM", "ref_id": "unchanged-1",
	},
	"platform_fiat_deposit_instructions": {
		"profile_id": "p1", "fiat_network": "WIRE", "metadata": map[string]any{"set": "unchanged"},
	},
	"platform_fiat_withdrawal": {
		"profile_id": "p1", "fiat_account_id": testPayeeAccount, "asset": "USD", "amount": "10",
		"metadata": map[string]any{"run": "unchanged"},
	},
	"platform_internal_transfer": {
		"from_profile_id": "p1", "to_profile_id": "p2", "asset": "USD", "amount": "10",
	},
	"platform_stablecoin_conversion": {
		"profile_id": "p1", "source_asset": "USD", "target_asset": "USDC", "amount": "10",
	},
	"platform_orchestration_rule": {
		"profile_id": "p1", "nickname": "unchanged", "source_asset": "USDC", "destination_asset": "USDG",
		"source":      map[string]any{"crypto": map[string]any{"network": "ETHEREUM"}},
		"destination": map[string]any{"profile": map[string]any{"profile_id": "p2"}},
	},
	"platform_profile":      {"nickname": "unchanged", "description": "unchanged"},
	"platform_fiat_account": fiatAccountWireArguments(faSecret),
}

// planPair plans through the provider's server and through a plain
// framework server, each configured for emu.
type planPair struct {
	ours, framework *protoProvider
}

func newPlanPair(t *testing.T, emu *emulator.Server) planPair {
	t.Helper()
	plain, err := providerserver.NewProtocol6WithError(newTestProvider())()
	if err != nil {
		t.Fatal(err)
	}
	sch, err := plain.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	pp := planPair{ours: newProtoProvider(t), framework: &protoProvider{srv: plain, schema: sch}}
	for _, p := range []*protoProvider{pp.ours, pp.framework} {
		p.mustConfigure(t, providerArgs(emu.AuthURL(), nil))
	}
	return pp
}

// served is how many plans the provider's server answered itself.
func (pp planPair) served(t *testing.T) int64 {
	t.Helper()
	return servedBy[interface{ UnchangedServed() int64 }](t, pp, func(s interface{ UnchangedServed() int64 }) int64 {
		return s.UnchangedServed()
	})
}

// servedBy is a count the provider's server keeps of the calls it answered
// itself, read through count from the server as S.
func servedBy[S any](t *testing.T, pp planPair, count func(S) int64) int64 {
	t.Helper()
	s, ok := pp.ours.srv.(S)
	if !ok {
		t.Fatalf("the provider's server is a %T", pp.ours.srv)
	}
	return count(s)
}

// decodedValue is dv decoded as typ; the zero value when dv is nil.
func decodedValue(t *testing.T, typ tftypes.Type, dv *tfprotov6.DynamicValue) tftypes.Value {
	t.Helper()
	if dv == nil {
		return tftypes.Value{}
	}
	v, err := dv.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// askBoth sends req through call to the provider's server and to the
// framework's, and returns their answers; an error fails the test.
func askBoth[Req, Resp any](t *testing.T, pp planPair, req Req,
	call func(tfprotov6.ProviderServer, context.Context, Req) (Resp, error)) (ours, theirs Resp) {
	t.Helper()
	ours, err := call(pp.ours.srv, t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err = call(pp.framework.srv, t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	return ours, theirs
}

// samePlan plans req through both servers and fails unless the answers
// are the same: planned state, private data, identity, replacement paths
// and diagnostics. It returns whether the provider's server answered
// itself.
func (pp planPair) samePlan(t *testing.T, typ tftypes.Type, req *tfprotov6.PlanResourceChangeRequest) (bool, *tfprotov6.PlanResourceChangeResponse) {
	t.Helper()
	before := pp.served(t)
	ours, theirs := askBoth(t, pp, req, tfprotov6.ProviderServer.PlanResourceChange)
	decode := func(dv *tfprotov6.DynamicValue) tftypes.Value { return decodedValue(t, typ, dv) }
	if o, f := decode(ours.PlannedState), decode(theirs.PlannedState); !o.Equal(f) {
		t.Errorf("planned state:\n ours %s\n framework %s", o, f)
	}
	if o, f := privateOf(t, ours.PlannedPrivate), privateOf(t, theirs.PlannedPrivate); !reflect.DeepEqual(o, f) {
		t.Errorf("planned private: ours %v, framework %v", o, f)
	}
	if o, f := identityOf(t, pp.ours, req.TypeName, ours.PlannedIdentity), identityOf(t, pp.framework, req.TypeName, theirs.PlannedIdentity); !o.Equal(f) {
		t.Errorf("planned identity: ours %s, framework %s", o, f)
	}
	if o, f := fmt.Sprint(ours.RequiresReplace), fmt.Sprint(theirs.RequiresReplace); o != f {
		t.Errorf("requires replace: ours %s, framework %s", o, f)
	}
	if o, f := diagText(ours.Diagnostics), diagText(theirs.Diagnostics); o != f {
		t.Errorf("diagnostics:\n ours %s\n framework %s", o, f)
	}
	if ours.Deferred != nil || theirs.Deferred != nil {
		t.Errorf("deferred: ours %v, framework %v", ours.Deferred, theirs.Deferred)
	}
	return pp.served(t) > before, ours
}

// privateOf decodes private data (nil when there is none).
func privateOf(t *testing.T, b []byte) map[string]any {
	t.Helper()
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("private data %q: %v", b, err)
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// identityOf decodes a planned identity (the zero value when there is none).
func identityOf(t *testing.T, p *protoProvider, typeName string, id *tfprotov6.ResourceIdentityData) tftypes.Value {
	t.Helper()
	if id == nil || id.IdentityData == nil {
		return tftypes.Value{}
	}
	resp, err := p.srv.GetResourceIdentitySchemas(t.Context(), &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := id.IdentityData.Unmarshal(resp.IdentitySchemas[typeName].ValueType())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// withAttribute is v (an object) with its attribute name set to a.
func withAttribute(t *testing.T, v tftypes.Value, name string, a tftypes.Value) tftypes.Value {
	t.Helper()
	m := objectAttributes(t, v)
	m[name] = a
	return tftypes.NewValue(v.Type(), m)
}

// objectAttributes are the attributes of v, an object.
func objectAttributes(t *testing.T, v tftypes.Value) map[string]tftypes.Value {
	t.Helper()
	var m map[string]tftypes.Value
	if err := v.As(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// eachCreatedObject runs check, for each resource type, on an object of
// unchangedPlanArguments created in an emulator: its type, the value of
// its arguments and its state.
func eachCreatedObject(t *testing.T, check func(t *testing.T, emu *emulator.Server, typeName string, typ tftypes.Type, cfgValue, state tftypes.Value)) {
	t.Setenv("TF_LOG_SDK", "off")
	t.Setenv("TF_LOG_PROVIDER_PLATFORM", "off")
	emu := startCore(t, emulator.Options{Seed: 1})
	creator := newPlanPair(t, emu).ours
	for _, typeName := range mapKeys(unchangedPlanArguments) {
		t.Run(typeName, func(t *testing.T) {
			typ := creator.schema.ResourceSchemas[typeName].ValueType()
			cfgValue := tfValueOf(t, typ, unchangedPlanArguments[typeName])
			var set map[string]tftypes.Value
			if err := cfgValue.As(&set); err != nil {
				t.Fatal(err)
			}
			state, diags := creator.create(t, typeName, set)
			failOnErrorDiags(t, "create", diags)
			check(t, emu, typeName, typ, cfgValue, state)
		})
	}
}

// TestEquivalenceUnchangedPlan plans objects in state through the
// provider's server, which answers the plan of an unchanged object itself
// when its resource has nothing to say, and through the framework alone:
// the answers are the same, whether Terraform sends an identity or not,
// for unchanged objects (answered by the server), a changed one,
// deprecated instructions and an unchanged withdrawal whose ref_id a new
// one of the plan took first (left to the framework).
func TestEquivalenceUnchangedPlan(t *testing.T) {
	eachCreatedObject(t, func(t *testing.T, emu *emulator.Server, typeName string, typ tftypes.Type, cfgValue, state tftypes.Value) {
		cfg := protoDynamic(t, typ, cfgValue)
		pp := newPlanPair(t, emu)
		read, err := pp.framework.srv.ReadResource(t.Context(), &tfprotov6.ReadResourceRequest{
			TypeName: typeName, CurrentState: protoDynamic(t, typ, state),
		})
		if err != nil {
			t.Fatal(err)
		}
		failOnErrorDiags(t, "read", read.Diagnostics)
		unchanged := func(st *tfprotov6.DynamicValue, identity *tfprotov6.ResourceIdentityData) *tfprotov6.PlanResourceChangeRequest {
			return &tfprotov6.PlanResourceChangeRequest{
				TypeName: typeName, PriorState: st, ProposedNewState: st, Config: cfg,
				PriorPrivate: read.Private, PriorIdentity: identity,
			}
		}
		for _, identity := range []*tfprotov6.ResourceIdentityData{nil, read.NewIdentity} {
			if served, _ := pp.samePlan(t, typ, unchanged(read.NewState, identity)); !served {
				t.Errorf("the unchanged object (identity sent: %t) was planned by the framework", identity != nil)
			}
			// Terraform plans each object once per process: the
			// claims of ref_ids start again.
			pp = newPlanPair(t, emu)
		}
		// A change goes through the framework.
		prior := decodedValue(t, typ, read.NewState)
		changedAttr, changedValue := "metadata", tfValueOf(t, tftypes.Map{ElementType: tftypes.String}, map[string]any{"changed": "yes"})
		if typeName == "platform_orchestration_rule" || typeName == "platform_profile" {
			// A rule and a profile have no metadata.
			changedAttr, changedValue = "nickname", tfStr("changed")
		}
		changed := protoDynamic(t, typ, withAttribute(t, prior, changedAttr, changedValue))
		req := unchanged(read.NewState, read.NewIdentity)
		req.ProposedNewState = changed
		if served, _ := pp.samePlan(t, typ, req); served {
			t.Error("a changed object was planned without the framework")
		}
		switch typeName {
		case "platform_fiat_deposit_instructions":
			deprecated := protoDynamic(t, typ, withAttribute(t, prior, "status", tfStr("DEPRECATED")))
			served, resp := pp.samePlan(t, typ, unchanged(deprecated, read.NewIdentity))
			if served || len(resp.RequiresReplace) != 1 {
				t.Errorf("deprecated instructions: served %t, requires replace %v", served, resp.RequiresReplace)
			}
		case "platform_crypto_withdrawal", "platform_deposit_address":
			// The first plan claims the ref_id; the same object
			// planned again in the same process is refused, by the
			// framework, with the same error.
			pp = newPlanPair(t, emu)
			if served, _ := pp.samePlan(t, typ, unchanged(read.NewState, read.NewIdentity)); !served {
				t.Error("the unchanged object was planned by the framework")
			}
			served, resp := pp.samePlan(t, typ, unchanged(read.NewState, read.NewIdentity))
			if served || !hasErrorDiagnostic(resp.Diagnostics) {
				t.Errorf("a second claim of the ref_id: served %t, diagnostics %s", served, diagText(resp.Diagnostics))
			}
		}
	})
}

// harmlessPlanModifiers are the kinds of plan modifier the server's plans
// of unchanged objects assume harmless (bypass.PlanUnchanged), by type
// (package path and name), each with the constructors that make it: the
// planners' schemas use every one of them, and no other. On a value equal
// to its state, the state fully known, none changes the value or asks for
// a replacement: UseStateForUnknown acts on an unknown value only, and
// RequiresReplace and RequiresReplaceIf return when the plan equals the
// state, before their function runs. A kind added here must be read in the
// framework's source and have the same property.
var harmlessPlanModifiers = map[string]string{
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier.useStateForUnknownModifier": "stringplanmodifier.UseStateForUnknown",
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier.requiresReplaceIfModifier":  "stringplanmodifier.RequiresReplace, RequiresReplaceIf",
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier.useStateForUnknownModifier":   "listplanmodifier.UseStateForUnknown",
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier.requiresReplaceIfModifier":     "mapplanmodifier.RequiresReplace, RequiresReplaceIf",
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier.requiresReplaceIfModifier":  "objectplanmodifier.RequiresReplace, RequiresReplaceIf",
}

// TestEquivalenceUnchangedPlanners: the resources that plan their
// unchanged objects themselves are those of unchangedPlanArguments, and
// their schemas have no defaults, no write-only attributes and no plan
// modifier outside harmlessPlanModifiers, which the framework would apply
// to an unchanged object too.
func TestEquivalenceUnchangedPlanners(t *testing.T) {
	planners := bypass.UnchangedPlanners(context.Background(), newTestProvider(), unchangedPlannerOf)
	if got, want := mapKeys(planners), mapKeys(unchangedPlanArguments); !slices.Equal(got, want) {
		t.Fatalf("planners %v, want %v", got, want)
	}
	used := map[string]bool{}
	for _, name := range mapKeys(planners) {
		var s resource.SchemaResponse
		planners[name].Schema(t.Context(), resource.SchemaRequest{}, &s)
		for _, bad := range unsafeForUnchangedPlans("", reflect.ValueOf(s.Schema), used) {
			t.Errorf("%s: %s: the server plans its unchanged objects without the framework; remove it, or "+
				"check the framework's source and add its kind to harmlessPlanModifiers", name, bad)
		}
	}
	for kind := range harmlessPlanModifiers {
		if !used[kind] {
			t.Errorf("harmlessPlanModifiers lists %s, which no planner uses: remove it", kind)
		}
	}
	// The check itself: a default, a write-only attribute and another
	// plan modifier, nested or not, are each named.
	caught := unsafeForUnchangedPlans("", reflect.ValueOf(schema.Schema{Attributes: map[string]schema.Attribute{
		"flag":   schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false)},
		"secret": schema.StringAttribute{Optional: true, WriteOnly: true},
		"nested": schema.ListNestedAttribute{Optional: true, NestedObject: schema.NestedAttributeObject{
			Attributes: map[string]schema.Attribute{"id": schema.StringAttribute{Computed: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseNonNullStateForUnknown()}}},
		}},
	}}), map[string]bool{})
	slices.Sort(caught)
	want := []string{
		"attribute flag has a default",
		"attribute nested.id has the plan modifier stringplanmodifier.useNonNullStateForUnknown",
		"attribute secret is write-only",
	}
	if !slices.Equal(caught, want) {
		t.Errorf("the check of a schema found %q, want %q", caught, want)
	}
}

// unsafeForUnchangedPlans lists what in v (a schema, an attribute, a block
// or a nested object, at path prefix) the server's plans of unchanged
// objects would skip: a default, a write-only attribute, a plan modifier
// outside harmlessPlanModifiers (used collects those inside), at any
// depth.
func unsafeForUnchangedPlans(prefix string, v reflect.Value, used map[string]bool) []string {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	var bad []string
	at := "schema"
	if prefix != "" {
		at = "attribute " + strings.TrimSuffix(prefix, ".")
	}
	if f := v.FieldByName("Default"); f.IsValid() && !f.IsNil() {
		bad = append(bad, at+" has a default")
	}
	if f := v.FieldByName("WriteOnly"); f.IsValid() && f.Bool() {
		bad = append(bad, at+" is write-only")
	}
	if f := v.FieldByName("PlanModifiers"); f.IsValid() && f.Kind() == reflect.Slice {
		for i := range f.Len() {
			m := reflect.TypeOf(f.Index(i).Interface())
			for m.Kind() == reflect.Pointer {
				m = m.Elem()
			}
			kind := m.PkgPath() + "." + m.Name()
			if _, ok := harmlessPlanModifiers[kind]; !ok {
				bad = append(bad, fmt.Sprintf("%s has the plan modifier %s", at, m.String()))
			}
			used[kind] = true
		}
	}
	for _, field := range []string{"Attributes", "Blocks"} {
		f := v.FieldByName(field)
		if !f.IsValid() || f.Kind() != reflect.Map {
			continue
		}
		for _, k := range f.MapKeys() {
			bad = append(bad, unsafeForUnchangedPlans(prefix+k.String()+".", f.MapIndex(k), used)...)
		}
	}
	if f := v.FieldByName("NestedObject"); f.IsValid() {
		bad = append(bad, unsafeForUnchangedPlans(prefix, f, used)...)
	}
	return bad
}
