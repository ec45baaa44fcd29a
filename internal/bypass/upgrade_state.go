package bypass

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math/big"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/tfmsgpack"
)

// The upgrade of an object in state stored at the schema's version.
//
// Before it refreshes an object, Terraform hands its stored JSON to the
// provider (UpgradeResourceState). At the schema's version the framework
// passes it through: tftypes decodes the JSON into a value (each nested
// value decoded again at every level of nesting), then encodes the value in
// MessagePack, after computing the schema's type anew. For the resources
// whose refreshes the server answers (read_resource.go), the server
// transcodes the JSON into MessagePack itself, with the schema's type read
// once: the attributes of the type, those the JSON lacks as null, those the
// type lacks left out, as the framework's IgnoreUndefinedAttributes does.
// Anything else (another version, a flatmap state, a value whose JSON kind
// is not its type's, a dynamic type, JSON that is not well formed) goes
// through the framework, whose answers and errors stay its own.
// TestEquivalenceUpgradeResourceState, in the provider, compares the two.

// UpgradeResourceState answers the upgrade of a state stored at the
// schema's version for the resources of reads; any other goes through the
// framework.
func (s *Server) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	if resp := s.upgrade(ctx, req); resp != nil {
		s.upgradeServed.Add(1)
		return resp, nil
	}
	return s.frameworkServer.UpgradeResourceState(ctx, req)
}

// UpgradesServed is the number of upgrades the server answered itself (for
// the tests).
func (s *Server) UpgradesServed() int64 { return s.upgradeServed.Load() }

// upgrade answers req when it is the upgrade of a state stored as JSON at
// the schema's version of one of reads' resource types; nil leaves it to
// the framework.
func (s *Server) upgrade(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) *tfprotov6.UpgradeResourceStateResponse {
	if req == nil || req.RawState == nil || req.RawState.JSON == nil || req.RawState.Flatmap != nil {
		return nil
	}
	t, ok := s.reads[req.TypeName]
	if !ok || !t.load(ctx, s.providerTypeName) || req.Version != t.schema.GetVersion() {
		return nil
	}
	t.shapeOnce.Do(func() { t.shape = shapeOf(t.typ) })
	if t.shape == nil {
		return nil
	}
	b, err := transcodeState(req.RawState.JSON, t.shape)
	if err != nil {
		return nil
	}
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: &tfprotov6.DynamicValue{MsgPack: b}}
}

// jsonShape is a tftypes type as the transcoder walks it: its kind, its
// elements' shape, and an object's attributes sorted by name (the order in
// which tftypes encodes them).
type jsonShape struct {
	kind  shapeKind
	elem  *jsonShape
	attrs []shapeAttr
	tuple []*jsonShape
}

type shapeAttr struct {
	name  string
	shape *jsonShape
}

type shapeKind int

const (
	shapeString shapeKind = iota + 1
	shapeNumber
	shapeBool
	shapeList // a list or a set: an array, in the JSON's order
	shapeMap
	shapeTuple
	shapeObject
)

// shapeOf is the shape of typ; nil when it holds a type the transcoder
// leaves to the framework (a dynamic type).
func shapeOf(typ tftypes.Type) *jsonShape {
	switch {
	case typ.Is(tftypes.String):
		return &jsonShape{kind: shapeString}
	case typ.Is(tftypes.Number):
		return &jsonShape{kind: shapeNumber}
	case typ.Is(tftypes.Bool):
		return &jsonShape{kind: shapeBool}
	case typ.Is(tftypes.List{}):
		return collectionShape(shapeList, typ.(tftypes.List).ElementType) //nolint:forcetypeassert // Is above.
	case typ.Is(tftypes.Set{}):
		return collectionShape(shapeList, typ.(tftypes.Set).ElementType) //nolint:forcetypeassert // Is above.
	case typ.Is(tftypes.Map{}):
		return collectionShape(shapeMap, typ.(tftypes.Map).ElementType) //nolint:forcetypeassert // Is above.
	case typ.Is(tftypes.Tuple{}):
		s := &jsonShape{kind: shapeTuple}
		for _, et := range typ.(tftypes.Tuple).ElementTypes { //nolint:forcetypeassert // Is above.
			es := shapeOf(et)
			if es == nil {
				return nil
			}
			s.tuple = append(s.tuple, es)
		}
		return s
	case typ.Is(tftypes.Object{}):
		attrs := typ.(tftypes.Object).AttributeTypes //nolint:forcetypeassert // Is above.
		s := &jsonShape{kind: shapeObject}
		for _, name := range slices.Sorted(maps.Keys(attrs)) {
			as := shapeOf(attrs[name])
			if as == nil {
				return nil
			}
			s.attrs = append(s.attrs, shapeAttr{name: name, shape: as})
		}
		return s
	}
	return nil
}

