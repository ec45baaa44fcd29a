package bypass

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// testProvider is a framework provider with one resource, thing, whose
// unchanged objects the server plans itself (testPlannerOf). Its
// Configure offers the provider as its configuration, and defers when
// deferIfAllowed is set and Terraform allows it.
type testProvider struct {
	deferIfAllowed bool
}

func (p *testProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "bypasstest"
}

func (p *testProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (p *testProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	if p.deferIfAllowed && req.ClientCapabilities.DeferralAllowed {
		resp.Deferred = &provider.Deferred{Reason: provider.DeferredReasonProviderConfigUnknown}
	}
	OfferConfigured(ctx, p)
}

func (p *testProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &thing{} }}
}

func (p *testProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// thing is a resource with a computed id and a name that replaces it.
type thing struct{}

func (*thing) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_thing"
}

func (*thing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":   schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"name": schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
	}}
}

func (*thing) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	resp.State.Raw = req.Plan.Raw
}

func (*thing) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (*thing) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}

func (*thing) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// testPlannerOf plans every unchanged thing itself once the provider is
// configured.
func testPlannerOf(r resource.Resource) PlanUnchanged {
	if _, ok := r.(*thing); !ok {
		return nil
	}
	return func(_ context.Context, configured any, _ tfsdk.State) bool {
		_, ok := configured.(*testProvider)
		return ok
	}
}

// missingMethods lists the exported methods of want that got lacks.
func missingMethods(want, got reflect.Type) []string {
	var out []string
	for i := range want.NumMethod() {
		m := want.Method(i)
		if _, ok := got.MethodByName(m.Name); !ok {
			out = append(out, m.Name)
		}
	}
	return out
}

// TestEquivalenceServerExposesEveryFrameworkMethod fails when the
// framework's protocol 6 server has a method that the Server of
// NewProtocol6Server hides (an RPC group terraform-plugin-go added since):
// Terraform would get "unimplemented" for it. Add the group to
// frameworkServer (server.go).
func TestEquivalenceServerExposesEveryFrameworkMethod(t *testing.T) {
	framework, err := providerserver.NewProtocol6WithError(&testProvider{})()
	if err != nil {
		t.Fatal(err)
	}
	served, err := NewProtocol6Server(&testProvider{}, testPlannerOf)()
	if err != nil {
		t.Fatal(err)
	}
	if reflect.TypeOf(framework).NumMethod() < 20 {
		t.Fatalf("the framework's server has %d methods: not the server this test expects", reflect.TypeOf(framework).NumMethod())
	}
	if missing := missingMethods(reflect.TypeOf(framework), reflect.TypeOf(served)); len(missing) > 0 {
		t.Errorf("the provider's server hides the framework's methods %v; add their groups to frameworkServer", missing)
	}
	// tf6server looks for the optional groups by these interfaces.
	if _, ok := served.(tfprotov6.ProviderServerWithActions); !ok { //nolint:staticcheck // tf6server looks for these interfaces.
		t.Error("actions are hidden")
	}
	if _, ok := served.(tfprotov6.ProviderServerWithListResource); !ok { //nolint:staticcheck // Same.
		t.Error("list resources are hidden")
	}
	if _, ok := served.(tfprotov6.ProviderServerWithStateStores); !ok { //nolint:staticcheck // Same.
		t.Error("state stores are hidden")
	}
	// The check itself: a wrapper of the base interface alone hides the
	// optional groups (list resources, actions, state stores).
	type baseOnly struct{ tfprotov6.ProviderServer }
	missing := missingMethods(reflect.TypeOf(framework), reflect.TypeOf(&baseOnly{}))
	for _, want := range []string{"ListResource", "InvokeAction", "ReadStateBytes"} {
		found := false
		for _, m := range missing {
			found = found || m == want
		}
		if !found {
			t.Errorf("a wrapper without the optional groups is not caught: missing %v lacks %s", missing, want)
		}
	}
}

// fakeFramework is a framework server whose ReadDataSource fills the
// state slot (when fill is set) and answers diags.
type fakeFramework struct {
	frameworkServer
	fill  []byte
	diags []*tfprotov6.Diagnostic
}

func (f *fakeFramework) ReadDataSource(ctx context.Context, _ *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	if slot, ok := ctx.Value(stateSlotKey{}).(*stateSlot); ok && f.fill != nil {
		slot.msgpack = f.fill
	}
	return &tfprotov6.ReadDataSourceResponse{State: &tfprotov6.DynamicValue{MsgPack: []byte("framework")}, Diagnostics: f.diags}, nil
}

// TestServerSendsListState: the server sends the state a data source left
// in the slot, unless the read failed; without one, the framework's.
func TestServerSendsListState(t *testing.T) {
	warning := []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityWarning, Summary: "w"}}
	failed := []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityError, Summary: "e"}}
	for _, c := range []struct {
		name  string
		fake  *fakeFramework
		state string
	}{
		{"slot filled", &fakeFramework{fill: []byte("streamed")}, "streamed"},
		{"slot filled, warning", &fakeFramework{fill: []byte("streamed"), diags: warning}, "streamed"},
		{"slot filled, then an error", &fakeFramework{fill: []byte("streamed"), diags: failed}, "framework"},
		{"slot left empty", &fakeFramework{}, "framework"},
	} {
		s := &Server{frameworkServer: c.fake}
		resp, err := s.ReadDataSource(t.Context(), &tfprotov6.ReadDataSourceRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if got := string(resp.State.MsgPack); got != c.state {
			t.Errorf("%s: sent the %s state, want the %s one", c.name, got, c.state)
		}
		if len(resp.Diagnostics) != len(c.fake.diags) {
			t.Errorf("%s: %d diagnostics, want %d", c.name, len(resp.Diagnostics), len(c.fake.diags))
		}
	}
}

