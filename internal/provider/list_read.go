package provider

import (
	"context"
	"fmt"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/platform/terraform-provider-platform/internal/bypass"
	"github.com/platform/terraform-provider-platform/internal/tfmsgpack"
)

// readList is the Read of a list data source: bypass.ReadList writes the
// state (every configuration attribute as configured, "id" and "items")
// in MessagePack, and the items come from seq (which pages through the
// API), each written by shape and then dropped. skip means a filter
// matches nothing: items is empty and no request is sent. what names the
// items in messages ("fiat accounts").
func readList[T any](ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse,
	id string, shape objectShape[T], seq iter.Seq2[*T, error], skip bool, what string,
) {
	bypass.ReadList(ctx, req, resp, id, what, func(w *tfmsgpack.Writer) (int, bool) {
		n := 0
		if skip {
			return n, true
		}
		for item, err := range seq {
			if err != nil {
				resp.Diagnostics.AddError(failure("Unable to list "+what, err),
					fmt.Sprintf("Listing %s failed after %d items: %s", what, n, err))
				return n, false
			}
			shape.write(w, item)
			w.Seal()
			n++
		}
		return n, true
	})
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
