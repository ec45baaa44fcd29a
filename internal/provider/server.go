package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The list data sources can return a very large number of items (100,000
// fiat accounts and more). The framework holds a state as a tree of
// tftypes values, copies it, and converts it to framework values once more
// for its semantic-equality pass: several kilobytes per item, several
// times over, which reaches gigabytes. So the list data sources write their
// state directly in MessagePack, the encoding in which Terraform's plugin
// protocol carries values, one item at a time while they page through the
// API. Only those bytes and the API page being read stay in memory.
//
// The bytes reach Terraform in one of two ways:
//
//   - Through the server of NewProtocol6Server, which main.go and the tests
//     serve: its ReadDataSource gives the data source a slot in the context,
//     the data source leaves its bytes there, and the server sends them as
//     the response's state. The framework still validates the
//     configuration, configures the provider and the data source, and
//     reports diagnostics.
//   - Through a plain framework server (providerserver.NewProtocol6 and
//     friends): there is no slot, so the data source decodes its bytes into
//     resp.State. The result is the same; only the memory use differs.
//
// The state is written by internal/tfmsgpack; the item encoders are built
// from the same shapes as the item schemas (objects.go), so the two
// cannot drift apart. TestServerExposesEveryFrameworkMethod fails when the
// framework's server gains a method this wrapper does not expose.

// NewProtocol6Server returns a factory of the provider's protocol 6 server:
// the framework's server, with the state of the list data sources sent as
// MessagePack written while paging. Serve it (tf6server.Serve) or give it to
// terraform-plugin-testing instead of providerserver.NewProtocol6WithError.
func NewProtocol6Server(p provider.Provider) func() (tfprotov6.ProviderServer, error) {
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
		return &streamingServer{frameworkServer: full, unchanged: newUnchangedPlans(context.Background(), p)}, nil
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

// streamingServer is the framework's server, whose ReadDataSource sends a
// list data source's streamed state, and whose PlanResourceChange answers
// the plan of an unchanged object itself (unchanged_plan.go).
type streamingServer struct {
	frameworkServer
	unchanged *unchangedPlans
}

// ConfigureProvider configures the provider through the framework and
// keeps the configuration for the plans of unchanged objects.
func (s *streamingServer) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	slot := &configuredSlot{}
	resp, err := s.frameworkServer.ConfigureProvider(context.WithValue(ctx, configuredSlotKey{}, slot), req)
	if err == nil && resp != nil && slot.data != nil && !hasErrorDiagnostic(resp.Diagnostics) {
		s.unchanged.data.Store(slot.data)
	}
	return resp, err
}

// PlanResourceChange plans an unchanged object whose resource has nothing
// to say about it without the framework's walks of its value; every other
// plan goes through the framework.
func (s *streamingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	if resp := s.unchanged.plan(ctx, req); resp != nil {
		return resp, nil
	}
	return s.frameworkServer.PlanResourceChange(ctx, req)
}

// hasErrorDiagnostic reports whether diags holds an error.
func hasErrorDiagnostic(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// ReadDataSource reads through the framework and, when the data source left
// its state in the slot, sends that state.
func (s *streamingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	slot := &stateSlot{}
	resp, err := s.frameworkServer.ReadDataSource(context.WithValue(ctx, stateSlotKey{}, slot), req)
	if err != nil || resp == nil || slot.msgpack == nil {
		return resp, err
	}
	if hasErrorDiagnostic(resp.Diagnostics) {
		return resp, nil
	}
	resp.State = &tfprotov6.DynamicValue{MsgPack: slot.msgpack}
	return resp, nil
}

type stateSlotKey struct{}

// stateSlot receives the MessagePack state of one data source read.
type stateSlot struct {
	msgpack []byte
}

// setState hands the MessagePack state b to Terraform: through the slot of
// the streaming server when there is one, or else decoded into resp.State.
func setState(ctx context.Context, b []byte, resp *datasource.ReadResponse) {
	if slot, ok := ctx.Value(stateSlotKey{}).(*stateSlot); ok {
		slot.msgpack = b
		return
	}
	typ := resp.State.Schema.Type().TerraformType(ctx)
	v, err := (&tfprotov6.DynamicValue{MsgPack: b}).Unmarshal(typ)
	if err != nil {
		resp.Diagnostics.AddError("Unable to build the state",
			"The data source's state does not match its schema: "+err.Error()+
				". This is a bug in the provider; please report it.")
		return
	}
	resp.State.Raw = v
}
