package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"

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

// stablecoinConversionModel is the state of platform_stablecoin_conversion.
type stablecoinConversionModel struct {
	ID                 types.String `tfsdk:"id"`
	ProfileID          types.String `tfsdk:"profile_id"`
	Amount             types.String `tfsdk:"amount"`
	SourceAsset        types.String `tfsdk:"source_asset"`
	TargetAsset        types.String `tfsdk:"target_asset"`
	Status             types.String `tfsdk:"status"`
	RefID              types.String `tfsdk:"ref_id"`
	IdentityID         types.String `tfsdk:"identity_id"`
	AccountID          types.String `tfsdk:"account_id"`
	CreatedAt          types.String `tfsdk:"created_at"`
	UpdatedAt          types.String `tfsdk:"updated_at"`
	SettledAt          types.String `tfsdk:"settled_at"`
	CancelledAt        types.String `tfsdk:"cancelled_at"`
	Metadata           types.Map    `tfsdk:"metadata"`
	RecipientProfileID types.String `tfsdk:"recipient_profile_id"`
}

// conversionIDPattern matches a UUID in its canonical text form, in either case.
var conversionIDPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func (d *stablecoinConversionDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_stablecoin_conversion"
}

func (d *stablecoinConversionDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(description string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: description}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one stablecoin conversion by its id. Fields the API leaves out are null.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Id of the conversion: the UUID returned when it was created.",
				Validators: []validator.String{
					stringvalidator.RegexMatches(conversionIDPattern, "must be a UUID such as 123e4567-e89b-42d3-a456-426614174000"),
				},
			},
			"profile_id":           computed("Profile of the conversion."),
			"amount":               computed("Amount to convert (decimal string)."),
			"source_asset":         computed("Asset converted from."),
			"target_asset":         computed("Asset converted to."),
			"status":               computed("Current status of the conversion, for example `CREATED`."),
			"ref_id":               computed("Client-provided reference id given at creation."),
			"identity_id":          computed("Identity, for third-party integrations."),
			"account_id":           computed("Account, for third-party integrations."),
			"created_at":           computed("Time the conversion was requested (RFC 3339)."),
			"updated_at":           computed("Time of the last update (RFC 3339)."),
			"settled_at":           computed("Time of settlement (RFC 3339); null until settled."),
			"cancelled_at":         computed("Time of cancellation (RFC 3339); null unless cancelled."),
			"recipient_profile_id": computed("For directed settlement, the receiving profile."),
			"metadata": schema.MapAttribute{
				Computed:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "Client-specified metadata.",
			},
		},
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
		resp.Diagnostics.AddError("Unable to read the stablecoin conversion",
			fmt.Sprintf("Reading stablecoin conversion %q failed: %s", id.ValueString(), err))
		return
	}
	m := stablecoinConversionModel{
		// Keep the configured id, which the API may echo in another case.
		ID:                 id,
		ProfileID:          stringValue(c.ProfileID),
		Amount:             stringValue(c.Amount),
		SourceAsset:        stringValue(c.SourceAsset),
		TargetAsset:        stringValue(c.TargetAsset),
		Status:             stringValue(c.Status),
		RefID:              stringValue(c.RefID),
		IdentityID:         stringValue(c.IdentityID),
		AccountID:          stringValue(c.AccountID),
		CreatedAt:          timeValue(c.CreatedAt),
		UpdatedAt:          timeValue(c.UpdatedAt),
		SettledAt:          timeValue(c.SettledAt),
		CancelledAt:        timeValue(c.CancelledAt),
		Metadata:           stringMapValue(c.Metadata),
		RecipientProfileID: stringValue(c.RecipientProfileID),
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
