package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewFiatDepositInstructionsDataSource is the constructor of the
// platform_fiat_deposit_instructions data source.
func NewFiatDepositInstructionsDataSource() datasource.DataSource {
	return newObjectDataSource(&fiatDepositInstructionsDataSource)
}

// fiatDepositInstructionsDataSource reads one set of fiat deposit
// instructions by id.
var fiatDepositInstructionsDataSource = objectDataSourceDeclaration{
	typeName: "platform_fiat_deposit_instructions",
	description: "Reads one set of fiat deposit instructions by id " +
		"(`GET /transfer/fiat-deposit-instructions/{id}`), for example instructions created outside this " +
		"configuration. Needs the OAuth scope `" + client.ScopeReadFiatDepositInstr + "`.",
	attributes: fiatDepositInstructionsDataSourceAttributes,
	read:       fiatDepositInstructionsDataSourceRead,
}

// fiatDepositInstructionsDataSourceAttributes are the instructions' shape
// with the id that names them and the arguments of the resource, computed.
func fiatDepositInstructionsDataSourceAttributes() map[string]schema.Attribute {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	attrs := fiatDepositInstructionsShape.attributes()
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "Identifier of the instructions to read.",
		Required:            true,
		Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
	}
	attrs["profile_id"] = str("Profile the deposits are credited to.")
	attrs["fiat_network"] = str("Fiat network of the instructions. The answer of the service does not name it: " +
		"it is `WIRE` when the instructions hold `wire` details, null otherwise.")
	attrs["ref_id"] = str("Client id given when the instructions were created; null when none was.")
	attrs["identity_id"] = str("Identity of the depositing user.")
	attrs["account_id"] = str("Account associated with the identity; null when the service gives none.")
	attrs["routing_number_type"] = str("Kind of routing number of `WIRE` instructions (`ABA` or `SWIFT`); null for other networks.")
	attrs["metadata"] = schema.MapAttribute{
		MarkdownDescription: "Client-specified metadata; null when there is none.",
		ElementType:         types.StringType,
		Computed:            true,
	}
	return attrs
}

// fiatDepositInstructionsDataSourceRead reads the instructions id names.
func fiatDepositInstructionsDataSourceRead(ctx context.Context, c *client.Client, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var id types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("id"), &id)...)
	if resp.Diagnostics.HasError() {
		return
	}
	f, err := c.GetFiatDepositInstructions(ctx, id.ValueString())
	if errors.Is(err, client.ErrNotFound) {
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Fiat deposit instructions not found",
			fmt.Sprintf("The service has no fiat deposit instructions with id %q: %s.\n\nCheck the id, and that the "+
				"client credentials belong to the customer that created them.", id.ValueString(), err))
		return
	}
	if err != nil {
		summary, detail := readInstructionsError(err, id.ValueString())
		resp.Diagnostics.AddError(failure(summary, err), detail)
		return
	}
	m := newFiatDepositInstructionsModel()
	resp.Diagnostics.Append(m.fromAPI(f, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(m.set(ctx, &resp.State, resp.State.Schema)...)
}
