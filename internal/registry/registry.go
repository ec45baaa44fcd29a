// Package registry lists the types a provider registers (its Resources,
// DataSources, EphemeralResources, ListResources and Actions), so that
// test and bench tables iterate the provider's own registry instead of
// lists written by hand, and says which registered types a table lacks.
package registry

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Kind is the kind of a type, spelled as the block that declares it.
type Kind string

// The kinds of types a provider registers.
const (
	Resource          Kind = "resource"
	DataSource        Kind = "data"
	EphemeralResource Kind = "ephemeral"
	ListResource      Kind = "list"
	Action            Kind = "action"
)

// Type is one registered type.
type Type struct {
	Kind Kind
	// Name is the type name, such as platform_transfers.
	Name string
	// List marks a list data source: a data source whose schema has a
	// computed id and a computed list of objects named items (the
	// contract of the provider's listSchema).
	List bool
	// MoneyCore marks a resource that creates its objects through the
	// provider's money core, keyed by a ref_id or by a natural key: one
	// that implements MoneyCoreResource.
	MoneyCore bool
	// Money is the money.kind of what a resource or an action moves
	// (MoneyMover); "" for a type that moves none.
	Money string
}

// MoneyCoreResource is implemented by a resource that creates its objects
// through the provider's money core. MoneyCoreRefNamespace is the
// namespace its keys are derived and claimed in, such as
// "deposit_address" (or, for a natural key, recorded in, such as
// "profile"). Implementing it is how Types knows a resource is
// on the money core, and so which tables must have a row for it.
type MoneyCoreResource interface {
	MoneyCoreRefNamespace() string
}

// MoneyMover is implemented by a resource or an action that may move
// money: MovesMoney is the money.kind of what it moves (crypto_withdrawal,
// fiat_withdrawal, ...), or "" when it moves none. The shipped policy
// (policies/platform/money.rego) must know every type by it.
type MoneyMover interface {
	MovesMoney() string
}

// movesMoney is the money.kind of what v moves, "" for none.
func movesMoney(v any) string {
	if m, ok := v.(MoneyMover); ok {
		return m.MovesMoney()
	}
	return ""
}

// String is the type as its block names it: "data platform_transfers".
func (t Type) String() string { return string(t.Kind) + " " + t.Name }

// describe is the type in a sentence: "list data source platform_transfers".
func (t Type) describe() string {
	kind := map[Kind]string{
		Resource: "resource", DataSource: "data source", EphemeralResource: "ephemeral resource",
		ListResource: "list resource", Action: "action",
	}[t.Kind]
	switch {
	case t.List:
		kind = "list " + kind
	case t.MoneyCore:
		kind = "money-core " + kind
	}
	return kind + " " + t.Name
}

// Types returns every type p registers, sorted by kind and name.
func Types(ctx context.Context, p provider.Provider) []Type {
	var meta provider.MetadataResponse
	p.Metadata(ctx, provider.MetadataRequest{}, &meta)
	prefix := meta.TypeName
	var types []Type
	for _, f := range p.Resources(ctx) {
		r := f()
		var resp resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: prefix}, &resp)
		_, money := r.(MoneyCoreResource)
		types = append(types, Type{Kind: Resource, Name: resp.TypeName, MoneyCore: money, Money: movesMoney(r)})
	}
	for _, f := range p.DataSources(ctx) {
		d := f()
		var resp datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: prefix}, &resp)
		var s datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &s)
		types = append(types, Type{Kind: DataSource, Name: resp.TypeName, List: IsListSchema(s.Schema)})
	}
	if pe, ok := p.(provider.ProviderWithEphemeralResources); ok {
		for _, f := range pe.EphemeralResources(ctx) {
			var resp ephemeral.MetadataResponse
			f().Metadata(ctx, ephemeral.MetadataRequest{ProviderTypeName: prefix}, &resp)
			types = append(types, Type{Kind: EphemeralResource, Name: resp.TypeName})
		}
	}
	if pl, ok := p.(provider.ProviderWithListResources); ok {
		for _, f := range pl.ListResources(ctx) {
			var resp resource.MetadataResponse
			f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: prefix}, &resp)
			types = append(types, Type{Kind: ListResource, Name: resp.TypeName})
		}
	}
	if pa, ok := p.(provider.ProviderWithActions); ok {
		for _, f := range pa.Actions(ctx) {
			a := f()
			var resp action.MetadataResponse
			a.Metadata(ctx, action.MetadataRequest{ProviderTypeName: prefix}, &resp)
			types = append(types, Type{Kind: Action, Name: resp.TypeName, Money: movesMoney(a)})
		}
	}
	slices.SortFunc(types, func(a, b Type) int {
		return strings.Compare(a.String(), b.String())
	})
	return types
}

// ListDataSources returns the names of the list data sources among types.
func ListDataSources(types []Type) []string {
	var names []string
	for _, t := range types {
		if t.List {
			names = append(names, t.Name)
		}
	}
	return names
}

// IsListSchema reports whether s is the schema of a list data source: a
// computed id and a computed list of objects named items.
func IsListSchema(s schema.Schema) bool {
	id, ok := s.Attributes["id"]
	if !ok || !id.IsComputed() {
		return false
	}
	items, ok := s.Attributes["items"].(schema.ListNestedAttribute)
	return ok && items.IsComputed()
}

// Table is a test or bench table that must have a row for every registered
// type it concerns.
type Table struct {
	// Name says which table it is and where: "pinned-state
	// (TestEquivalenceListStatePinned, testdata/pinned)".
	Name string
	// Concerns reports whether the table must have a row for t.
	Concerns func(t Type) bool
	// Rows are the types the table has a row for, by String
	// ("data platform_transfers") or, for a table of one kind, by name.
	Rows []string
}

// Lists is the Concerns of a table of list data sources.
func Lists(t Type) bool { return t.List }

// MoneyCore is the Concerns of a table of the resources on the money core
// (see MoneyCoreResource).
func MoneyCore(t Type) bool { return t.MoneyCore }

// Kinds is the Concerns of a table of every type of the given kinds.
func Kinds(kinds ...Kind) func(Type) bool {
	return func(t Type) bool { return slices.Contains(kinds, t.Kind) }
}

// Missing returns, for each table, one line per registered type the table
// concerns and has no row for, and one per row that names no registered
// type it concerns. Nothing means every table is complete.
func Missing(types []Type, tables ...Table) []string {
	var out []string
	for _, tb := range tables {
		rows := map[string]bool{}
		for _, r := range tb.Rows {
			rows[r] = true
		}
		known := map[string]bool{}
		for _, t := range types {
			if !tb.Concerns(t) {
				continue
			}
			known[t.String()], known[t.Name] = true, true
			if !rows[t.String()] && !rows[t.Name] {
				out = append(out, fmt.Sprintf("%s is registered but has no row in the %s table", t.describe(), tb.Name))
			}
		}
		stale := slices.Sorted(func(yield func(string) bool) {
			for r := range rows {
				if !known[r] && !yield(r) {
					return
				}
			}
		})
		for _, r := range stale {
			out = append(out, fmt.Sprintf("the %s table has a row for %s, which is not a registered type it concerns", tb.Name, r))
		}
	}
	return out
}
