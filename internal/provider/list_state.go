package provider

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
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
// The item encoders are built from the same field lists as the item
// schemas (itemField), so the two cannot drift apart.

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
		return &streamingServer{frameworkServer: full}, nil
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
// list data source's streamed state.
type streamingServer struct {
	frameworkServer
}

// ReadDataSource reads through the framework and, when the data source left
// its state in the slot, sends that state.
func (s *streamingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	slot := &stateSlot{}
	resp, err := s.frameworkServer.ReadDataSource(context.WithValue(ctx, stateSlotKey{}, slot), req)
	if err != nil || resp == nil || slot.msgpack == nil {
		return resp, err
	}
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return resp, nil
		}
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

// readList is the Read of a list data source. It writes the state: every
// configuration attribute as configured, "id", and "items" from the items
// of seq (which pages through the API), each written by shape and then
// dropped. skip means a filter matches nothing: items is empty and no
// request is sent. what names the items in messages ("fiat accounts").
func readList[T any](ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse,
	id string, shape itemShape[T], seq iter.Seq2[*T, error], skip bool, what string,
) {
	w := &mpWriter{b: make([]byte, 0, 4096)}
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
	w.mapHeader(len(names))
	for _, name := range names {
		if name == "id" || name == "items" {
			continue
		}
		w.str(name)
		if err := w.value(objType.AttributeTypes[name], config[name]); err != nil {
			resp.Diagnostics.AddError("Unexpected configuration", fmt.Sprintf("%s: %s", name, err))
			return
		}
	}
	w.str("id")
	w.str(id)
	w.str("items")
	count := w.beginArray()
	n := 0
	if !skip {
		for item, err := range seq {
			if err != nil {
				resp.Diagnostics.AddError("Unable to list "+what,
					fmt.Sprintf("Listing %s failed after %d items: %s", what, n, err))
				return
			}
			shape.write(w, item)
			w.seal()
			n++
		}
	}
	w.endArray(count, n)
	b := w.bytes()
	tflog.Debug(ctx, "listed "+what, map[string]any{"items": n, "state_bytes": len(b)})
	setState(ctx, b, resp)
}

// Item shapes: the schema and the encoder of list items, from one list of
// fields.

// itemField is one attribute of a list item: its schema and how to write
// it from the client's value.
type itemField[T any] struct {
	name  string
	attr  schema.Attribute
	write func(w *mpWriter, v *T)
}

// itemShape is the attributes of a list item.
type itemShape[T any] []itemField[T]

// attributes is the schema of the item's attributes.
func (s itemShape[T]) attributes() map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(s))
	for _, f := range s {
		out[f.name] = f.attr
	}
	return out
}

// write writes v as an object, or null when v is nil.
func (s itemShape[T]) write(w *mpWriter, v *T) {
	if v == nil {
		w.null()
		return
	}
	w.mapHeader(len(s))
	for _, f := range s {
		w.str(f.name)
		f.write(w, v)
	}
}

// listAttribute is the computed items attribute of the list.
func (s itemShape[T]) listAttribute(description string) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: description,
		NestedObject:        schema.NestedAttributeObject{Attributes: s.attributes()},
	}
}

func stringField[T any](name, description string, get func(*T) *string) itemField[T] {
	return itemField[T]{
		name:  name,
		attr:  schema.StringAttribute{Computed: true, MarkdownDescription: description},
		write: func(w *mpWriter, v *T) { w.strPtr(get(v)) },
	}
}

func timeField[T any](name, description string, get func(*T) *time.Time) itemField[T] {
	return itemField[T]{
		name:  name,
		attr:  schema.StringAttribute{Computed: true, MarkdownDescription: description + " (RFC 3339)."},
		write: func(w *mpWriter, v *T) { w.timePtr(get(v)) },
	}
}

func stringListField[T any](name, description string, get func(*T) []string) itemField[T] {
	return itemField[T]{
		name:  name,
		attr:  schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: description},
		write: func(w *mpWriter, v *T) { w.stringList(get(v)) },
	}
}

func stringMapField[T any](name, description string, get func(*T) map[string]string) itemField[T] {
	return itemField[T]{
		name:  name,
		attr:  schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: description},
		write: func(w *mpWriter, v *T) { w.stringMap(get(v)) },
	}
}

