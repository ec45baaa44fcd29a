package provider

import (
	"encoding/json"
	"slices"
	"sort"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/platform/terraform-provider-platform/internal/tfmsgpack"
)

// Computed objects read from the API, described once.
//
// An objectShape[T] lists the computed attributes of an object read from
// the client type T, each with its name, description and getter. From that
// one list come the data source schema, the resource schema, the framework
// value (for resources and single-object data sources) and the MessagePack
// encoder (for list data sources, see list_read.go). Adding a field to an
// object is adding one line to its shape.
//
// Absent or empty API values are null, never "".

// field is one computed attribute of an object read from T.
type field[T any] struct {
	name string
	// dattr and rattr are its data source and resource schema.
	dattr dschema.Attribute
	rattr rschema.Attribute
	typ   attr.Type
	// value is its framework value in v (not nil).
	value func(v *T, diags *diag.Diagnostics) attr.Value
	// write writes its value in v (not nil).
	write func(w *tfmsgpack.Writer, v *T)
}

// objectShape is the attributes of an object read from T, in the order
// they are written.
type objectShape[T any] []field[T]

// attributes is the data source schema of the object's attributes.
func (s objectShape[T]) attributes() map[string]dschema.Attribute {
	out := make(map[string]dschema.Attribute, len(s))
	for _, f := range s {
		out[f.name] = f.dattr
	}
	return out
}

// resourceAttributes is the resource schema of the object's attributes.
func (s objectShape[T]) resourceAttributes() map[string]rschema.Attribute {
	out := make(map[string]rschema.Attribute, len(s))
	for _, f := range s {
		out[f.name] = f.rattr
	}
	return out
}

// computedInto adds the object's attributes to the resource schema attrs,
// each that never changes once the object exists (stable) keeping its
// recorded value in a plan (UseStateForUnknown).
func (s objectShape[T]) computedInto(attrs map[string]rschema.Attribute, stable func(name string) bool) {
	for _, f := range s {
		a := f.rattr
		if stable(f.name) {
			switch at := a.(type) {
			case rschema.StringAttribute:
				at.PlanModifiers = []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
				a = at
			case rschema.ListAttribute:
				at.PlanModifiers = []planmodifier.List{listplanmodifier.UseStateForUnknown()}
				a = at
			}
		}
		attrs[f.name] = a
	}
}

// allButStatus is the stable of computedInto for an object whose status
// alone follows the service.
func allButStatus(name string) bool { return name != "status" }

// objectType is the framework type of the object.
func (s objectShape[T]) objectType() types.ObjectType {
	ts := make(map[string]attr.Type, len(s))
	for _, f := range s {
		ts[f.name] = f.typ
	}
	return types.ObjectType{AttrTypes: ts}
}

// without is the shape less the fields named.
func (s objectShape[T]) without(names ...string) objectShape[T] {
	out := make(objectShape[T], 0, len(s))
	for _, f := range s {
		if !slices.Contains(names, f.name) {
			out = append(out, f)
		}
	}
	return out
}

// attrValues are the framework values of v's attributes, by name, for the
// top-level attributes of a resource or a single-object data source.
func (s objectShape[T]) attrValues(v *T, diags *diag.Diagnostics) map[string]attr.Value {
	vals := make(map[string]attr.Value, len(s))
	for _, f := range s {
		vals[f.name] = f.value(v, diags)
	}
	return vals
}

// null is the null object of this shape.
func (s objectShape[T]) null() types.Object { return types.ObjectNull(s.objectType().AttrTypes) }

// value is v as a framework object, or null when v is nil.
func (s objectShape[T]) value(v *T, diags *diag.Diagnostics) types.Object {
	if v == nil {
		return s.null()
	}
	o, d := types.ObjectValue(s.objectType().AttrTypes, s.attrValues(v, diags))
	diags.Append(d...)
	return o
}

// write writes v as an object, or null when v is nil.
func (s objectShape[T]) write(w *tfmsgpack.Writer, v *T) {
	if v == nil {
		w.Null()
		return
	}
	w.MapHeader(len(s))
	for _, f := range s {
		w.Str(f.name)
		f.write(w, v)
	}
}

