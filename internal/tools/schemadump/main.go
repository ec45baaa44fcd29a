// Command schemadump prints the provider's schemas in the JSON format of
// `terraform providers schema -json`, read straight from the provider's
// protocol server. The docs are generated from it (tfplugindocs
// --providers-schema) so that actions and ephemeral resources are documented
// even with a Terraform that cannot show them.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/platform/terraform-provider-platform/internal/provider"
)

// providerKey is the key of the provider's schema in the output.
// tfplugindocs --providers-schema looks a provider up by its short name
// (or under the hashicorp namespace), not by its full registry address
// (registry.terraform.io/platform/platform).
const providerKey = "platform"

type jsonSchema struct {
	Version int64      `json:"version"`
	Block   *jsonBlock `json:"block"`
}

type jsonBlock struct {
	Attributes      map[string]*jsonAttribute `json:"attributes,omitempty"`
	BlockTypes      map[string]*jsonBlockType `json:"block_types,omitempty"`
	Description     string                    `json:"description,omitempty"`
	DescriptionKind string                    `json:"description_kind,omitempty"`
	Deprecated      bool                      `json:"deprecated,omitempty"`
}

type jsonBlockType struct {
	NestingMode string     `json:"nesting_mode"`
	Block       *jsonBlock `json:"block"`
	MinItems    int64      `json:"min_items,omitempty"`
	MaxItems    int64      `json:"max_items,omitempty"`
}

type jsonAttribute struct {
	Type            json.RawMessage `json:"type,omitempty"`
	NestedType      *jsonNestedType `json:"nested_type,omitempty"`
	Description     string          `json:"description,omitempty"`
	DescriptionKind string          `json:"description_kind,omitempty"`
	Deprecated      bool            `json:"deprecated,omitempty"`
	Required        bool            `json:"required,omitempty"`
	Optional        bool            `json:"optional,omitempty"`
	Computed        bool            `json:"computed,omitempty"`
	Sensitive       bool            `json:"sensitive,omitempty"`
	WriteOnly       bool            `json:"write_only,omitempty"`
}

type jsonNestedType struct {
	Attributes  map[string]*jsonAttribute `json:"attributes"`
	NestingMode string                    `json:"nesting_mode"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "schemadump:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx := context.Background()
	srv, err := providerserver.NewProtocol6WithError(provider.New("docs")())()
	if err != nil {
		return err
	}
	resp, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return err
	}
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return fmt.Errorf("%s: %s", d.Summary, d.Detail)
		}
	}
	out := map[string]any{
		"provider":                   schema(resp.Provider),
		"resource_schemas":           schemas(resp.ResourceSchemas),
		"data_source_schemas":        schemas(resp.DataSourceSchemas),
		"ephemeral_resource_schemas": schemas(resp.EphemeralResourceSchemas),
		"list_resource_schemas":      schemas(resp.ListResourceSchemas),
	}
	actions := map[string]any{}
	for name, a := range resp.ActionSchemas {
		actions[name] = map[string]any{"block": schema(a.Schema).Block}
	}
	out["action_schemas"] = actions
	ids, err := srv.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		return err
	}
	identities := map[string]any{}
	for name, s := range ids.IdentitySchemas {
		attrs := map[string]any{}
		for _, a := range s.IdentityAttributes {
			ja := map[string]any{"description": a.Description, "required_for_import": a.RequiredForImport}
			if a.Type != nil {
				raw, err := a.Type.MarshalJSON() //nolint:staticcheck // the cty JSON type encoding is what the schema format uses.
				if err != nil {
					return err
				}
				ja["type"] = json.RawMessage(raw)
			}
			attrs[a.Name] = ja
		}
		identities[name] = map[string]any{"version": s.Version, "attributes": attrs}
	}
	out["resource_identity_schemas"] = identities
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(map[string]any{
		"format_version":   "1.0",
		"provider_schemas": map[string]any{providerKey: out},
	})
}

func schemas(in map[string]*tfprotov6.Schema) map[string]*jsonSchema {
	out := make(map[string]*jsonSchema, len(in))
	for name, s := range in {
		out[name] = schema(s)
	}
	return out
}

func schema(s *tfprotov6.Schema) *jsonSchema {
	if s == nil {
		return &jsonSchema{Block: &jsonBlock{}}
	}
	return &jsonSchema{Version: s.Version, Block: block(s.Block)}
}

func descKind(k tfprotov6.StringKind) string {
	if k == tfprotov6.StringKindMarkdown {
		return "markdown"
	}
	return "plain"
}

func block(b *tfprotov6.SchemaBlock) *jsonBlock {
	if b == nil {
		return &jsonBlock{}
	}
	out := &jsonBlock{
		Description:     b.Description,
		DescriptionKind: descKind(b.DescriptionKind),
		Deprecated:      b.Deprecated,
	}
	if len(b.Attributes) > 0 {
		out.Attributes = attributes(b.Attributes)
	}
	if len(b.BlockTypes) > 0 {
		out.BlockTypes = map[string]*jsonBlockType{}
		for _, bt := range b.BlockTypes {
			out.BlockTypes[bt.TypeName] = &jsonBlockType{
				NestingMode: nesting(bt.Nesting.String()),
				Block:       block(bt.Block),
				MinItems:    bt.MinItems,
				MaxItems:    bt.MaxItems,
			}
		}
	}
	return out
}

func attributes(in []*tfprotov6.SchemaAttribute) map[string]*jsonAttribute {
	out := make(map[string]*jsonAttribute, len(in))
	for _, a := range in {
		ja := &jsonAttribute{
			Description:     a.Description,
			DescriptionKind: descKind(a.DescriptionKind),
			Deprecated:      a.Deprecated,
			Required:        a.Required,
			Optional:        a.Optional,
			Computed:        a.Computed,
			Sensitive:       a.Sensitive,
			WriteOnly:       a.WriteOnly,
		}
		if a.NestedType != nil {
			ja.NestedType = &jsonNestedType{
				Attributes:  attributes(a.NestedType.Attributes),
				NestingMode: nesting(a.NestedType.Nesting.String()),
			}
		} else if a.Type != nil {
			raw, err := a.Type.MarshalJSON() //nolint:staticcheck // the cty JSON type encoding is what the schema format uses.
			if err == nil {
				ja.Type = raw
			}
		}
		out[a.Name] = ja
	}
	return out
}

// nesting maps the protocol's nesting names (NESTING_LIST, LIST, ...) to
// the JSON format's (list, set, map, single, group).
func nesting(s string) string {
	switch s {
	case "NESTING_SINGLE", "SINGLE":
		return "single"
	case "NESTING_GROUP", "GROUP":
		return "group"
	case "NESTING_LIST", "LIST":
		return "list"
	case "NESTING_SET", "SET":
		return "set"
	case "NESTING_MAP", "MAP":
		return "map"
	}
	return s
}
