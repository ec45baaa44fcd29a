package provider

import (
	"context"
	"strings"
	"sync"

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
// with the run of the money engine of this configuration, from the data
// Configure hands to resources (*providerData), which internal/bypass
// holds without knowing its type and configures the resources it reads
// with.

// NewProtocol6Server returns a factory of the provider's protocol 6 server
// (bypass.NewProtocol6Server): the framework's server, with the state of
// the list data sources sent as MessagePack written while paging, and the
// plans of unchanged objects of the unchangedPlanner resources answered
// by their own decision. Serve it (tf6server.Serve) or give it to
// terraform-plugin-testing instead of providerserver.NewProtocol6WithError.
func NewProtocol6Server(p provider.Provider) func() (tfprotov6.ProviderServer, error) {
	inner := bypass.NewProtocol6Server(p, unchangedPlannerOf)
	return func() (tfprotov6.ProviderServer, error) {
		s, err := inner()
		if err != nil {
			return nil, err
		}
		bs, ok := s.(*bypass.Server)
		if !ok {
			return s, nil
		}
		return &onceServer{Server: bs}, nil
	}
}

// Errors whose cause is the provider's configuration, not the object: a
// summary that opens with one of these is said once per provider process
// at plan (see onceServer).
const (
	credentialsRejected = "Client credentials rejected by the service" //nolint:gosec // A message, not a credential.
	pinnedScopesLack    = "The provider's pinned scopes lack"
)

// saidOnce is the line the one error of such a cause ends with.
const saidOnce = "\n\nEvery object of this provider configuration that needs it fails for the same reason; this error is said once."

// onceServer says an error whose cause is the provider's configuration
// (a secret the service rejects, pinned scopes that lack what the plan
// needs) once per provider process, where a payroll would say it for
// every object: the reads and plans after the first that fail for it
// answer as if they had not run (the prior state, the proposed plan, the
// configuration of a data source), which the one error fails the plan
// with. An apply's errors are all said: each object it could not change
// says so.
type onceServer struct {
	*bypass.Server
	said sync.Map
}

// causeOf is the configuration cause that the error d opens with, or "".
func causeOf(d *tfprotov6.Diagnostic) string {
	if d == nil || d.Severity != tfprotov6.DiagnosticSeverityError {
		return ""
	}
	for _, c := range []string{credentialsRejected, pinnedScopesLack} {
		if strings.HasPrefix(d.Summary, c) {
			// One per scope: the summary names it.
			if c == pinnedScopesLack {
				return d.Summary
			}
			return c
		}
	}
	return ""
}

// sayOnce keeps the first error of each configuration cause in diags and
// drops the later ones. It reports whether it dropped one and no error is
// left: the response must then answer as if the call had not run.
func (s *onceServer) sayOnce(diags *[]*tfprotov6.Diagnostic) bool {
	dropped := false
	kept := (*diags)[:0]
	for _, d := range *diags {
		if c := causeOf(d); c != "" {
			if _, again := s.said.LoadOrStore(c, true); again {
				dropped = true
				continue
			}
			d.Detail += saidOnce
		}
		kept = append(kept, d)
	}
	*diags = kept
	return dropped && !anyError(kept)
}

// anyError reports whether diags holds an error.
func anyError(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// ReadResource reads through the provider; a read that failed only for a
// configuration cause already said keeps the prior state.
func (s *onceServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resp, err := s.Server.ReadResource(ctx, req)
	if err == nil && resp != nil && s.sayOnce(&resp.Diagnostics) {
		resp.NewState, resp.Private, resp.NewIdentity, resp.Deferred = req.CurrentState, req.Private, req.CurrentIdentity, nil
	}
	return resp, err
}

// PlanResourceChange plans through the provider; a plan that failed only
// for a configuration cause already said answers the plan the framework
// made before the resource refused it.
func (s *onceServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.Server.PlanResourceChange(ctx, req)
	if err == nil && resp != nil && s.sayOnce(&resp.Diagnostics) && resp.PlannedState == nil {
		resp.PlannedState = req.ProposedNewState
	}
	return resp, err
}

// ReadDataSource reads through the provider; a read that failed only for
// a configuration cause already said answers its configuration.
func (s *onceServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	resp, err := s.Server.ReadDataSource(ctx, req)
	if err == nil && resp != nil && s.sayOnce(&resp.Diagnostics) {
		resp.State, resp.Deferred = req.Config, nil
	}
	return resp, err
}

// unchangedPlanner is a resource whose plan of an unchanged object is its
// own decision alone (see bypass.PlanUnchanged).
type unchangedPlanner interface {
	resource.Resource
	// planUnchanged reports whether the plan of the object in state,
	// which the configuration leaves as it is, is no change with nothing
	// to say. It may record what the plan needs to remember only when it
	// reports true: the framework plans the object again otherwise.
	planUnchanged(ctx context.Context, run *moneyRun, state tfsdk.State) bool
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
		holder, ok := configured.(runHolder)
		if !ok {
			return false
		}
		run := holder.engineRun()
		return run != nil && planner.planUnchanged(ctx, run, state)
	}
}

// runHolder is what Configure hands to resources, seen from the server:
// it holds the money engine's run.
type runHolder interface{ engineRun() *moneyRun }

// offerConfigured hands the data Configure gives resources (and with it
// the money engine's run) to the server whose ConfigureProvider is
// running, if it asked for it (bypass.OfferConfigured).
func offerConfigured(ctx context.Context, data runHolder) {
	bypass.OfferConfigured(ctx, data)
}
