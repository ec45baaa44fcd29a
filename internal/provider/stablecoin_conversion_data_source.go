package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewStablecoinConversionDataSource is the platform_stablecoin_conversion
// data source.
func NewStablecoinConversionDataSource() datasource.DataSource {
	return newObjectDataSource(&stablecoinConversionDataSource)
}

// stablecoinConversionDataSource reads one stablecoin conversion
// (GET /conversion/stablecoins/{id}).
var stablecoinConversionDataSource = objectDataSourceDeclaration{
	typeName:    "platform_stablecoin_conversion",
	description: "Reads one stablecoin conversion by its id. Fields the API leaves out are null.",
	attributes:  stablecoinConversionDataSourceAttributes,
	read:        stablecoinConversionDataSourceRead,
}

// conversionIDPattern matches a UUID in its canonical text form, in either case.
var conversionIDPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// stablecoinConversionDataSourceAttributes are the conversion's shape with
// the id that names it.
func stablecoinConversionDataSourceAttributes() map[string]schema.Attribute {
	attrs := stablecoinConversionShape.attributes()
	attrs["id"] = schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "Id of the conversion: the UUID returned when it was created.",
		Validators: []validator.String{
			stringvalidator.RegexMatches(conversionIDPattern, "must be a UUID such as 123e4567-e89b-42d3-a456-426614174000"),
		},
	}
	return attrs
}

// stablecoinConversionDataSourceRead reads the conversion id names.
func stablecoinConversionDataSourceRead(ctx context.Context, c *client.Client, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var id types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("id"), &id)...)
	if resp.Diagnostics.HasError() {
		return
	}
	conv, err := c.GetStablecoinConversion(ctx, id.ValueString())
	switch {
	case errors.Is(err, client.ErrNotFound):
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Stablecoin conversion not found",
			fmt.Sprintf("No stablecoin conversion with id %q was found: %s. Check the id; it is the UUID "+
				"returned when the conversion was created.", id.ValueString(), err))
		return
	case err != nil:
		resp.Diagnostics.AddError(failure("Unable to read the stablecoin conversion", err),
			fmt.Sprintf("Reading stablecoin conversion %q failed: %s", id.ValueString(), err))
		return
	}
	if got := deref(conv.ID); !strings.EqualFold(got, id.ValueString()) {
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Stablecoin conversion read answered another conversion",
			fmt.Sprintf("The service answered the read of the conversion %q with the conversion %s: the provider "+
				"does not record an answer it did not ask for. Nothing was read; check the id, and the service.",
				id.ValueString(), quotedPrefix(shown(got))))
		return
	}
	vals := stablecoinConversionShape.attrValues(conv, &resp.Diagnostics)
	// Keep the configured id, which the API may echo in another case.
	vals["id"] = id
	state, diags := types.ObjectValue(stablecoinConversionShape.objectType().AttrTypes, vals)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}
