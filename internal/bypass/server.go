package bypass

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The provider's protocol 6 server is the framework's, wrapped: its
// ReadDataSource sends a list data source's state as the data source wrote
// it (ReadList), and its ConfigureProvider and PlanResourceChange answer
// the plans of unchanged objects without the framework's walks
// (unchanged_plan.go). Every other RPC is the framework's, and even these
// go through the framework for everything but those two cases: the
// framework still validates the configuration, configures the provider
// and the data source, and reports diagnostics.
//
// TestEquivalenceServerExposesEveryFrameworkMethod fails when the
// framework's server gains a method this wrapper does not expose.

// NewProtocol6Server returns a factory of the provider's protocol 6 server:
// the framework's server for p, with the state of the list data sources
// sent as MessagePack written while paging, and the plans of unchanged
// objects of the resources that plannerOf gives a PlanUnchanged answered
// by their own decision. Serve it (tf6server.Serve) or give it to
// terraform-plugin-testing instead of providerserver.NewProtocol6WithError.
func NewProtocol6Server(p provider.Provider, plannerOf PlannerOf) func() (tfprotov6.ProviderServer, error) {
	framework := providerserver.NewProtocol6WithError(p)
	return func() (tfprotov6.ProviderServer, error) {
		s, err := framework()
		if err != nil {
			return nil, err
		}
		full, ok := s.(frameworkServer)
		if !ok {
			return nil, fmt.Errorf("the framework's protocol 6 server (%T) lacks RPCs this provider relies on", s)
		}
		ctx := context.Background()
		var meta provider.MetadataResponse
		p.Metadata(ctx, provider.MetadataRequest{}, &meta)
		return &Server{frameworkServer: full, unchanged: newUnchangedPlans(ctx, p, plannerOf),
			reads: readTypes(ctx, p, plannerOf), providerTypeName: meta.TypeName}, nil
	}
}

// frameworkServer is every RPC group the framework's server implements, so
// that wrapping it hides none of the optional ones from tf6server.
type frameworkServer interface {
	tfprotov6.ProviderServer
	tfprotov6.ListResourceServer
	tfprotov6.ActionServer
	tfprotov6.StateStoreServer
}

// Server is the framework's protocol 6 server, whose ReadDataSource sends
// a list data source's streamed state, and whose PlanResourceChange
// answers the plan of an unchanged object itself.
type Server struct {
	frameworkServer
	unchanged *unchangedPlans
	// reads are the resource types whose refreshes the server answers
	// (read_resource.go), by name.
	reads            map[string]*readType
	providerTypeName string
	// cancels are those of the reads under way, which StopProvider
	// cancels as the framework does its own RPCs'.
	cancelsMu  sync.Mutex
	cancels    map[*context.CancelFunc]struct{}
	readServed atomic.Int64
	// upgradeServed counts the upgrades the server answered
	// (upgrade_state.go).
	upgradeServed atomic.Int64
}

// ConfigureProvider configures the provider through the framework and
// keeps the configuration for the plans of unchanged objects, unless the
// provider failed or may have deferred: then every plan goes through the
// framework, which defers it. The protocol's response carries no deferral
// (the framework keeps it, and answers every later plan deferred), so a
// configuration that Terraform allowed to defer counts as deferred.
func (s *Server) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	slot := &configuredSlot{}
	resp, err := s.frameworkServer.ConfigureProvider(context.WithValue(ctx, configuredSlotKey{}, slot), req)
	if err != nil || resp == nil || slot.data == nil || hasError(resp.Diagnostics) || mayDefer(req) {
		s.unchanged.configured.Store(nil)
		return resp, err
	}
	s.unchanged.configured.Store(&configuration{data: slot.data})
	return resp, err
}

// mayDefer reports whether the provider configured by req may have
// deferred: Terraform allows it.
func mayDefer(req *tfprotov6.ConfigureProviderRequest) bool {
	return req != nil && req.ClientCapabilities != nil && req.ClientCapabilities.DeferralAllowed
}

// PlanResourceChange plans an unchanged object whose resource has nothing
// to say about it without the framework's walks of its value; every other
// plan goes through the framework.
func (s *Server) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	if resp := s.unchanged.plan(ctx, req); resp != nil {
		return resp, nil
	}
	return s.frameworkServer.PlanResourceChange(ctx, req)
}

// ReadResource refreshes an object of a resource that plans its unchanged
// objects itself without the framework's walks of its value
// (read_resource.go); every other read goes through the framework.
func (s *Server) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	key := &cancel
	s.cancelsMu.Lock()
	if s.cancels == nil {
		s.cancels = map[*context.CancelFunc]struct{}{}
	}
	s.cancels[key] = struct{}{}
	s.cancelsMu.Unlock()
	defer func() {
		s.cancelsMu.Lock()
		delete(s.cancels, key)
		s.cancelsMu.Unlock()
	}()
	if resp := s.read(ctx, req); resp != nil {
		s.readServed.Add(1)
		return resp, nil
	}
	return s.frameworkServer.ReadResource(ctx, req)
}

// StopProvider cancels the reads under way, and the framework's RPCs.
func (s *Server) StopProvider(ctx context.Context, req *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	s.cancelsMu.Lock()
	for c := range s.cancels {
		(*c)()
	}
	s.cancelsMu.Unlock()
	return s.frameworkServer.StopProvider(ctx, req)
}

// ReadServed is the number of reads the server answered itself.
func (s *Server) ReadServed() int64 { return s.readServed.Load() }

// ReadDataSource reads through the framework and, when the data source left
// its state in the slot (ReadList), sends that state.
func (s *Server) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	slot := &stateSlot{}
	resp, err := s.frameworkServer.ReadDataSource(context.WithValue(ctx, stateSlotKey{}, slot), req)
	if err != nil || resp == nil || slot.msgpack == nil {
		return resp, err
	}
	if hasError(resp.Diagnostics) {
		return resp, nil
	}
	resp.State = &tfprotov6.DynamicValue{MsgPack: slot.msgpack}
	return resp, nil
}

// UnchangedServed is the number of plans the server answered itself.
func (s *Server) UnchangedServed() int64 { return s.unchanged.served.Load() }

// hasError reports whether diags holds an error.
func hasError(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}