// anyMapField is a map of free-form values, rendered as a map of strings
// as anyMapValue renders one: strings as they are, other values as JSON,
// null when empty.
func anyMapField[T any](name, description string, get func(*T) map[string]any) itemField[T] {
	return itemField[T]{
		name: name,
		attr: schema.MapAttribute{
			Computed:            true,
			ElementType:         types.StringType,
			MarkdownDescription: description + " Values that are not strings are rendered as JSON.",
		},
		write: func(w *mpWriter, v *T) { w.anyMap(get(v)) },
	}
}

// objectField is a nested object, null when get returns nil.
func objectField[T, U any](name, description string, get func(*T) *U, shape itemShape[U]) itemField[T] {
	return itemField[T]{
		name: name,
		attr: schema.SingleNestedAttribute{
			Computed:            true,
			MarkdownDescription: description,
			Attributes:          shape.attributes(),
		},
		write: func(w *mpWriter, v *T) { shape.write(w, get(v)) },
	}
}

// sharedObjectField is a nested object whose schema is one of the objects
// shared with fiat deposit instructions (a computedAttr); shape must have
// been built from the same computedAttr (shapeOf).
func sharedObjectField[T, U any](name string, a computedAttr, get func(*T) *U, shape itemShape[U]) itemField[T] {
	return itemField[T]{
		name:  name,
		attr:  a.dataSourceAttribute(),
		write: func(w *mpWriter, v *T) { shape.write(w, get(v)) },
	}
}

// shapeOf is the shape of the shared object a, written by one writer per
// attribute of a. It panics when the writers and the attributes of a do not
// name the same attributes: a programming error, caught by any test.
func shapeOf[T any](a computedAttr, writers map[string]func(*mpWriter, *T)) itemShape[T] {
	if a.nested == nil || len(writers) != len(a.nested) {
		panic(fmt.Sprintf("shapeOf: %d writers for %d attributes", len(writers), len(a.nested)))
	}
	shape := make(itemShape[T], 0, len(writers))
	for name, sub := range a.nested {
		write, ok := writers[name]
		if !ok {
			panic("shapeOf: no writer for attribute " + name)
		}
		shape = append(shape, itemField[T]{name: name, attr: sub.dataSourceAttribute(), write: write})
	}
	slices.SortFunc(shape, func(x, y itemField[T]) int { return strings.Compare(x.name, y.name) })
	return shape
}

// writeString and writeObject are writers for shapeOf.
func writeString[T any](get func(*T) *string) func(*mpWriter, *T) {
	return func(w *mpWriter, v *T) { w.strPtr(get(v)) }
}

func writeObject[T, U any](get func(*T) *U, shape itemShape[U]) func(*mpWriter, *T) {
	return func(w *mpWriter, v *T) { shape.write(w, get(v)) }
}

// mpWriter appends values in MessagePack as Terraform's plugin protocol
// encodes them (cty's msgpack encoding): objects and maps as maps keyed by
// name, lists as arrays, null as nil.
//
// A large output is kept in chunks of about mpChunk bytes (see seal) and
// joined once by bytes, rather than in one slice that append grows, which
// would copy it over and over and hold two copies at each growth.
type mpWriter struct {
	// b is the chunk being written.
	b []byte
	// sealed are the chunks written before b.
	sealed [][]byte
	size   int
}

// mpChunk is the size from which seal starts a new chunk, and mpSlack the
// room left after it for the item that crosses it (an item larger than
// that grows its chunk once).
const (
	mpChunk = 1 << 20
	mpSlack = 64 << 10
)

// seal starts a new chunk when the current one has reached mpChunk bytes.
// Call it between whole values only.
func (w *mpWriter) seal() {
	if len(w.b) < mpChunk {
		return
	}
	w.sealed = append(w.sealed, w.b)
	w.size += len(w.b)
	// Room for the item that fills the chunk, so that a chunk is rarely
	// copied to grow, without leaving much of it unused.
	w.b = make([]byte, 0, mpChunk+mpSlack)
}

// bytes returns everything written, in one slice of the exact size. The
// writer must not be used afterwards.
func (w *mpWriter) bytes() []byte {
	if len(w.sealed) == 0 {
		return w.b
	}
	out := make([]byte, 0, w.size+len(w.b))
	for i, c := range w.sealed {
		out = append(out, c...)
		w.sealed[i] = nil // Let each chunk go as soon as it is copied.
	}
	out = append(out, w.b...)
	w.sealed, w.b = nil, nil
	return out
}