// dataSourceObject is the object as a computed data source attribute.
func (s objectShape[T]) dataSourceObject(description string) dschema.SingleNestedAttribute {
	return dschema.SingleNestedAttribute{Computed: true, MarkdownDescription: description, Attributes: s.attributes()}
}

// resourceObject is the object as a computed resource attribute.
func (s objectShape[T]) resourceObject(description string) rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Computed: true, MarkdownDescription: description, Attributes: s.resourceAttributes()}
}

// listAttribute is the computed items attribute of a list data source.
func (s objectShape[T]) listAttribute(description string) dschema.ListNestedAttribute {
	return dschema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: description,
		NestedObject:        dschema.NestedAttributeObject{Attributes: s.attributes()},
	}
}

// stringLike is a computed attribute of string type written by write and
// valued by value.
func stringLike[T any](name, description string, value func(*T) types.String, write func(*tfmsgpack.Writer, *T)) field[T] {
	return field[T]{
		name:  name,
		dattr: dschema.StringAttribute{Computed: true, MarkdownDescription: description},
		rattr: rschema.StringAttribute{Computed: true, MarkdownDescription: description},
		typ:   types.StringType,
		value: func(v *T, _ *diag.Diagnostics) attr.Value { return value(v) },
		write: write,
	}
}

func stringField[T any](name, description string, get func(*T) *string) field[T] {
	return stringLike(name, description, func(v *T) types.String { return stringValue(get(v)) },
		func(w *tfmsgpack.Writer, v *T) { w.StrPtr(get(v)) })
}

// customString is a computed attribute of the string type typ (a custom
// type such as timetypes.RFC3339Type) written by write and valued by value.
func customString[T any](name, description string, typ basetypes.StringTypable, value func(*T) attr.Value, write func(*tfmsgpack.Writer, *T)) field[T] {
	return field[T]{
		name:  name,
		dattr: dschema.StringAttribute{Computed: true, MarkdownDescription: description, CustomType: typ},
		rattr: rschema.StringAttribute{Computed: true, MarkdownDescription: description, CustomType: typ},
		typ:   typ,
		value: func(v *T, _ *diag.Diagnostics) attr.Value { return value(v) },
		write: write,
	}
}

// boolField is a boolean, null when get returns nil.
func boolField[T any](name, description string, get func(*T) *bool) field[T] {
	return field[T]{
		name:  name,
		dattr: dschema.BoolAttribute{Computed: true, MarkdownDescription: description},
		rattr: rschema.BoolAttribute{Computed: true, MarkdownDescription: description},
		typ:   types.BoolType,
		value: func(v *T, _ *diag.Diagnostics) attr.Value { return types.BoolPointerValue(get(v)) },
		write: func(w *tfmsgpack.Writer, v *T) { w.BoolPtr(get(v)) },
	}
}

// timeField is a time, an RFC 3339 string (timetypes.RFC3339) that keeps
// its offset and fractional seconds.
func timeField[T any](name, description string, get func(*T) *time.Time) field[T] {
	return customString(name, description+" (RFC 3339).", timetypes.RFC3339Type{},
		func(v *T) attr.Value {
			t := get(v)
			if t == nil {
				return timetypes.NewRFC3339Null()
			}
			return timetypes.NewRFC3339ValueMust(stateTime(*t))
		},
		func(w *tfmsgpack.Writer, v *T) { w.TimePtr(get(v)) })
}

// jsonField is a free-form JSON object of the API, as a JSON string (read
// it with jsondecode(), jsontypes.Normalized), null when absent.
func jsonField[T any](name, description string, get func(*T) json.RawMessage) field[T] {
	return jsonFieldDescribed(name, description+" JSON object (read it with `jsondecode()`); null when absent.", get)
}

// jsonFieldDescribed is a jsonField whose description says it all.
func jsonFieldDescribed[T any](name, description string, get func(*T) json.RawMessage) field[T] {
	raw := func(v *T) *string {
		b := get(v)
		if len(b) == 0 || string(b) == "null" {
			return nil
		}
		s := string(b)
		return &s
	}
	return customString(name, description, jsontypes.NormalizedType{},
		func(v *T) attr.Value { return jsonValue(get(v)) },
		func(w *tfmsgpack.Writer, v *T) { w.StrPtr(raw(v)) })
}

