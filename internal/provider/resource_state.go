package provider

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The state of a resource that stands for an API object: its arguments,
// literal per resource (a struct A with tfsdk tags, as the model providers
// write them), and the computed attributes of the object, which come from
// the object's shape (objects.go) by name, so that a computed field added
// to the shape appears in every resource of that object without another
// line.

// shapedState is the state, plan or configuration of such a resource.
type shapedState[A any] struct {
	args A
	// computed holds every attribute that is not an argument, by name.
	computed map[string]attr.Value
}

// getter is what tfsdk.State, tfsdk.Plan and tfsdk.Config have in common.
type getter interface {
	Get(ctx context.Context, target any) diag.Diagnostics
}

// setter is what tfsdk.State and tfsdk.Plan have in common.
type setter interface {
	Set(ctx context.Context, val any) diag.Diagnostics
}

// argField is a field of an arguments struct: its index, tfsdk name and
// type.
type argField struct {
	index int
	name  string
	typ   reflect.Type
}

// arguments describes an arguments struct (see argumentsOf).
type arguments struct {
	// names are the tfsdk names of its fields (not to be modified).
	names map[string]bool
	// fields are those fields when every one of them holds an attr.Value
	// (types.String, types.Map, jsontypes.Normalized, ...), or nil. Such
	// arguments are read and written field by field (argsFromAttributes,
	// argsToAttributes), as the framework's reflection would, without it:
	// it parses every tag again and compiles a regular expression per
	// field at each conversion, and a plan converts every resource's state
	// several times.
	fields []argField
}

// argumentsByType caches argumentsOf: every read and write of a
// resource's state asks for it.
var argumentsByType sync.Map // reflect.Type -> *arguments

var attrValueType = reflect.TypeFor[attr.Value]()

// argumentsOf describes the arguments struct A.
func argumentsOf[A any]() *arguments {
	t := reflect.TypeFor[A]()
	if v, ok := argumentsByType.Load(t); ok {
		a, _ := v.(*arguments)
		return a
	}
	a := &arguments{names: map[string]bool{}}
	direct := true
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("tfsdk"), ",")
		if tag == "" || tag == "-" {
			continue
		}
		a.names[tag] = true
		direct = direct && f.IsExported() && f.Type.Implements(attrValueType) && f.Type.Kind() != reflect.Interface
		a.fields = append(a.fields, argField{index: i, name: tag, typ: f.Type})
	}
	if !direct {
		a.fields = nil
	}
	argumentsByType.Store(t, a)
	return a
}

// argumentNames are the tfsdk names of the fields of A (not to be
// modified).
func argumentNames[A any]() map[string]bool { return argumentsOf[A]().names }

// validateArgument validates v as the framework does when it converts an
// argument: a value with its own validation (such as
// jsontypes.Normalized), or else its type's (the elements of a map). It
// reports false when v cannot be converted for that.
func validateArgument(ctx context.Context, name string, v attr.Value, diags *diag.Diagnostics) bool {
	if va, ok := v.(xattr.ValidateableAttribute); ok {
		var resp xattr.ValidateAttributeResponse
		va.ValidateAttribute(ctx, xattr.ValidateAttributeRequest{Path: path.Root(name)}, &resp)
		diags.Append(resp.Diagnostics...)
		return true
	}
	//nolint:staticcheck // The framework still validates through xattr.TypeWithValidate: so does this.
	if tv, ok := v.Type(ctx).(xattr.TypeWithValidate); ok {
		raw, err := v.ToTerraformValue(ctx)
		if err != nil {
			return false
		}
		diags.Append(tv.Validate(ctx, raw, path.Root(name))...)
	}
	return true
}

// argsFromAttributes reads the arguments A from the attributes of a state,
// plan or configuration; ok is false when the framework must (A is not
// made of attr.Value fields, or a value is not of its field's type).
func argsFromAttributes[A any](ctx context.Context, attrs map[string]attr.Value) (args A, diags diag.Diagnostics, ok bool) {
	fields := argumentsOf[A]().fields
	if fields == nil {
		return args, nil, false
	}
	rv := reflect.ValueOf(&args).Elem()
	for _, f := range fields {
		v, present := attrs[f.name]
		if !present || v == nil || reflect.TypeOf(v) != f.typ || !validateArgument(ctx, f.name, v, &diags) {
			var zero A
			return zero, nil, false
		}
		rv.Field(f.index).Set(reflect.ValueOf(v))
	}
	return args, diags, true
}

// argsToAttributes writes the arguments args into vals, checked against
// the schema's types; ok is false when the framework must.
func argsToAttributes[A any](ctx context.Context, args A, attrTypes map[string]attr.Type, vals map[string]attr.Value) (diags diag.Diagnostics, ok bool) {
	fields := argumentsOf[A]().fields
	if fields == nil {
		return nil, false
	}
	rv := reflect.ValueOf(args)
	for _, f := range fields {
		v, _ := rv.Field(f.index).Interface().(attr.Value)
		t := attrTypes[f.name]
		if v == nil || t == nil || !t.TerraformType(ctx).Equal(v.Type(ctx).TerraformType(ctx)) || !validateArgument(ctx, f.name, v, &diags) {
			return nil, false
		}
		vals[f.name] = v
	}
	return diags, true
}

// shapedWriter is a model that writes itself (see setShaped).
type shapedWriter interface {
	set(ctx context.Context, dst setter, sch typed) diag.Diagnostics
}

