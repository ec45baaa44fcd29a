// Command floorprovider is the floor of figure 7 of `make bench`: a
// minimal terraform-plugin-framework provider (registry.terraform.io/bench/floor)
// that calls no service. Its resources are flat: a required name, and
// computed strings that keep their state (UseStateForUnknown) and are
// filled in at create; Read returns the state as it is.
//
// floor_small has 3 attributes. The bench builds it with
// -ldflags "-X main.sizes=withdrawal=41,instructions=52", which adds
// floor_withdrawal with 41 attributes and floor_instructions with 52, each
// as many as the provider's resource of the same size.
package main

import (
	"context"
	"fmt"
	"log"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// sizes lists the sized resources: name=attributes, comma-separated.
var sizes = ""

func main() {
	err := providerserver.Serve(context.Background(), func() provider.Provider { return floorProvider{} },
		providerserver.ServeOpts{Address: "registry.terraform.io/bench/floor"})
	if err != nil {
		log.Fatal(err)
	}
}

type floorProvider struct{}

func (floorProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "floor"
}

func (floorProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (floorProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (floorProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

func (floorProvider) Resources(context.Context) []func() resource.Resource {
	out := []func() resource.Resource{func() resource.Resource { return floorResource{name: "small", attrs: 3} }}
	for entry := range strings.SplitSeq(sizes, ",") {
		name, n, ok := strings.Cut(entry, "=")
		attrs, err := strconv.Atoi(n)
		if !ok || err != nil || attrs < 3 {
			continue
		}
		out = append(out, func() resource.Resource { return floorResource{name: name, attrs: attrs} })
	}
	return out
}

// floorResource is floor_<name>: a required name, a computed id, and
// attrs-2 more computed strings.
type floorResource struct {
	name  string
	attrs int
}

func (r floorResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + r.name
}

func (r floorResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	attrs := map[string]schema.Attribute{
		"name": schema.StringAttribute{Required: true},
		"id":   schema.StringAttribute{Computed: true, PlanModifiers: keep},
	}
	for i := range r.attrs - 2 {
		attrs[fmt.Sprintf("computed_%02d", i)] = schema.StringAttribute{Computed: true, PlanModifiers: keep}
	}
	resp.Schema = schema.Schema{Attributes: attrs}
}

// fill sets state to the plan with every unknown string filled in; what
// names the operation in an error.
func fill(what string, plan tftypes.Value, state *tfsdk.State, diags *diag.Diagnostics) {
	v, err := tftypes.Transform(plan, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() || !v.Type().Is(tftypes.String) {
			return v, nil
		}
		return tftypes.NewValue(tftypes.String, fmt.Sprintf("%s-0123456789abcdef", p)), nil
	})
	if err != nil {
		diags.AddError(what, err.Error())
		return
	}
	state.Raw = v
}

func (r floorResource) Create(_ context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	fill("create", req.Plan.Raw, &resp.State, &resp.Diagnostics)
}

func (r floorResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r floorResource) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	fill("update", req.Plan.Raw, &resp.State, &resp.Diagnostics)
}

func (r floorResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