// requiredString is a string field the API always sends; empty is null.
func requiredString[T any](name, description string, get func(*T) string) field[T] {
	return stringField(name, description, func(v *T) *string { s := get(v); return &s })
}

// requiredTime is a time field the API always sends; zero is null.
func requiredTime[T any](name, description string, get func(*T) time.Time) field[T] {
	return timeField(name, description, func(v *T) *time.Time {
		t := get(v)
		if t.IsZero() {
			return nil
		}
		return &t
	})
}

func stringListField[T any](name, description string, get func(*T) []string) field[T] {
	return field[T]{
		name:  name,
		dattr: dschema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: description},
		rattr: rschema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: description},
		typ:   types.ListType{ElemType: types.StringType},
		value: func(v *T, _ *diag.Diagnostics) attr.Value { return stringListValue(get(v)) },
		write: func(w *tfmsgpack.Writer, v *T) { w.StringList(get(v)) },
	}
}

// stringMapLike is a computed map of strings whose value and encoding are
// given.
func stringMapLike[T any](name, description string, value func(*T) types.Map, write func(*tfmsgpack.Writer, *T)) field[T] {
	return field[T]{
		name:  name,
		dattr: dschema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: description},
		rattr: rschema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: description},
		typ:   types.MapType{ElemType: types.StringType},
		value: func(v *T, _ *diag.Diagnostics) attr.Value { return value(v) },
		write: write,
	}
}

func stringMapField[T any](name, description string, get func(*T) map[string]string) field[T] {
	return stringMapLike(name, description, func(v *T) types.Map { return stringMapValue(get(v)) },
		func(w *tfmsgpack.Writer, v *T) { w.StringMap(get(v)) })
}

// anyMapField is a map of free-form values, rendered as a map of strings:
// strings as they are, other values as JSON, null when empty.
func anyMapField[T any](name, description string, get func(*T) map[string]any) field[T] {
	return stringMapLike(name, description+" Values that are not strings are rendered as JSON.",
		func(v *T) types.Map { return anyMapValue(get(v)) },
		func(w *tfmsgpack.Writer, v *T) { w.AnyMap(get(v)) })
}

// objectField is a nested object, null when get returns nil.
func objectField[T, U any](name, description string, get func(*T) *U, shape objectShape[U]) field[T] {
	return field[T]{
		name:  name,
		dattr: shape.dataSourceObject(description),
		rattr: shape.resourceObject(description),
		typ:   shape.objectType(),
		value: func(v *T, diags *diag.Diagnostics) attr.Value { return shape.value(get(v), diags) },
		write: func(w *tfmsgpack.Writer, v *T) { shape.write(w, get(v)) },
	}
}

// shapeVia is the shape s of U as a shape of T, whose U is get(v).
func shapeVia[T, U any](s objectShape[U], get func(*T) *U) objectShape[T] {
	out := make(objectShape[T], len(s))
	for i, f := range s {
		out[i] = field[T]{
			name: f.name, dattr: f.dattr, rattr: f.rattr, typ: f.typ,
			value: func(v *T, diags *diag.Diagnostics) attr.Value { return f.value(get(v), diags) },
			write: func(w *tfmsgpack.Writer, v *T) { f.write(w, get(v)) },
		}
	}
	return out
}

// anyMapValue renders free-form metadata as a map of strings: strings as
// they are, other values as JSON. It is null when m is empty.
func anyMapValue(m map[string]any) types.Map {
	if len(m) == 0 {
		return types.MapNull(types.StringType)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	elems := make(map[string]attr.Value, len(m))
	for _, k := range keys {
		switch v := m[k].(type) {
		case string:
			elems[k] = types.StringValue(v)
		case nil:
			elems[k] = types.StringNull()
		default:
			b, err := json.Marshal(v)
			if err != nil {
				elems[k] = types.StringNull()
				continue
			}
			elems[k] = types.StringValue(string(b))
		}
	}
	return types.MapValueMust(types.StringType, elems)
}
