package provider

import (
	"context"
	"fmt"
	"iter"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/bypass"
	"github.com/platform/terraform-provider-platform/internal/tfmsgpack"
)

// readList is the Read of a list data source. It writes the state: every
// configuration attribute as configured, "id", and "items" from the items
// of seq (which pages through the API), each written by shape and then
// dropped. skip means a filter matches nothing: items is empty and no
// request is sent. what names the items in messages ("fiat accounts").
func readList[T any](ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse,
	id string, shape objectShape[T], seq iter.Seq2[*T, error], skip bool, what string,
) {
	bypass.LimitMemoryForLists()
	w := tfmsgpack.New()
	objType, ok := req.Config.Raw.Type().(tftypes.Object)
	if !ok {
		resp.Diagnostics.AddError("Unexpected configuration", fmt.Sprintf(
			"The configuration is a %s, not an object. This is a bug in the provider; please report it.", req.Config.Raw.Type()))
		return
	}
	var config map[string]tftypes.Value
	if err := req.Config.Raw.As(&config); err != nil {
		resp.Diagnostics.AddError("Unexpected configuration", err.Error())
		return
	}
	names := make([]string, 0, len(objType.AttributeTypes))
	for name := range objType.AttributeTypes {
		names = append(names, name)
	}
	slices.Sort(names)
	w.MapHeader(len(names))
	for _, name := range names {
		if name == "id" || name == "items" {
			continue
		}
		w.Str(name)
		if err := w.Value(objType.AttributeTypes[name], config[name]); err != nil {
			resp.Diagnostics.AddError("Unexpected configuration", fmt.Sprintf("%s: %s", name, err))
			return
		}
	}
	w.Str("id")
	w.Str(id)
	w.Str("items")
	count := w.BeginArray()
	n := 0
	if !skip {
		for item, err := range seq {
			if err != nil {
				resp.Diagnostics.AddError(failure("Unable to list "+what, err),
					fmt.Sprintf("Listing %s failed after %d items: %s", what, n, err))
				return
			}
			shape.write(w, item)
			w.Seal()
			n++
		}
	}
	w.EndArray(count, n)
	b, err := w.Bytes()
	if err != nil {
		resp.Diagnostics.AddError("Unable to build the state", err.Error()+". This is a bug in the provider; please report it.")
		return
	}
	tflog.Debug(ctx, "listed "+what, map[string]any{"items": n, "state_bytes": len(b)})
	setState(ctx, b, resp)
}

// listSchema checks the contract of a list data source's schema, which
// readList relies on: a computed "id" and a computed "items", and every
// other attribute a filter the configuration sets (readList writes those
// as configured). It runs once per schema; a schema that breaks the
// contract is a programming error, which every test that builds the
// provider's schemas reports.
func listSchema(s schema.Schema) schema.Schema {
	for _, name := range []string{"id", "items"} {
		a, ok := s.Attributes[name]
		if !ok || !a.IsComputed() || a.IsOptional() || a.IsRequired() {
			panic(fmt.Sprintf("list data source schema: %q must be a computed attribute", name))
		}
	}
	for name, a := range s.Attributes {
		if name != "id" && name != "items" && a.IsComputed() {
			panic(fmt.Sprintf("list data source schema: %q is computed, but readList writes only id and items", name))
		}
	}
	return s
}