// configure configures srv, allowing deferral or not, and fails on an
// error.
func configure(t *testing.T, srv tfprotov6.ProviderServer, allowDeferral bool) *tfprotov6.ConfigureProviderResponse {
	t.Helper()
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{}}
	config, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, map[string]tftypes.Value{}))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.ConfigureProvider(t.Context(), &tfprotov6.ConfigureProviderRequest{
		Config:             &config,
		ClientCapabilities: &tfprotov6.ConfigureProviderClientCapabilities{DeferralAllowed: allowDeferral},
	})
	if err != nil || hasError(resp.Diagnostics) {
		t.Fatalf("ConfigureProvider: %v %v", err, resp.Diagnostics)
	}
	return resp
}

// planUnchanged plans a thing in state that the configuration leaves as it
// is, allowing deferral or not.
func planUnchanged(t *testing.T, srv tfprotov6.ProviderServer, allowDeferral bool) *tfprotov6.PlanResourceChangeResponse {
	t.Helper()
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String, "name": tftypes.String}}
	state, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, map[string]tftypes.Value{
		"id": tftypes.NewValue(tftypes.String, "1"), "name": tftypes.NewValue(tftypes.String, "a"),
	}))
	if err != nil {
		t.Fatal(err)
	}
	config, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, map[string]tftypes.Value{
		"id": tftypes.NewValue(tftypes.String, nil), "name": tftypes.NewValue(tftypes.String, "a"),
	}))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.PlanResourceChange(t.Context(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: "bypasstest_thing", PriorState: &state, ProposedNewState: &state, Config: &config,
		ClientCapabilities: &tfprotov6.PlanResourceChangeClientCapabilities{DeferralAllowed: allowDeferral},
	})
	if err != nil || hasError(resp.Diagnostics) {
		t.Fatalf("PlanResourceChange: %v %v", err, resp.Diagnostics)
	}
	return resp
}

// TestEquivalenceUnchangedPlanUnderDeferral: the server answers the plan
// of an unchanged object itself only when neither the provider's
// configuration nor the plan may be deferred. A provider that deferred
// (which the protocol's ConfigureProvider response does not say) has
// every plan answered deferred by the framework, and so does the server;
// a configuration or a plan Terraform allows to defer goes to the
// framework too. Each answer is compared with a plain framework server's.
func TestEquivalenceUnchangedPlanUnderDeferral(t *testing.T) {
	for _, c := range []struct {
		name string
		// deferIfAllowed: the provider defers when Terraform allows it.
		deferIfAllowed bool
		// configureAllows, planAllows: Terraform allows deferral in
		// ConfigureProvider, in PlanResourceChange.
		configureAllows, planAllows bool
		// reconfigured: the server was configured without deferral
		// first.
		reconfigured bool
		served       bool
	}{
		{name: "no deferral allowed (the fast path answers)", served: true},
		{name: "the provider deferred", deferIfAllowed: true, configureAllows: true, planAllows: true},
		{name: "the provider deferred, the plan request does not allow it", deferIfAllowed: true, configureAllows: true},
		{name: "the provider deferred when configured again", deferIfAllowed: true, configureAllows: true, planAllows: true, reconfigured: true},
		{name: "deferral allowed, the provider did not defer", configureAllows: true, planAllows: true},
		{name: "the plan request allows deferral", planAllows: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			framework, err := providerserver.NewProtocol6WithError(&testProvider{deferIfAllowed: c.deferIfAllowed})()
			if err != nil {
				t.Fatal(err)
			}
			factory := NewProtocol6Server(&testProvider{deferIfAllowed: c.deferIfAllowed}, testPlannerOf)
			srv, err := factory()
			if err != nil {
				t.Fatal(err)
			}
			s, _ := srv.(*Server)
			if c.reconfigured {
				configure(t, srv, false)
				configure(t, framework, false)
			}
			configure(t, srv, c.configureAllows)
			configure(t, framework, c.configureAllows)
			ours, theirs := planUnchanged(t, srv, c.planAllows), planUnchanged(t, framework, c.planAllows)
			if served := s.UnchangedServed() > 0; served != c.served {
				t.Errorf("served by the fast path: %t, want %t", served, c.served)
			}
			if !reflect.DeepEqual(ours.Deferred, theirs.Deferred) {
				t.Errorf("deferred: ours %v, framework %v", ours.Deferred, theirs.Deferred)
			}
			if c.deferIfAllowed && ours.Deferred == nil {
				t.Error("the provider deferred, but the plan is not deferred")
			}
			if !reflect.DeepEqual(ours.PlannedState, theirs.PlannedState) || string(ours.PlannedPrivate) != string(theirs.PlannedPrivate) {
				t.Errorf("planned: ours %v %q, framework %v %q", ours.PlannedState, ours.PlannedPrivate, theirs.PlannedState, theirs.PlannedPrivate)
			}
		})
	}
}
