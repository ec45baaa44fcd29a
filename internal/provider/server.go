package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/platform/terraform-provider-platform/internal/bypass"
)

// The provider's protocol 6 server is the framework's with the bypasses of
// internal/bypass (its package documentation lists them, with what each
// replaces, why, and its equivalence tests). What the provider adds here
// is the adapter of the plans of unchanged objects: its resources decide
// with its own configuration (*providerData), which internal/bypass holds
// without knowing its type.

// NewProtocol6Server returns a factory of the provider's protocol 6 server
// (bypass.NewProtocol6Server): the framework's server, with the state of
// the list data sources sent as MessagePack written while paging, and the
// plans of unchanged objects of the unchangedPlanner resources answered
// by their own decision. Serve it (tf6server.Serve) or give it to
// terraform-plugin-testing instead of providerserver.NewProtocol6WithError.
func NewProtocol6Server(p provider.Provider) func() (tfprotov6.ProviderServer, error) {
	return bypass.NewProtocol6Server(p, unchangedPlannerOf)
}

// unchangedPlanner is a resource whose plan of an unchanged object is its
// own decision alone (see bypass.PlanUnchanged).
type unchangedPlanner interface {
	resource.Resource
	// planUnchanged reports whether the plan of the object in state,
	// which the configuration leaves as it is, is no change with nothing
	// to say. It may record what the plan needs to remember only when it
	// reports true: the framework plans the object again otherwise.
	planUnchanged(ctx context.Context, data *providerData, state tfsdk.State) bool
}

// unchangedPlannerOf is the bypass.PlanUnchanged of an unchangedPlanner
// resource, given the configuration Configure offered
// (offerConfigured), or nil for any other resource.
func unchangedPlannerOf(r resource.Resource) bypass.PlanUnchanged {
	planner, ok := r.(unchangedPlanner)
	if !ok {
		return nil
	}
	return func(ctx context.Context, configured any, state tfsdk.State) bool {
		data, ok := configured.(*providerData)
		return ok && data != nil && planner.planUnchanged(ctx, data, state)
	}
}

// offerConfigured hands data to the server whose ConfigureProvider is
// running, if it asked for it (bypass.OfferConfigured).
func offerConfigured(ctx context.Context, data *providerData) {
	bypass.OfferConfigured(ctx, data)
}
