package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/bypass"
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

// id is the object's id in m, null until the service confirmed it.
func id[A any](m shapedState[A]) types.String { return m.str("id") }

// getter is what tfsdk.State, tfsdk.Plan and tfsdk.Config have in common.
type getter interface {
	Get(ctx context.Context, target any) diag.Diagnostics
}

// setter is what tfsdk.State and tfsdk.Plan have in common.
type setter interface {
	Set(ctx context.Context, val any) diag.Diagnostics
}

// shapedWriter is a model that writes itself (see setShaped).
type shapedWriter interface {
	set(ctx context.Context, dst setter, sch typed) diag.Diagnostics
}

// getShaped reads src into its arguments and computed attributes: the
// arguments field by field (bypass.ArgsFromAttributes), or by the
// framework's reflection when they cannot be.
func getShaped[A any](ctx context.Context, src getter) (shapedState[A], diag.Diagnostics) {
	var s shapedState[A]
	var obj types.Object
	diags := src.Get(ctx, &obj)
	if diags.HasError() {
		return s, diags
	}
	names := bypass.ArgumentNames[A]()
	s.computed = map[string]attr.Value{}
	for name, v := range obj.Attributes() {
		if !names[name] {
			s.computed[name] = v
		}
	}
	if args, d, ok := bypass.ArgsFromAttributes[A](ctx, obj.Attributes()); ok {
		s.args = args
		diags.Append(d...)
		return s, diags
	}
	s.args, diags = argsByFramework[A](ctx, obj, diags)
	return s, diags
}

// readShaped is getShaped appending its diagnostics to diags; ok is false
// when diags then hold an error.
func readShaped[A any](ctx context.Context, src getter, diags *diag.Diagnostics) (s shapedState[A], ok bool) {
	s, d := getShaped[A](ctx, src)
	diags.Append(d...)
	return s, !diags.HasError()
}

// argsByFramework reads the arguments A from obj by the framework's
// reflection.
func argsByFramework[A any](ctx context.Context, obj types.Object, diags diag.Diagnostics) (A, diag.Diagnostics) {
	var a A
	names := bypass.ArgumentNames[A]()
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
// s.args (field by field, bypass.ArgsToAttributes, or by the framework's
// reflection), every other attribute from s.computed (null when it holds
// none).
func setShaped[A any](ctx context.Context, dst setter, sch typed, s shapedState[A]) diag.Diagnostics {
	var diags diag.Diagnostics
	ot, ok := sch.Type().(attr.TypeWithAttributeTypes)
	if !ok {
		diags.AddError("Internal error", fmt.Sprintf("the schema's type %s is not an object", sch.Type()))
		return diags
	}
	attrTypes := ot.AttributeTypes()
	names := bypass.ArgumentNames[A]()
	vals := make(map[string]attr.Value, len(attrTypes))
	if d, ok := bypass.ArgsToAttributes(ctx, s.args, attrTypes, vals); ok {
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
	for name := range bypass.ArgumentNames[A]() {
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
