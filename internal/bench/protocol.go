package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/provider"
)

// endpoints are the service URLs and credentials the provider is configured
// with.
type endpoints struct {
	BaseURL string `json:"base_url"`
	AuthURL string `json:"auth_url"`
	WSURL   string `json:"ws_url"`
	// The emulator's built-in client; never passed to child processes,
	// which use the same defaults.
	ClientID     string `json:"-"`
	ClientSecret string `json:"-"`
}

// protoProvider is the provider served in-process through the protocol 6
// server that main.go serves (provider.NewProtocol6Server: the framework's
// server, with the list data sources' state streamed), as Terraform would
// talk to it over gRPC, minus the gRPC layer.
type protoProvider struct {
	srv    tfprotov6.ProviderServer
	schema *tfprotov6.GetProviderSchemaResponse
}

// newProtoProvider builds the provider's protocol server, reads its schema
// and configures it for ep.
func newProtoProvider(ctx context.Context, ep endpoints) (*protoProvider, error) {
	// The server main.go serves: the list data sources stream their state.
	srv, err := provider.NewProtocol6Server(provider.New("bench")())()
	if err != nil {
		return nil, fmt.Errorf("provider server: %w", err)
	}
	sch, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return nil, fmt.Errorf("GetProviderSchema: %w", err)
	}
	if err := diagError("GetProviderSchema", sch.Diagnostics); err != nil {
		return nil, err
	}
	p := &protoProvider{srv: srv, schema: sch}
	cfg, err := objectValue(sch.Provider, map[string]tftypes.Value{
		"client_id":     tftypes.NewValue(tftypes.String, ep.ClientID),
		"client_secret": tftypes.NewValue(tftypes.String, ep.ClientSecret),
		"base_url":      tftypes.NewValue(tftypes.String, ep.BaseURL),
		"auth_url":      tftypes.NewValue(tftypes.String, ep.AuthURL),
		"ws_url":        tftypes.NewValue(tftypes.String, ep.WSURL),
	})
	if err != nil {
		return nil, fmt.Errorf("provider configuration: %w", err)
	}
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "bench", Config: cfg})
	if err != nil {
		return nil, fmt.Errorf("ConfigureProvider: %w", err)
	}
	if err := diagError("ConfigureProvider", resp.Diagnostics); err != nil {
		return nil, err
	}
	return p, nil
}

// hasDataSource reports whether the provider serves the data source typeName.
func (p *protoProvider) hasDataSource(typeName string) bool {
	_, ok := p.schema.DataSourceSchemas[typeName]
	return ok
}

// dataSourceConfig is the configuration of data source typeName with the
// attributes in set and every other attribute null.
func (p *protoProvider) dataSourceConfig(typeName string, set map[string]tftypes.Value) (*tfprotov6.DynamicValue, error) {
	sch, ok := p.schema.DataSourceSchemas[typeName]
	if !ok {
		return nil, fmt.Errorf("the provider has no data source %s", typeName)
	}
	return objectValue(sch, set)
}

// readDataSource calls ReadDataSource with config and returns the new state.
func (p *protoProvider) readDataSource(ctx context.Context, typeName string, config *tfprotov6.DynamicValue) (*tfprotov6.DynamicValue, error) {
	resp, err := p.srv.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: config})
	if err != nil {
		return nil, fmt.Errorf("ReadDataSource %s: %w", typeName, err)
	}
	if err := diagError("ReadDataSource "+typeName, resp.Diagnostics); err != nil {
		return nil, err
	}
	if resp.State == nil {
		return nil, fmt.Errorf("ReadDataSource %s: no state", typeName)
	}
	return resp.State, nil
}

// listLength decodes state of data source typeName and returns the length
// of its list attribute attr.
func (p *protoProvider) listLength(typeName string, state *tfprotov6.DynamicValue, attr string) (int, error) {
	typ := p.schema.DataSourceSchemas[typeName].ValueType()
	v, err := state.Unmarshal(typ)
	if err != nil {
		return 0, fmt.Errorf("decoding the state of %s: %w", typeName, err)
	}
	var obj map[string]tftypes.Value
	if err := v.As(&obj); err != nil {
		return 0, err
	}
	var items []tftypes.Value
	if err := obj[attr].As(&items); err != nil {
		return 0, fmt.Errorf("%s.%s: %w", typeName, attr, err)
	}
	return len(items), nil
}

// objectValue encodes an object of schema sch whose attributes are those in
// set and null elsewhere. Nested blocks are left null (none of the
// configurations used here have any).
func objectValue(sch *tfprotov6.Schema, set map[string]tftypes.Value) (*tfprotov6.DynamicValue, error) {
	typ := sch.ValueType()
	obj, ok := typ.(tftypes.Object)
	if !ok {
		return nil, fmt.Errorf("schema type is %s, not an object", typ)
	}
	vals := make(map[string]tftypes.Value, len(obj.AttributeTypes))
	for name, at := range obj.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
	}
	for name, v := range set {
		if _, ok := obj.AttributeTypes[name]; !ok {
			return nil, fmt.Errorf("the schema has no attribute %q", name)
		}
		vals[name] = v
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
	if err != nil {
		return nil, err
	}
	return &dv, nil
}

// diagError turns error diagnostics into an error.
func diagError(op string, diags []*tfprotov6.Diagnostic) error {
	var msgs []string
	for _, d := range diags {
		if d != nil && d.Severity == tfprotov6.DiagnosticSeverityError {
			msgs = append(msgs, strings.TrimSpace(d.Summary+": "+d.Detail))
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(op + ": " + strings.Join(msgs, "; "))
}
