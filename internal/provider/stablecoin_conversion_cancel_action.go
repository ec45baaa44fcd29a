package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

var _ action.ActionWithConfigure = (*stablecoinConversionCancelAction)(nil)

// NewStablecoinConversionCancelAction is the constructor of the
// platform_stablecoin_conversion_cancel action.
func NewStablecoinConversionCancelAction() action.Action { return &stablecoinConversionCancelAction{} }

// stablecoinConversionCancelAction cancels one stablecoin conversion
// (DELETE /conversion/stablecoins/{id}) when invoked: never a destroy of
// the platform_stablecoin_conversion resource, which only forgets.
type stablecoinConversionCancelAction struct{ data *providerData }

// stablecoinConversionCancelArgs are the action's arguments.
type stablecoinConversionCancelArgs struct {
	ID types.String `tfsdk:"id"`
}

func (a *stablecoinConversionCancelAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_stablecoin_conversion_cancel"
}

func (a *stablecoinConversionCancelAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Cancels one stablecoin conversion that has not settled (`DELETE " +
			"/conversion/stablecoins/{id}`, scope `" + client.ScopeWriteStablecoinConversion + "`) each time it is " +
			"invoked: by hand (`terraform apply -invoke=action.platform_stablecoin_conversion_cancel.<name>`) or " +
			"from a resource's `lifecycle { action_trigger { ... } }`. Actions need Terraform 1.14 or later.\n\n" +
			"Destroying a `platform_stablecoin_conversion` never cancels it: cancelling is this action, on purpose. " +
			"The service's answer (the conversion, its `status` `CANCELLED`) is reported; a conversion the service " +
			"does not know, or one it no longer cancels (settled, or cancelled already), is an error naming the " +
			"service's answer. The conversion's resource, if any, shows the new status at its next refresh.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "Id of the conversion to cancel: the `id` of a `platform_stablecoin_conversion`.",
				Required:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
		},
	}
}

func (a *stablecoinConversionCancelAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (a *stablecoinConversionCancelAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	args, ok := configuredArgs[stablecoinConversionCancelArgs](ctx, a.data != nil, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	id := args.ID.ValueString()
	resp.SendProgress(action.InvokeProgressEvent{Message: "Cancelling stablecoin conversion " + shown(id) + "."})
	c, err := a.data.client.CancelStablecoinConversion(ctx, id)
	switch {
	case err != nil:
		resp.Diagnostics.AddAttributeError(path.Root("id"), failure("Stablecoin conversion not cancelled", err),
			fmt.Sprintf("Cancelling the stablecoin conversion %s failed: %s.\n\nCancelling twice is harmless: the "+
				"service cancels a conversion once, and answers the next cancel with an error.", shown(id), err))
	case deref(c.ID) != id:
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Stablecoin conversion cancel answered another conversion",
			fmt.Sprintf("The service answered the cancel of %s with the conversion %s: check the conversion's status "+
				"(data source platform_stablecoin_conversion) before invoking again.", shown(id), shown(deref(c.ID))))
	case deref(c.Status) != stablecoinConversionCancelled:
		// The service answered the cancel without a cancellation: never
		// reported as one.
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Stablecoin conversion not reported cancelled",
			fmt.Sprintf("The service answered the cancel of the conversion %s with the status %s, not %s: it is not "+
				"reported as cancelled, and what it converted may have been (or may still be) settled. Check the "+
				"conversion's status (data source platform_stablecoin_conversion) before invoking again.", shown(id),
				quotedPrefix(shown(deref(c.Status))), stablecoinConversionCancelled))
	default:
		resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("Stablecoin conversion %s: status %s.",
			shown(id), shown(deref(c.Status)))})
	}
}
