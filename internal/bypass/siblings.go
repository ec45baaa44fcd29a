package bypass

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/helpers/validatordiag"
	"github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// ExactlyOneOfSiblings is objectvalidator.ExactlyOneOf of the attributes
// names beside the validated one (path.MatchRelative().AtParent().AtName),
// with the same check, the same description and the same diagnostics. It
// reads the parent object once, where ExactlyOneOf matches each expression
// against the whole configuration: the six networks of a fiat account
// walked it 30 times per validation.
func ExactlyOneOfSiblings(names ...string) validator.Object {
	exprs := make([]path.Expression, len(names))
	for i, n := range names {
		exprs[i] = path.MatchRelative().AtParent().AtName(n)
	}
	return siblingsValidator{names: names, exprs: exprs, described: objectvalidator.ExactlyOneOf(exprs...)}
}

type siblingsValidator struct {
	names     []string
	exprs     []path.Expression
	described validator.Object
}

func (v siblingsValidator) Description(ctx context.Context) string {
	return v.described.Description(ctx)
}

func (v siblingsValidator) MarkdownDescription(ctx context.Context) string {
	return v.described.MarkdownDescription(ctx)
}

func (v siblingsValidator) ValidateObject(ctx context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsUnknown() {
		return
	}
	count := 0
	if !req.ConfigValue.IsNull() {
		count++
	}
	var parent types.Object
	diags := req.Config.GetAttribute(ctx, req.Path.ParentPath(), &parent)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	siblings := parent.Attributes()
	for _, n := range v.names {
		s, ok := siblings[n]
		if !ok {
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid Validator", fmt.Sprintf("no attribute %q beside %s", n, req.Path))
			return
		}
		// Validation waits until every attribute involved is known.
		if s.IsUnknown() {
			return
		}
		if !s.IsNull() {
			count++
		}
	}
	exactlyOne(req.Path, req.PathExpression.MergeExpressions(v.exprs...), count, &resp.Diagnostics)
}

// ExactlyOneOfRoot is stringvalidator.ExactlyOneOf of the attributes names
// at the root of the configuration (path.MatchRoot), the validated one
// among them or not, with the same check, the same description and the
// same diagnostics. It reads each attribute at its path, where
// ExactlyOneOf matches each expression against the whole configuration:
// a withdrawal's amount and total walked it twice per validation.
func ExactlyOneOfRoot(names ...string) validator.String {
	exprs := make([]path.Expression, len(names))
	for i, n := range names {
		exprs[i] = path.MatchRoot(n)
	}
	return rootValidator{names: names, exprs: exprs, described: stringvalidator.ExactlyOneOf(exprs...)}
}

type rootValidator struct {
	names     []string
	exprs     []path.Expression
	described validator.String
}

func (v rootValidator) Description(ctx context.Context) string { return v.described.Description(ctx) }

func (v rootValidator) MarkdownDescription(ctx context.Context) string {
	return v.described.MarkdownDescription(ctx)
}

func (v rootValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsUnknown() {
		return
	}
	count := 0
	if !req.ConfigValue.IsNull() {
		count++
	}
	for _, n := range v.names {
		p := path.Root(n)
		if p.Equal(req.Path) {
			continue
		}
		var value attr.Value
		diags := req.Config.GetAttribute(ctx, p, &value)
		resp.Diagnostics.Append(diags...)
		if diags.HasError() {
			continue
		}
		// Validation waits until every attribute involved is known.
		if value.IsUnknown() {
			return
		}
		if !value.IsNull() {
			count++
		}
	}
	exactlyOne(req.Path, req.PathExpression.MergeExpressions(v.exprs...), count, &resp.Diagnostics)
}

// exactlyOne adds ExactlyOneOf's error at p when count, the attributes of
// expressions that are set, is not one.
func exactlyOne(p path.Path, expressions path.Expressions, count int, diags *diag.Diagnostics) {
	switch {
	case count == 0:
		diags.Append(validatordiag.InvalidAttributeCombinationDiagnostic(p,
			fmt.Sprintf("No attribute specified when one (and only one) of %s is required", expressions)))
	case count > 1:
		diags.Append(validatordiag.InvalidAttributeCombinationDiagnostic(p,
			fmt.Sprintf("%d attributes specified when one (and only one) of %s is required", count, expressions)))
	}
}