func collectionShape(kind shapeKind, elem tftypes.Type) *jsonShape {
	es := shapeOf(elem)
	if es == nil {
		return nil
	}
	return &jsonShape{kind: kind, elem: es}
}

// errNotTranscoded says that the JSON holds what the transcoder leaves to
// the framework.
var errNotTranscoded = errors.New("left to the framework")

// transcodeState is the MessagePack of the stored JSON state js, of the
// shape s, as the framework encodes it.
func transcodeState(js []byte, s *jsonShape) ([]byte, error) {
	// Well-formed JSON only: what the framework cannot decode stays its
	// error.
	if !json.Valid(js) {
		return nil, errNotTranscoded
	}
	t := transcoder{js: js, w: tfmsgpack.New()}
	t.space()
	if err := t.value(s); err != nil {
		return nil, err
	}
	if t.space(); t.i != len(t.js) {
		return nil, errNotTranscoded
	}
	return t.w.Bytes()
}

// transcoder reads JSON from js at i and writes MessagePack to w.
type transcoder struct {
	js []byte
	i  int
	w  *tfmsgpack.Writer
}

func (t *transcoder) space() {
	for t.i < len(t.js) {
		switch t.js[t.i] {
		case ' ', '\t', '\n', '\r':
			t.i++
		default:
			return
		}
	}
}

// literal consumes lit at i, if it is there.
func (t *transcoder) literal(lit string) bool {
	if bytes.HasPrefix(t.js[t.i:], []byte(lit)) {
		t.i += len(lit)
		return true
	}
	return false
}

// value transcodes the value at i, of shape s.
func (t *transcoder) value(s *jsonShape) error {
	if t.literal("null") {
		t.w.Null()
		return nil
	}
	switch s.kind {
	case shapeString:
		str, err := t.str()
		if err != nil {
			return err
		}
		t.w.Str(str)
	case shapeBool:
		b := false
		switch {
		case t.literal("true"):
			b = true
		case t.literal("false"):
		default:
			return errNotTranscoded
		}
		t.w.BoolPtr(&b)
	case shapeNumber:
		return t.number()
	case shapeList, shapeTuple:
		return t.array(s)
	case shapeMap:
		return t.mapValue(s)
	case shapeObject:
		return t.object(s)
	default:
		return errNotTranscoded
	}
	return nil
}

// str reads the string at i, decoded as encoding/json decodes it.
func (t *transcoder) str() (string, error) {
	if t.i >= len(t.js) || t.js[t.i] != '"' {
		return "", errNotTranscoded
	}
	start := t.i
	plain := true
	for j := start + 1; j < len(t.js); j++ {
		switch c := t.js[j]; {
		case c == '\\':
			plain = false
			j++
		case c < 0x20:
			return "", errNotTranscoded
		case c == '"':
			t.i = j + 1
			raw := t.js[start+1 : j]
			if plain && utf8.Valid(raw) {
				return string(raw), nil
			}
			var s string
			if err := json.Unmarshal(t.js[start:j+1], &s); err != nil {
				return "", errNotTranscoded
			}
			return s, nil
		}
	}
	return "", errNotTranscoded
}

