package bypass

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/tfmsgpack"
)

// The list data sources can return a very large number of items (100,000
// fiat accounts and more). The framework holds a state as a tree of
// tftypes values, copies it, and converts it to framework values once more
// for its semantic-equality pass: several kilobytes per item, several
// times over, which reaches gigabytes. So the list data sources write their
// state directly in MessagePack, the encoding in which Terraform's plugin
// protocol carries values, one item at a time while they page through the
// API (ReadList). Only those bytes and the API page being read stay in
// memory.
//
// The bytes reach Terraform in one of two ways:
//
//   - Through the Server of NewProtocol6Server, which main.go and the
//     tests serve: its ReadDataSource gives the data source a slot in the
//     context, the data source leaves its bytes there, and the server
//     sends them as the response's state. The framework still validates
//     the configuration, configures the provider and the data source, and
//     reports diagnostics.
//   - Through a plain framework server (providerserver.NewProtocol6 and
//     friends): there is no slot, so the data source decodes its bytes into
//     resp.State. The result is the same; only the memory use differs.
//
// The state is written by internal/tfmsgpack; the provider's item
// encoders are built from the same shapes as its item schemas, so the two
// cannot drift apart.

// ReadList is the Read of a list data source. It writes the state: every
// configuration attribute as configured, "id", and "items", which items
// writes into w, calling w.Seal after each item; items reports how many it
// wrote, and false (after adding a diagnostic to resp) to abandon the
// read. what names the items in the log ("fiat accounts"). The state goes
// to Terraform through the slot of the Server, or else into resp.State.
func ReadList(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse,
	id, what string, items func(w *tfmsgpack.Writer) (n int, ok bool),
) {
	LimitMemoryForLists()
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
	n, ok := items(w)
	if !ok {
		return
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

type stateSlotKey struct{}

// stateSlot receives the MessagePack state of one data source read.
type stateSlot struct {
	msgpack []byte
}

// setState hands the MessagePack state b to Terraform: through the slot of
// the Server when there is one, or else decoded into resp.State.
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
