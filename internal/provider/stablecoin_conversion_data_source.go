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

var _ datasource.DataSourceWithConfigure = (*stablecoinConversionDataSource)(nil)

// NewStablecoinConversionDataSource is the platform_stablecoin_conversion
// data source.
func NewStablecoinConversionDataSource() datasource.DataSource {
	return &stablecoinConversionDataSource{}
}

// stablecoinConversionDataSource reads one stablecoin conversion
// (GET /conversion/stablecoins/{id}).
type stablecoinConversionDataSource struct {
	data *providerData
}

// conversionIDPattern matches a UUID in its canonical text form, in either case.
var conversionIDPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func (d *stablecoinConversionDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_stablecoin_conversion"
}

func (d *stablecoinConversionDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := stablecoinConversionShape.attributes()
	attrs["id"] = schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "Id of the conversion: the UUID returned when it was created.",
		Validators: []validator.String{
			stringvalidator.RegexMatches(conversionIDPattern, "must be a UUID such as 123e4567-e89b-42d3-a456-426614174000"),
		},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one stablecoin conversion by its id. Fields the API leaves out are null.",
		Attributes:          attrs,
	}
}

func (d *stablecoinConversionDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *stablecoinConversionDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var id types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("id"), &id)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	c, err := d.data.client.GetStablecoinConversion(ctx, id.ValueString())
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
	if got := deref(c.ID); !strings.EqualFold(got, id.ValueString()) {
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Stablecoin conversion read answered another conversion",
			fmt.Sprintf("The service answered the read of the conversion %q with the conversion %s: the provider "+
				"does not record an answer it did not ask for. Nothing was read; check the id, and the service.",
				id.ValueString(), quotedPrefix(shown(got))))
		return
	}
	vals := stablecoinConversionShape.attrValues(c, &resp.Diagnostics)
	// Keep the configured id, which the API may echo in another case.
	vals["id"] = id
	state, diags := types.ObjectValue(stablecoinConversionShape.objectType().AttrTypes, vals)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}
