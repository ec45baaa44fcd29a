package tfmsgpack

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// valueAs is v as a T, failing tb if it is not one.
func valueAs[T any](tb testing.TB, v tftypes.Value) T {
	tb.Helper()
	var out T
	if err := v.As(&out); err != nil {
		tb.Fatalf("%v as %T: %v", v, out, err)
	}
	return out
}

// TestEquivalenceWriterLengthForms checks the writer's length forms
// against the decoder of terraform-plugin-go.
func TestEquivalenceWriterLengthForms(t *testing.T) {
	listType := tftypes.List{ElementType: tftypes.String}
	mapType := tftypes.Map{ElementType: tftypes.String}
	for _, n := range []int{0, 1, 15, 16, 31, 32, 255, 256, 65535, 65536} {
		s := strings.Repeat("x", n)
		w := New()
		w.Str(s)
		v, err := fromMsgPack(bytesOf(t, w), tftypes.String)
		if err != nil {
			t.Fatalf("string of %d bytes: %v", n, err)
		}
		if got := valueAs[string](t, v); got != s {
			t.Fatalf("string of %d bytes decoded to %d bytes", n, len(got))
		}
		if n > 16 && n != 65536 {
			continue // Strings alone have 8-bit lengths; arrays and maps go from 4 to 16 to 32 bits.
		}

		elems := make([]string, n)
		for i := range elems {
			elems[i] = string(rune('a' + i%26))
		}
		w = New()
		w.StringList(elems)
		lv, err := fromMsgPack(bytesOf(t, w), listType)
		if err != nil {
			t.Fatalf("list of %d: %v", n, err)
		}
		if got := valueAs[[]tftypes.Value](t, lv); len(got) != n {
			t.Fatalf("list of %d decoded to %d", n, len(got))
		}

		w = New()
		at := w.BeginArray()
		for i := range n {
			w.Str(strings.Repeat("e", i%100))
			w.Seal()
		}
		w.EndArray(at, n)
		b := bytesOf(t, w)
		open := valueAs[[]tftypes.Value](t, mustMsgPack(t, b, listType))
		if len(open) != n {
			t.Fatalf("open array of %d decoded to %d", n, len(open))
		}
		for i, e := range open {
			if s := valueAs[string](t, e); s != strings.Repeat("e", i%100) {
				t.Fatalf("open array of %d: element %d is %q", n, i, s)
			}
		}

		if n > 16 {
			continue // Maps share the header code of arrays; large ones decode slowly.
		}
		m := make(map[string]string, n)
		for i := range n {
			m[string(rune('a'+i))] = "v"
		}
		w = New()
		w.StringMap(m)
		mv, err := fromMsgPack(bytesOf(t, w), mapType)
		if err != nil {
			t.Fatalf("map of %d: %v", len(m), err)
		}
		var gotMap map[string]tftypes.Value
		_ = mv.As(&gotMap)
		if len(m) == 0 {
			if !mv.IsNull() {
				t.Fatal("an empty map must be written as null")
			}
		} else if len(gotMap) != len(m) {
			t.Fatalf("map of %d decoded to %d", len(m), len(gotMap))
		}
	}
}

// TestWriterNullNotEmpty checks that absent and empty strings, maps and
// objects are written as null.
func TestWriterNullNotEmpty(t *testing.T) {
	empty, text := "", "text"
	w := New()
	w.ArrayHeader(5)
	w.StrPtr(nil)
	w.StrPtr(&empty)
	w.StrPtr(&text)
	w.StringMap(map[string]string{})
	w.AnyMap(map[string]any{"s": "x", "n": 2.0, "b": true, "o": map[string]any{"k": []any{"a"}}, "z": nil})
	typ := tftypes.Tuple{ElementTypes: []tftypes.Type{tftypes.String, tftypes.String, tftypes.String,
		tftypes.Map{ElementType: tftypes.String}, tftypes.Map{ElementType: tftypes.String}}}
	got := valueAs[[]tftypes.Value](t, mustMsgPack(t, bytesOf(t, w), typ))
	for i, wantNull := range []bool{true, true, false, true, false} {
		if got[i].IsNull() != wantNull {
			t.Errorf("element %d: null = %v, want %v", i, got[i].IsNull(), wantNull)
		}
	}
	m := valueAs[map[string]tftypes.Value](t, got[4])
	want := map[string]string{"s": "x", "n": "2", "b": "true", "o": `{"k":["a"]}`, "z": "<null>"}
	for k, w := range want {
		s := "<null>"
		if !m[k].IsNull() {
			_ = m[k].As(&s)
		}
		if s != w {
			t.Errorf("metadata %s = %q, want %q", k, s, w)
		}
	}
}

