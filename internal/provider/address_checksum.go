package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// checksumRefused refuses a new crypto destination whose address on
// network has a bad checksum (addressChecksumProblem), with an error on
// attr, and reports whether it did. It judges what is about to be made or
// sent: a new withdrawal, rule or address book entry at plan and at send,
// and every action invocation; an object already in the state keeps the
// address it was made with. via names what was refused, when is said in
// the summary ("" at plan, " at send").
func checksumRefused(network, address types.String, attr path.Path, via, when string, diags *diag.Diagnostics) bool {
	if network.IsNull() || network.IsUnknown() || address.IsNull() || address.IsUnknown() {
		return false
	}
	problem := addressChecksumProblem(network.ValueString(), address.ValueString())
	if problem == "" {
		return false
	}
	diags.AddAttributeError(attr, "Invalid address checksum"+when,
		fmt.Sprintf("The address of this %s on %s %s. Nothing was sent: correct the address (copy it from its "+
			"source again) and plan again.", via, shown(network.ValueString()), problem))
	return true
}