// number transcodes the number at i as tftypes encodes the number it
// decodes from it.
func (t *transcoder) number() error {
	start := t.i
	for t.i < len(t.js) && strings.IndexByte("+-0123456789.eE", t.js[t.i]) >= 0 {
		t.i++
	}
	tok := t.js[start:t.i]
	if len(tok) == 0 || !json.Valid(tok) {
		return errNotTranscoded
	}
	f, _, err := big.ParseFloat(string(tok), 10, 512, big.ToNearestEven)
	if err != nil {
		return errNotTranscoded
	}
	dv, err := tfprotov6.NewDynamicValue(tftypes.Number, tftypes.NewValue(tftypes.Number, f))
	if err != nil {
		return errNotTranscoded
	}
	t.w.Raw(dv.MsgPack)
	return nil
}

// array transcodes the array at i: a list's or set's elements of s.elem,
// or a tuple's of s.tuple.
func (t *transcoder) array(s *jsonShape) error {
	if !t.literal("[") {
		return errNotTranscoded
	}
	mark := t.w.BeginArray()
	n := 0
	for t.space(); !t.literal("]"); t.space() {
		if n > 0 && !t.literal(",") {
			return errNotTranscoded
		}
		t.space()
		es := s.elem
		if s.kind == shapeTuple {
			if n >= len(s.tuple) {
				return errNotTranscoded
			}
			es = s.tuple[n]
		}
		if err := t.value(es); err != nil {
			return err
		}
		n++
	}
	if s.kind == shapeTuple && n != len(s.tuple) {
		return errNotTranscoded
	}
	t.w.EndArray(mark, n)
	return nil
}

// member is a key of a JSON object and where its value starts.
type member struct {
	key string
	at  int
}

// members reads the object at i: each key and where its value starts, the
// last of a key that repeats winning, as encoding/json's decoding into a
// map does.
func (t *transcoder) members() ([]member, error) {
	if !t.literal("{") {
		return nil, errNotTranscoded
	}
	var out []member
	for t.space(); !t.literal("}"); t.space() {
		if len(out) > 0 && !t.literal(",") {
			return nil, errNotTranscoded
		}
		t.space()
		key, err := t.str()
		if err != nil {
			return nil, err
		}
		if t.space(); !t.literal(":") {
			return nil, errNotTranscoded
		}
		t.space()
		m := member{key: key, at: t.i}
		if err := t.skip(); err != nil {
			return nil, err
		}
		if i := slices.IndexFunc(out, func(o member) bool { return o.key == key }); i >= 0 {
			out[i] = m
		} else {
			out = append(out, m)
		}
	}
	return out, nil
}

// at transcodes the value that starts at offset at, of shape s, and comes
// back to where it was.
func (t *transcoder) at(at int, s *jsonShape) error {
	back := t.i
	t.i = at
	err := t.value(s)
	t.i = back
	return err
}

func (t *transcoder) mapValue(s *jsonShape) error {
	ms, err := t.members()
	if err != nil {
		return err
	}
	t.w.MapHeader(len(ms))
	for _, m := range ms {
		t.w.Str(m.key)
		if err := t.at(m.at, s.elem); err != nil {
			return err
		}
	}
	return nil
}

// object transcodes the object at i: every attribute of s, by name, null
// where the JSON has none; the JSON's other keys are left out.
func (t *transcoder) object(s *jsonShape) error {
	ms, err := t.members()
	if err != nil {
		return err
	}
	t.w.MapHeader(len(s.attrs))
	for _, a := range s.attrs {
		t.w.Str(a.name)
		i := slices.IndexFunc(ms, func(m member) bool { return m.key == a.name })
		if i < 0 {
			t.w.Null()
			continue
		}
		if err := t.at(ms[i].at, a.shape); err != nil {
			return err
		}
	}
	return nil
}

// skip moves past the value at i (the JSON is well formed).
func (t *transcoder) skip() error {
	depth := 0
	for t.i < len(t.js) {
		switch c := t.js[t.i]; c {
		case '"':
			if _, err := t.str(); err != nil {
				return err
			}
			if depth == 0 {
				return nil
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return nil // The end of a number or a literal.
			}
			depth--
			if depth == 0 {
				t.i++
				return nil
			}
		case ',', ':':
			if depth == 0 {
				return nil
			}
		case ' ', '\t', '\n', '\r':
			if depth == 0 {
				return nil
			}
		}
		t.i++
	}
	return nil
}
