// Package tfmsgpack writes Terraform values in MessagePack, the encoding
// in which Terraform's plugin protocol carries them (cty's msgpack
// encoding): objects and maps as maps keyed by name, lists as arrays,
// null as nil, unknown values never.
//
// The provider's list data sources use it to write their state one item at
// a time while they page through the API, instead of building framework
// values (several kilobytes per item, copied several times over). What it
// relies on, and what to check when terraform-plugin-go or Terraform
// change:
//
//   - the encoding of values: tftypes' msgpack encoding (cty's); objects
//     are maps whose keys are every attribute of the schema, in any order;
//   - DynamicValue.MsgPack carries the state unchanged to Terraform, which
//     decodes it with the data source's schema and checks it.
//
// The provider's tests compare the bytes written here with the state the
// framework builds for the same items, for every list data source.
package tfmsgpack

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Writer appends values in MessagePack as Terraform's plugin protocol
// encodes them (cty's msgpack encoding): objects and maps as maps keyed by
// name, lists as arrays, null as nil.
//
// A large output is kept in chunks of about mpChunk bytes (see Seal) and
// joined once by bytes, rather than in one slice that append grows, which
// would copy it over and over and hold two copies at each growth.
type Writer struct {
	// b is the chunk being written.
	b []byte
	// sealed are the chunks written before b.
	sealed [][]byte
	size   int
}

// New returns an empty writer.
func New() *Writer { return &Writer{b: make([]byte, 0, 4096)} }

// mpChunk is the size from which seal starts a new chunk, and mpSlack the
// room left after it for the item that crosses it (an item larger than
// that grows its chunk once).
const (
	mpChunk = 1 << 20
	mpSlack = 64 << 10
)

// seal starts a new chunk when the current one has reached mpChunk bytes.
// Call it between whole values only.
func (w *Writer) Seal() {
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
func (w *Writer) Bytes() []byte {
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

func (w *Writer) Null() { w.b = append(w.b, 0xc0) }

// header writes the header of a string, array or map of n elements: the
// fix form (n < fixMax, code fix|n) or the 16- or 32-bit form.
func (w *Writer) header(n int, fix byte, fixMax int, c16, c32 byte) {
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

func (w *Writer) Str(s string) {
	w.strHeader(len(s))
	w.b = append(w.b, s...)
}

func (w *Writer) strHeader(n int) {
	if n >= 32 && n <= math.MaxUint8 {
		w.b = append(w.b, 0xd9, byte(n))
	} else {
		w.header(n, 0xa0, 32, 0xda, 0xdb)
	}
}

// strPtr writes *p, or null when p is nil or empty.
func (w *Writer) StrPtr(p *string) {
	if p == nil || *p == "" {
		w.Null()
		return
	}
	w.Str(*p)
}

// timePtr writes *t as formatTime does, or null when t is nil.
func (w *Writer) TimePtr(t *time.Time) {
	if t == nil {
		w.Null()
		return
	}
	var buf [64]byte
	b := t.AppendFormat(buf[:0], time.RFC3339Nano)
	w.strHeader(len(b))
	w.b = append(w.b, b...)
}

func (w *Writer) MapHeader(n int)   { w.header(n, 0x80, 16, 0xde, 0xdf) }
func (w *Writer) ArrayHeader(n int) { w.header(n, 0x90, 16, 0xdc, 0xdd) }

// ArrayMark is where the length of an array begun by BeginArray goes.
type ArrayMark struct{ chunk, at int }

// beginArray starts an array whose length is not known yet and returns
// where to write it (EndArray).
func (w *Writer) BeginArray() ArrayMark {
	w.b = append(w.b, 0xdd, 0, 0, 0, 0)
	return ArrayMark{chunk: len(w.sealed), at: len(w.b) - 4}
}

func (w *Writer) EndArray(m ArrayMark, n int) {
	if n < 0 || n > math.MaxUint32 {
		panic(fmt.Sprintf("msgpack: length %d out of range", n))
	}
	c := w.b
	if m.chunk < len(w.sealed) {
		c = w.sealed[m.chunk]
	}
	binary.BigEndian.PutUint32(c[m.at:m.at+4], uint32(n))
}

func (w *Writer) StringList(s []string) {
	if s == nil {
		w.Null()
		return
	}
	w.ArrayHeader(len(s))
	for _, v := range s {
		w.Str(v)
	}
}

// stringMap writes m, or null when it is empty.
func (w *Writer) StringMap(m map[string]string) {
	if len(m) == 0 {
		w.Null()
		return
	}
	keys := slices.Sorted(maps.Keys(m))
	w.MapHeader(len(keys))
	for _, k := range keys {
		w.Str(k)
		w.Str(m[k])
	}
}

// anyMap writes m as a map of strings: strings as they are, other values
// as JSON (null as null); null when m is empty.
func (w *Writer) AnyMap(m map[string]any) {
	if len(m) == 0 {
		w.Null()
		return
	}
	keys := slices.Sorted(maps.Keys(m))
	w.MapHeader(len(keys))
	for _, k := range keys {
		w.Str(k)
		switch v := m[k].(type) {
		case string:
			w.Str(v)
		case nil:
			w.Null()
		default:
			b, err := json.Marshal(v)
			if err != nil {
				w.Null()
				continue
			}
			w.Str(string(b))
		}
	}
}

// value writes a configuration value of type typ, in the encoding of
// terraform-plugin-go.
func (w *Writer) Value(typ tftypes.Type, v tftypes.Value) error {
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