func (w *mpWriter) null() { w.b = append(w.b, 0xc0) }

// header writes the header of a string, array or map of n elements: the
// fix form (n < fixMax, code fix|n) or the 16- or 32-bit form.
func (w *mpWriter) header(n int, fix byte, fixMax int, c16, c32 byte) {
	if n < 0 || n > math.MaxUint32 {
		panic(fmt.Sprintf("msgpack: length %d out of range", n))
	}
	if n < fixMax && n <= 0x1f {
		w.b = append(w.b, fix|byte(n))
		return
	}
	if n <= math.MaxUint16 {
		w.b = binary.BigEndian.AppendUint16(append(w.b, c16), uint16(n))
		return
	}
	w.b = binary.BigEndian.AppendUint32(append(w.b, c32), uint32(n))
}

func (w *mpWriter) str(s string) {
	w.strHeader(len(s))
	w.b = append(w.b, s...)
}

func (w *mpWriter) strHeader(n int) {
	if n >= 32 && n <= math.MaxUint8 {
		w.b = append(w.b, 0xd9, byte(n))
	} else {
		w.header(n, 0xa0, 32, 0xda, 0xdb)
	}
}

// strPtr writes *p, or null when p is nil or empty.
func (w *mpWriter) strPtr(p *string) {
	if p == nil || *p == "" {
		w.null()
		return
	}
	w.str(*p)
}

// timePtr writes *t as formatTime does, or null when t is nil.
func (w *mpWriter) timePtr(t *time.Time) {
	if t == nil {
		w.null()
		return
	}
	var buf [64]byte
	b := t.AppendFormat(buf[:0], time.RFC3339Nano)
	w.strHeader(len(b))
	w.b = append(w.b, b...)
}

func (w *mpWriter) mapHeader(n int)   { w.header(n, 0x80, 16, 0xde, 0xdf) }
func (w *mpWriter) arrayHeader(n int) { w.header(n, 0x90, 16, 0xdc, 0xdd) }

// arrayMark is where the length of an array begun by beginArray goes.
type arrayMark struct{ chunk, at int }

// beginArray starts an array whose length is not known yet and returns
// where to write it (endArray).
func (w *mpWriter) beginArray() arrayMark {
	w.b = append(w.b, 0xdd, 0, 0, 0, 0)
	return arrayMark{chunk: len(w.sealed), at: len(w.b) - 4}
}

func (w *mpWriter) endArray(m arrayMark, n int) {
	if n < 0 || n > math.MaxUint32 {
		panic(fmt.Sprintf("msgpack: length %d out of range", n))
	}
	c := w.b
	if m.chunk < len(w.sealed) {
		c = w.sealed[m.chunk]
	}
	binary.BigEndian.PutUint32(c[m.at:m.at+4], uint32(n))
}

func (w *mpWriter) stringList(s []string) {
	if s == nil {
		w.null()
		return
	}
	w.arrayHeader(len(s))
	for _, v := range s {
		w.str(v)
	}
}

// stringMap writes m, or null when it is empty.
func (w *mpWriter) stringMap(m map[string]string) {
	if len(m) == 0 {
		w.null()
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	w.mapHeader(len(keys))
	for _, k := range keys {
		w.str(k)
		w.str(m[k])
	}
}

// anyMap writes m as a map of strings: strings as they are, other values
// as JSON (null as null); null when m is empty.
func (w *mpWriter) anyMap(m map[string]any) {
	if len(m) == 0 {
		w.null()
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	w.mapHeader(len(keys))
	for _, k := range keys {
		w.str(k)
		switch v := m[k].(type) {
		case string:
			w.str(v)
		case nil:
			w.null()
		default:
			b, err := json.Marshal(v)
			if err != nil {
				w.null()
				continue
			}
			w.str(string(b))
		}
	}
}

// value writes a configuration value of type typ, in the encoding of
// terraform-plugin-go.
func (w *mpWriter) value(typ tftypes.Type, v tftypes.Value) error {
	if !v.IsFullyKnown() {
		return errors.New("the value is not known yet")
	}
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		return err
	}
	w.b = append(w.b, dv.MsgPack...)
	return nil
}
