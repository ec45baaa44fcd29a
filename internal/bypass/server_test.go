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
)

// testProvider is a framework provider with one resource, thing, whose
// unchanged objects the server plans itself (testPlannerOf). Its
// Configure offers the provider as its configuration.
type testProvider struct{}

func (p *testProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "bypasstest"
}

func (p *testProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (p *testProvider) Configure(ctx context.Context, _ provider.ConfigureRequest, _ *provider.ConfigureResponse) {
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
