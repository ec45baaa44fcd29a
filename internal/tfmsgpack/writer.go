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
// framework builds for the same items, for every list data source; they
// and this package's TestEquivalence tests are those of the list state in
// the table of internal/bypass, which make bypass-check runs.
package tfmsgpack

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
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
// A large output is kept in chunks of about mpChunk bytes (see Seal), each
// compressed (DEFLATE, fastest level) once it is full, and joined once by
// Bytes. The process then holds the output once and its compressed chunks
// (a state repeats its attribute names item after item, so they are a small
// fraction of it), rather than two full copies, or the copies a growing
// slice makes.
type Writer struct {
	// b is the chunk being written.
	b []byte
	// sealed are the compressed chunks written before b, and sizes their
	// lengths before compression.
	sealed [][]byte
	sizes  []int
	size   int
	// patches are array lengths to write into sealed chunks (EndArray).
	patches []patch
	deflate *flate.Writer
	err     error
	// keys is the scratch of the sorted keys of a map.
	keys []string
}

// patch is an array length at an offset of the whole output.
type patch struct{ at, n int }

// New returns an empty writer.
func New() *Writer { return &Writer{b: make([]byte, 0, 4096)} }

// mpChunk is the size from which Seal starts a new chunk, and mpSlack the
// room left after it for the item that crosses it (an item larger than
// that grows its chunk once).
const (
	mpChunk = 1 << 20
	mpSlack = 64 << 10
)

// Seal starts a new chunk when the current one has reached mpChunk bytes,
// compressing the full one. Call it between whole values only.
func (w *Writer) Seal() {
	if len(w.b) < mpChunk || w.err != nil {
		return
	}
	var buf bytes.Buffer
	buf.Grow(len(w.b) / 4)
	if w.deflate == nil {
		w.deflate, w.err = flate.NewWriter(&buf, flate.BestSpeed)
	} else {
		w.deflate.Reset(&buf)
	}
	if w.err == nil {
		_, w.err = w.deflate.Write(w.b)
	}
	if w.err == nil {
		w.err = w.deflate.Close()
	}
	if w.err != nil {
		return // Keep writing into b; Bytes reports the error.
	}
	w.sealed = append(w.sealed, bytes.Clone(buf.Bytes()))
	w.sizes = append(w.sizes, len(w.b))
	w.size += len(w.b)
	// The chunk's memory is reused for the next one.
	w.b = w.b[:0]
}

// Bytes returns everything written, in one slice of the exact size. The
// writer must not be used afterwards.
func (w *Writer) Bytes() ([]byte, error) {
	if w.err != nil {
		return nil, fmt.Errorf("msgpack: compressing a chunk: %w", w.err)
	}
	if len(w.sealed) == 0 {
		return w.b, nil
	}
	out := make([]byte, w.size+len(w.b))
	off := 0
	for i, c := range w.sealed {
		r := flate.NewReader(bytes.NewReader(c))
		if _, err := io.ReadFull(r, out[off:off+w.sizes[i]]); err != nil {
			return nil, fmt.Errorf("msgpack: joining chunk %d: %w", i, err)
		}
		off += w.sizes[i]
		w.sealed[i] = nil // Let each chunk go as soon as it is joined.
	}
	copy(out[off:], w.b)
	for _, p := range w.patches {
		binary.BigEndian.PutUint32(out[p.at:p.at+4], uint32(p.n)) //nolint:gosec // Checked by EndArray.
	}
	w.sealed, w.b = nil, nil
	return out, nil
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

// BoolPtr writes *p, or null when p is nil.
func (w *Writer) BoolPtr(p *bool) {
	switch {
	case p == nil:
		w.Null()
	case *p:
		w.b = append(w.b, 0xc3)
	default:
		w.b = append(w.b, 0xc2)
	}
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

// ArrayMark is where the length of an array begun by BeginArray goes: an
// offset in the whole output.
type ArrayMark struct{ at int }

// BeginArray starts an array whose length is not known yet and returns
// where to write it (EndArray).
func (w *Writer) BeginArray() ArrayMark {
	w.b = append(w.b, 0xdd, 0, 0, 0, 0)
	return ArrayMark{at: w.size + len(w.b) - 4}
}

// EndArray writes the length n of the array begun at m.
func (w *Writer) EndArray(m ArrayMark, n int) {
	if n < 0 || n > math.MaxUint32 {
		panic(fmt.Sprintf("msgpack: length %d out of range", n))
	}
	if m.at >= w.size {
		binary.BigEndian.PutUint32(w.b[m.at-w.size:m.at-w.size+4], uint32(n))
		return
	}
	// In a compressed chunk: written when the chunks are joined.
	w.patches = append(w.patches, patch{at: m.at, n: n})
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
	keys := w.sortedKeys(maps.Keys(m))
	w.MapHeader(len(keys))
	for _, k := range keys {
		w.Str(k)
		w.Str(m[k])
	}
	clear(keys)
}

// sortedKeys is the keys of a map, sorted, in the writer's scratch (clear
// it after use, so that it holds no strings).
func (w *Writer) sortedKeys(keys iter.Seq[string]) []string {
	w.keys = slices.AppendSeq(w.keys[:0], keys)
	slices.Sort(w.keys)
	return w.keys
}

// anyMap writes m as a map of strings: strings as they are, other values
// as JSON (null as null); null when m is empty.
func (w *Writer) AnyMap(m map[string]any) {
	if len(m) == 0 {
		w.Null()
		return
	}
	keys := w.sortedKeys(maps.Keys(m))
	defer clear(keys)
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
			w.strHeader(len(b))
			w.b = append(w.b, b...)
		}
	}
}

// Raw appends b, a whole value already in MessagePack.
func (w *Writer) Raw(b []byte) { w.b = append(w.b, b...) }

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