// getShaped reads src into its arguments and computed attributes.
func getShaped[A any](ctx context.Context, src getter) (shapedState[A], diag.Diagnostics) {
	var s shapedState[A]
	var obj types.Object
	diags := src.Get(ctx, &obj)
	if diags.HasError() {
		return s, diags
	}
	names := argumentNames[A]()
	s.computed = map[string]attr.Value{}
	for name, v := range obj.Attributes() {
		if !names[name] {
			s.computed[name] = v
		}
	}
	if args, d, ok := argsFromAttributes[A](ctx, obj.Attributes()); ok {
		s.args = args
		diags.Append(d...)
		return s, diags
	}
	s.args, diags = argsByFramework[A](ctx, obj, diags)
	return s, diags
}

// argsByFramework reads the arguments A from obj by the framework's
// reflection.
func argsByFramework[A any](ctx context.Context, obj types.Object, diags diag.Diagnostics) (A, diag.Diagnostics) {
	var a A
	names := argumentNames[A]()
	argTypes := map[string]attr.Type{}
	argVals := map[string]attr.Value{}
	for name, v := range obj.Attributes() {
		if names[name] {
			argTypes[name], argVals[name] = v.Type(ctx), v
		}
	}
	args, d := types.ObjectValue(argTypes, argVals)
	diags.Append(d...)
	if diags.HasError() {
		return a, diags
	}
	diags.Append(args.As(ctx, &a, basetypes.ObjectAsOptions{})...)
	return a, diags
}

// typed is a schema: tfsdk.State.Schema, tfsdk.Plan.Schema.
type typed interface{ Type() attr.Type }

// setShaped writes s to dst, whose schema is sch: the arguments from
// s.args, every other attribute from s.computed (null when it holds none).
func setShaped[A any](ctx context.Context, dst setter, sch typed, s shapedState[A]) diag.Diagnostics {
	var diags diag.Diagnostics
	ot, ok := sch.Type().(attr.TypeWithAttributeTypes)
	if !ok {
		diags.AddError("Internal error", fmt.Sprintf("the schema's type %s is not an object", sch.Type()))
		return diags
	}
	attrTypes := ot.AttributeTypes()
	names := argumentNames[A]()
	vals := make(map[string]attr.Value, len(attrTypes))
	if d, ok := argsToAttributes(ctx, s.args, attrTypes, vals); ok {
		diags.Append(d...)
	} else {
		args, d := argsObjectByFramework(ctx, attrTypes, s.args)
		diags.Append(d...)
		for name := range names {
			vals[name] = args.Attributes()[name]
		}
	}
	if diags.HasError() {
		return diags
	}
	for name, typ := range attrTypes {
		switch v, ok := s.computed[name]; {
		case names[name]:
		case ok:
			vals[name] = v
		default:
			vals[name] = nullOf(ctx, typ, &diags)
		}
	}
	obj, d := basetypes.NewObjectValue(attrTypes, vals)
	diags.Append(d...)
	if diags.HasError() {
		return diags
	}
	diags.Append(dst.Set(ctx, obj)...)
	return diags
}

// argsObjectByFramework is the object of the arguments args by the
// framework's reflection, with the schema's types attrTypes.
func argsObjectByFramework[A any](ctx context.Context, attrTypes map[string]attr.Type, args A) (types.Object, diag.Diagnostics) {
	argTypes := map[string]attr.Type{}
	for name := range argumentNames[A]() {
		argTypes[name] = attrTypes[name]
	}
	return basetypes.NewObjectValueFrom(ctx, argTypes, args)
}

// nullOf is the null value of typ.
func nullOf(ctx context.Context, typ attr.Type, diags *diag.Diagnostics) attr.Value {
	v, err := typ.ValueFromTerraform(ctx, tftypes.NewValue(typ.TerraformType(ctx), nil))
	if err != nil {
		diags.AddError("Internal error", fmt.Sprintf("no null value of %s: %s", typ, err))
	}
	return v
}

// clearUnknownComputed turns every unknown computed value into null, for
// the state of a create whose outcome is unknown: a whole value, or an
// attribute of a known object (a manifest whose sends the plan left
// unknown).
func (s *shapedState[A]) clearUnknownComputed(ctx context.Context, diags *diag.Diagnostics) {
	for name, v := range s.computed {
		if v.IsUnknown() {
			s.computed[name] = nullOf(ctx, v.Type(ctx), diags)
			continue
		}
		obj, ok := v.(basetypes.ObjectValue)
		if !ok || obj.IsNull() {
			continue
		}
		attrs, unknown := obj.Attributes(), false
		for k, a := range attrs {
			if a.IsUnknown() {
				attrs[k], unknown = nullOf(ctx, a.Type(ctx), diags), true
			}
		}
		if !unknown {
			continue
		}
		cleared, d := basetypes.NewObjectValue(obj.AttributeTypes(ctx), attrs)
		diags.Append(d...)
		s.computed[name] = cleared
	}
}

// str is the computed string attribute name (null when absent).
func (s shapedState[A]) str(name string) types.String {
	if v, ok := s.computed[name].(types.String); ok {
		return v
	}
	return types.StringNull()
}

// getAttributer is what tfsdk.State, tfsdk.Plan and tfsdk.Config have in
// common to read one attribute.
type getAttributer interface {
	GetAttribute(ctx context.Context, p path.Path, target any) diag.Diagnostics
}
