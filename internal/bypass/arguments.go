package bypass

import (
	"context"
	"reflect"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// The arguments of a resource are a struct with tfsdk tags, as the model
// providers write them. The framework converts such a struct to and from a
// state, plan or configuration by reflection, parsing every tag again and
// compiling a regular expression per field at each conversion; a plan
// converts every resource's state several times. When every field holds
// an attr.Value, the conversion is a copy of each field, which
// ArgsFromAttributes and ArgsToAttributes make without the framework, with
// the same validation and the same diagnostics; otherwise they report that
// the framework must convert (ok false).

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
	// arguments are read and written field by field (ArgsFromAttributes,
	// ArgsToAttributes), as the framework's reflection would, without it:
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

// ArgumentNames are the tfsdk names of the fields of A (not to be
// modified).
func ArgumentNames[A any]() map[string]bool { return argumentsOf[A]().names }

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

// ArgsFromAttributes reads the arguments A from the attributes of a state,
// plan or configuration; ok is false when the framework must (A is not
// made of attr.Value fields, or a value is not of its field's type).
func ArgsFromAttributes[A any](ctx context.Context, attrs map[string]attr.Value) (args A, diags diag.Diagnostics, ok bool) {
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

// ArgsToAttributes writes the arguments args into vals, checked against
// the schema's types; ok is false when the framework must.
func ArgsToAttributes[A any](ctx context.Context, args A, attrTypes map[string]attr.Type, vals map[string]attr.Value) (diags diag.Diagnostics, ok bool) {
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