func fromMsgPack(b []byte, typ tftypes.Type) (tftypes.Value, error) {
	return (&tfprotov6.DynamicValue{MsgPack: b}).Unmarshal(typ)
}

func mustMsgPack(tb testing.TB, b []byte, typ tftypes.Type) tftypes.Value {
	tb.Helper()
	v, err := fromMsgPack(b, typ)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// TestEquivalenceWriterMatchesTerraformPluginGo checks that an object
// written here has the very bytes terraform-plugin-go encodes for the same
// value.
func TestEquivalenceWriterMatchesTerraformPluginGo(t *testing.T) {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"a": tftypes.String, "b": tftypes.String, "c": tftypes.List{ElementType: tftypes.String},
		"d": tftypes.Map{ElementType: tftypes.String},
		"e": tftypes.Bool, "f": tftypes.Bool, "g": tftypes.Bool,
	}}
	v := tftypes.NewValue(typ, map[string]tftypes.Value{
		"e": tftypes.NewValue(tftypes.Bool, true),
		"f": tftypes.NewValue(tftypes.Bool, false),
		"g": tftypes.NewValue(tftypes.Bool, nil),
		"a": tftypes.NewValue(tftypes.String, "x"),
		"b": tftypes.NewValue(tftypes.String, nil),
		"c": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "1")}),
		"d": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{
			"k": tftypes.NewValue(tftypes.String, "v"),
		}),
	})
	want, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	w := New()
	w.MapHeader(7)
	w.Str("a")
	w.Str("x")
	w.Str("b")
	w.StrPtr(nil)
	w.Str("c")
	w.StringList([]string{"1"})
	w.Str("d")
	w.StringMap(map[string]string{"k": "v"})
	yes, no := true, false
	w.Str("e")
	w.BoolPtr(&yes)
	w.Str("f")
	w.BoolPtr(&no)
	w.Str("g")
	w.BoolPtr(nil)
	if got := bytesOf(t, w); string(got) != string(want.MsgPack) {
		t.Errorf("written % x, terraform-plugin-go encodes % x", got, want.MsgPack)
	}
}

func bytesOf(tb testing.TB, w *Writer) []byte {
	tb.Helper()
	b, err := w.Bytes()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestWriterChunks writes enough for several compressed chunks, with the
// open array's length patched after them, and reads back every element.
func TestWriterChunks(t *testing.T) {
	w := New()
	at := w.BeginArray()
	const n = 60000
	for i := range n {
		w.MapHeader(2)
		w.Str("name")
		w.Str(strings.Repeat("x", i%50))
		w.Str("index")
		w.Str(string(rune('a' + i%26)))
		w.Seal()
	}
	w.EndArray(at, n)
	if len(w.sealed) < 2 {
		t.Fatalf("%d sealed chunks, want several", len(w.sealed))
	}
	b := bytesOf(t, w)
	typ := tftypes.List{ElementType: tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String, "index": tftypes.String}}}
	items := valueAs[[]tftypes.Value](t, mustMsgPack(t, b, typ))
	if len(items) != n {
		t.Fatalf("%d items, want %d", len(items), n)
	}
	for _, i := range []int{0, 1, 17, n/2 + 3, n - 1} {
		var attrs map[string]tftypes.Value
		var name string
		if err := items[i].As(&attrs); err != nil || attrs["name"].As(&name) != nil || name != strings.Repeat("x", i%50) {
			t.Fatalf("item %d: %v %q", i, err, name)
		}
	}
}
