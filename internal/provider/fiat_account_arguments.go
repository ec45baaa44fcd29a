package provider

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// The arguments of platform_fiat_account, literal, with the API's field
// names at every level (CreateFiatAccountRequest), and their conversions
// to the create and update requests and from an answered account.

type fiatAccountAddressModel struct {
	Country  types.String `tfsdk:"country"`
	Address1 types.String `tfsdk:"address1"`
	Address2 types.String `tfsdk:"address2"`
	City     types.String `tfsdk:"city"`
	Province types.String `tfsdk:"province"`
	ZipCode  types.String `tfsdk:"zip_code"`
}

type fiatAccountPersonModel struct {
	FirstName types.String `tfsdk:"first_name"`
	LastName  types.String `tfsdk:"last_name"`
}

type fiatAccountInstitutionModel struct {
	Name types.String `tfsdk:"name"`
}

type fiatAccountOwnerModel struct {
	PersonDetails      *fiatAccountPersonModel      `tfsdk:"person_details"`
	InstitutionDetails *fiatAccountInstitutionModel `tfsdk:"institution_details"`
}

type fiatAccountWireRoutingModel struct {
	RoutingNumberType types.String             `tfsdk:"routing_number_type"`
	RoutingNumber     types.String             `tfsdk:"routing_number"`
	BankName          types.String             `tfsdk:"bank_name"`
	BankAddress       *fiatAccountAddressModel `tfsdk:"bank_address"`
}

type fiatAccountWireModel struct {
	AccountNumber              types.String                 `tfsdk:"account_number"`
	FiatAccountOwnerAddress    *fiatAccountAddressModel     `tfsdk:"fiat_account_owner_address"`
	RoutingDetails             *fiatAccountWireRoutingModel `tfsdk:"routing_details"`
	IntermediaryRoutingDetails *fiatAccountWireRoutingModel `tfsdk:"intermediary_routing_details"`
}

type fiatAccountCbitModel struct {
	WalletAddress types.String `tfsdk:"wallet_address"`
}

type fiatAccountNumberModel struct {
	AccountNumber types.String `tfsdk:"account_number"`
}

type fiatAccountCubixModel struct {
	AccountID types.String `tfsdk:"account_id"`
}

type fiatAccountRTPRoutingModel struct {
	RoutingNumber types.String             `tfsdk:"routing_number"`
	BankName      types.String             `tfsdk:"bank_name"`
	BankAddress   *fiatAccountAddressModel `tfsdk:"bank_address"`
}

type fiatAccountRTPModel struct {
	AccountNumber           types.String                `tfsdk:"account_number"`
	FiatAccountOwnerAddress *fiatAccountAddressModel    `tfsdk:"fiat_account_owner_address"`
	RoutingDetails          *fiatAccountRTPRoutingModel `tfsdk:"routing_details"`
}

type fiatAccountNetworkModel struct {
	Wire   *fiatAccountWireModel   `tfsdk:"wire"`
	Cbit   *fiatAccountCbitModel   `tfsdk:"cbit"`
	DBSAct *fiatAccountNumberModel `tfsdk:"dbs_act"`
	Cubix  *fiatAccountCubixModel  `tfsdk:"cubix"`
	SCB    *fiatAccountNumberModel `tfsdk:"scb"`
	RTP    *fiatAccountRTPModel    `tfsdk:"rtp"`
}

// fiatAccountArgs are the arguments of platform_fiat_account.
type fiatAccountArgs struct {
	RefID                   types.String             `tfsdk:"ref_id"`
	IdentityID              types.String             `tfsdk:"identity_id"`
	AccountID               types.String             `tfsdk:"account_id"`
	FiatAccountOwner        *fiatAccountOwnerModel   `tfsdk:"fiat_account_owner"`
	FiatNetworkInstructions *fiatAccountNetworkModel `tfsdk:"fiat_network_instructions"`
	Metadata                types.Map                `tfsdk:"metadata"`
}

// fiatAccountModel is the state, plan or configuration of
// platform_fiat_account: its arguments, and the computed attributes of
// fiatAccountComputedShape.
type fiatAccountModel shapedState[fiatAccountArgs]

// set writes m to dst, whose schema is sch.
func (m fiatAccountModel) set(ctx context.Context, dst setter, sch typed) diag.Diagnostics {
	return setShaped(ctx, dst, sch, shapedState[fiatAccountArgs](m))
}

// ptrOf is the known value of s, or nil.
func ptrOf(s types.String) *string {
	if v := knownString(s); v != "" {
		return &v
	}
	return nil
}

func (a *fiatAccountAddressModel) request() *client.Address {
	if a == nil {
		return nil
	}
	return &client.Address{Country: ptrOf(a.Country), Address1: ptrOf(a.Address1), Address2: ptrOf(a.Address2),
		City: ptrOf(a.City), Province: ptrOf(a.Province), ZipCode: ptrOf(a.ZipCode)}
}

func (r *fiatAccountWireRoutingModel) request() *client.RoutingDetails {
	if r == nil {
		return nil
	}
	return &client.RoutingDetails{RoutingNumberType: ptrOf(r.RoutingNumberType), RoutingNumber: ptrOf(r.RoutingNumber),
		BankName: ptrOf(r.BankName), BankAddress: r.BankAddress.request()}
}

func (o *fiatAccountOwnerModel) request() client.FiatAccountOwner {
	var out client.FiatAccountOwner
	if o == nil {
		return out
	}
	if p := o.PersonDetails; p != nil {
		out.PersonDetails = &client.PersonDetails{FirstName: ptrOf(p.FirstName), LastName: ptrOf(p.LastName)}
	}
	if d := o.InstitutionDetails; d != nil {
		out.InstitutionDetails = &client.InstitutionDetails{Name: ptrOf(d.Name)}
	}
	return out
}

func (n *fiatAccountNetworkModel) request() client.FiatNetworkInstructions {
	var out client.FiatNetworkInstructions
	if n == nil {
		return out
	}
	if w := n.Wire; w != nil {
		out.Wire = &client.WireInstructions{AccountNumber: ptrOf(w.AccountNumber),
			FiatAccountOwnerAddress: w.FiatAccountOwnerAddress.request(), RoutingDetails: w.RoutingDetails.request(),
			IntermediaryRoutingDetails: w.IntermediaryRoutingDetails.request()}
	}
	if c := n.Cbit; c != nil {
		out.Cbit = &client.CbitInstructions{WalletAddress: ptrOf(c.WalletAddress)}
	}
	if d := n.DBSAct; d != nil {
		out.DBSAct = &client.AccountNumberInstructions{AccountNumber: ptrOf(d.AccountNumber)}
	}
	if c := n.Cubix; c != nil {
		out.Cubix = &client.CubixInstructions{AccountID: ptrOf(c.AccountID)}
	}
	if s := n.SCB; s != nil {
		out.SCB = &client.AccountNumberInstructions{AccountNumber: ptrOf(s.AccountNumber)}
	}
	if r := n.RTP; r != nil {
		rtp := &client.RTPInstructions{AccountNumber: ptrOf(r.AccountNumber),
			FiatAccountOwnerAddress: r.FiatAccountOwnerAddress.request()}
		if rd := r.RoutingDetails; rd != nil {
			rtp.RoutingDetails = &client.RTPRoutingDetails{RoutingNumber: ptrOf(rd.RoutingNumber),
				BankName: ptrOf(rd.BankName), BankAddress: rd.BankAddress.request()}
		}
		out.RTP = rtp
	}
	return out
}

// metadataOf is the known metadata of m.
func metadataOf(ctx context.Context, m types.Map) (map[string]string, error) {
	if m.IsNull() || m.IsUnknown() {
		return nil, nil
	}
	out := map[string]string{}
	if d := m.ElementsAs(ctx, &out, false); d.HasError() {
		return nil, errors.New("metadata is not a map of strings")
	}
	return out, nil
}

// request is the create request of m with refID.
func (m *fiatAccountArgs) request(ctx context.Context, refID string) (client.CreateFiatAccountRequest, error) {
	md, err := metadataOf(ctx, m.Metadata)
	return client.CreateFiatAccountRequest{
		RefID:                   refID,
		IdentityID:              knownString(m.IdentityID),
		AccountID:               knownString(m.AccountID),
		FiatAccountOwner:        m.FiatAccountOwner.request(),
		FiatNetworkInstructions: m.FiatNetworkInstructions.request(),
		Metadata:                md,
	}, err
}

// updateRequest is the update of the fields UpdateFiatAccount accepts, as
// m configures them.
func (m *fiatAccountArgs) updateRequest(ctx context.Context) (client.UpdateFiatAccountRequest, error) {
	md, err := metadataOf(ctx, m.Metadata)
	owner := m.FiatAccountOwner.request()
	req := client.UpdateFiatAccountRequest{FiatAccountOwner: &owner, Metadata: md}
	if n := m.FiatNetworkInstructions; n != nil && n.Wire != nil {
		w := n.Wire
		u := &client.UpdateWire{FiatAccountOwnerAddress: w.FiatAccountOwnerAddress.request()}
		if r := w.RoutingDetails; r != nil {
			u.RoutingDetails = &client.UpdateRoutingDetails{BankName: ptrOf(r.BankName), BankAddress: r.BankAddress.request()}
		}
		if r := w.IntermediaryRoutingDetails; r != nil {
			u.IntermediaryRoutingDetails = &client.UpdateRoutingDetails{BankName: ptrOf(r.BankName),
				BankAddress: r.BankAddress.request()}
		}
		req.FiatNetworkInstructions = &client.UpdateFiatNetworkInstructions{Wire: u}
	}
	return req, err
}

// lastFour keeps the last four characters of a sensitive value.
func lastFour(s *string) *string {
	if s == nil {
		return nil
	}
	v := *s
	if len(v) > 4 {
		v = v[len(v)-4:]
	}
	v = "…" + v
	return &v
}

// sensitiveValues are the account numbers, routing numbers and CUBIX
// account id of a request.
func sensitiveValues(n *client.FiatNetworkInstructions) []*string {
	var out []*string
	if w := n.Wire; w != nil {
		out = append(out, w.AccountNumber)
		if w.RoutingDetails != nil {
			out = append(out, w.RoutingDetails.RoutingNumber)
		}
		if w.IntermediaryRoutingDetails != nil {
			out = append(out, w.IntermediaryRoutingDetails.RoutingNumber)
		}
	}
	if n.DBSAct != nil {
		out = append(out, n.DBSAct.AccountNumber)
	}
	if n.SCB != nil {
		out = append(out, n.SCB.AccountNumber)
	}
	if n.Cubix != nil {
		out = append(out, n.Cubix.AccountID)
	}
	if r := n.RTP; r != nil {
		out = append(out, r.AccountNumber)
		if r.RoutingDetails != nil {
			out = append(out, r.RoutingDetails.RoutingNumber)
		}
	}
	return out
}

// derivedRefID is the ref_id derived from the create request of m (see
// money_core.go), in which every sensitive value is cut to its last four
// characters: the ref_id, shown in plans and sent to the service, must not
// let anyone recover an account number by trying them all. ok is false
// when the arguments cannot be read.
func (m *fiatAccountArgs) derivedRefID(ctx context.Context) (string, bool) {
	req, err := m.request(ctx, "")
	if err != nil {
		return "", false
	}
	// The request's structs are fresh copies: cutting them changes nothing
	// in m.
	for _, p := range sensitiveValues(&req.FiatNetworkInstructions) {
		if p != nil {
			*p = *lastFour(p)
		}
	}
	return derivedRefID(fiatAccountWords.refNamespace, req)
}

// ownerName is the owner's name of an account, for messages.
func ownerName(o *client.FiatAccountOwner) string {
	switch {
	case o == nil:
		return ""
	case o.PersonDetails != nil:
		return strings.TrimSpace(deref(o.PersonDetails.FirstName) + " " + deref(o.PersonDetails.LastName))
	case o.InstitutionDetails != nil:
		return deref(o.InstitutionDetails.Name)
	}
	return ""
}

// accountSummary describes an account without its numbers: owner,
// network and bank, status.
func accountSummary(a *client.FiatAccount) string {
	network, bank := networkOf(a.FiatNetworkInstructions)
	parts := []string{}
	if o := ownerName(a.FiatAccountOwner); o != "" {
		parts = append(parts, "owner "+o)
	}
	if network != "" {
		parts = append(parts, network)
	}
	if bank != "" {
		parts = append(parts, "at "+bank)
	}
	if s := deref(a.Status); s != "" {
		parts = append(parts, "status "+s)
	}
	return shown(strings.Join(parts, ", "))
}

// fiatAccountDifferences lists how the account a differs from the create
// request req: every field the request sets must come back equal, the
// owner and network of the same kind. Sensitive values are never shown.
func fiatAccountDifferences(req client.CreateFiatAccountRequest, a *client.FiatAccount) []string {
	var d []string
	if why := unusableID(deref(a.ID)); why != "" {
		d = append(d, "id: answered "+why)
	}
	str := func(field string, requested, answered *string, secret bool) {
		if requested == nil || *requested == "" {
			return
		}
		switch {
		case answered == nil || *answered == "":
			d = append(d, fmt.Sprintf("%s: requested a value, answered none", field))
		case *requested != *answered && secret:
			d = append(d, fmt.Sprintf("%s: answered another value than requested (not shown: it is sensitive)", field))
		case *requested != *answered:
			d = append(d, fmt.Sprintf("%s: requested %q, answered %q", field, *requested, shown(*answered)))
		}
	}
	if req.RefID != "" {
		str("ref_id", &req.RefID, a.RefID, false)
	}
	if req.IdentityID != "" {
		str("identity_id", &req.IdentityID, a.IdentityID, false)
	}
	if req.AccountID != "" {
		str("account_id", &req.AccountID, a.AccountID, false)
	}
	addr := func(field string, r, ans *client.Address) {
		if r == nil {
			return
		}
		if ans == nil {
			d = append(d, field+": requested an address, answered none")
			return
		}
		str(field+".country", r.Country, ans.Country, false)
		str(field+".address1", r.Address1, ans.Address1, false)
		str(field+".address2", r.Address2, ans.Address2, false)
		str(field+".city", r.City, ans.City, false)
		str(field+".province", r.Province, ans.Province, false)
		str(field+".zip_code", r.ZipCode, ans.ZipCode, false)
	}
	o, ao := req.FiatAccountOwner, a.FiatAccountOwner
	if ao == nil {
		ao = &client.FiatAccountOwner{}
	}
	switch {
	case o.PersonDetails != nil && ao.PersonDetails == nil:
		d = append(d, "fiat_account_owner: requested person_details, answered none")
	case o.PersonDetails != nil:
		str("fiat_account_owner.person_details.first_name", o.PersonDetails.FirstName, ao.PersonDetails.FirstName, false)
		str("fiat_account_owner.person_details.last_name", o.PersonDetails.LastName, ao.PersonDetails.LastName, false)
	case o.InstitutionDetails != nil && ao.InstitutionDetails == nil:
		d = append(d, "fiat_account_owner: requested institution_details, answered none")
	case o.InstitutionDetails != nil:
		str("fiat_account_owner.institution_details.name", o.InstitutionDetails.Name, ao.InstitutionDetails.Name, false)
	}
	n, an := req.FiatNetworkInstructions, a.FiatNetworkInstructions
	if an == nil {
		an = &client.FiatNetworkInstructions{}
	}
	routing := func(field string, r, ans *client.RoutingDetails) {
		if r == nil {
			return
		}
		if ans == nil {
			d = append(d, field+": requested routing details, answered none")
			return
		}
		str(field+".routing_number_type", r.RoutingNumberType, ans.RoutingNumberType, false)
		str(field+".routing_number", r.RoutingNumber, ans.RoutingNumber, true)
		str(field+".bank_name", r.BankName, ans.BankName, false)
		addr(field+".bank_address", r.BankAddress, ans.BankAddress)
	}
	const f = "fiat_network_instructions"
	missing := func(name string) { d = append(d, fmt.Sprintf("%s.%s: requested, answered none", f, name)) }
	switch {
	case n.Wire != nil && an.Wire == nil:
		missing("wire")
	case n.Wire != nil:
		str(f+".wire.account_number", n.Wire.AccountNumber, an.Wire.AccountNumber, true)
		addr(f+".wire.fiat_account_owner_address", n.Wire.FiatAccountOwnerAddress, an.Wire.FiatAccountOwnerAddress)
		routing(f+".wire.routing_details", n.Wire.RoutingDetails, an.Wire.RoutingDetails)
		routing(f+".wire.intermediary_routing_details", n.Wire.IntermediaryRoutingDetails, an.Wire.IntermediaryRoutingDetails)
	case n.Cbit != nil && an.Cbit == nil:
		missing("cbit")
	case n.Cbit != nil:
		str(f+".cbit.wallet_address", n.Cbit.WalletAddress, an.Cbit.WalletAddress, false)
	case n.DBSAct != nil && an.DBSAct == nil:
		missing("dbs_act")
	case n.DBSAct != nil:
		str(f+".dbs_act.account_number", n.DBSAct.AccountNumber, an.DBSAct.AccountNumber, true)
	case n.Cubix != nil && an.Cubix == nil:
		missing("cubix")
	case n.Cubix != nil:
		str(f+".cubix.account_id", n.Cubix.AccountID, an.Cubix.AccountID, true)
	case n.SCB != nil && an.SCB == nil:
		missing("scb")
	case n.SCB != nil:
		str(f+".scb.account_number", n.SCB.AccountNumber, an.SCB.AccountNumber, true)
	case n.RTP != nil && an.RTP == nil:
		missing("rtp")
	case n.RTP != nil:
		str(f+".rtp.account_number", n.RTP.AccountNumber, an.RTP.AccountNumber, true)
		addr(f+".rtp.fiat_account_owner_address", n.RTP.FiatAccountOwnerAddress, an.RTP.FiatAccountOwnerAddress)
		if rd := n.RTP.RoutingDetails; rd != nil {
			ard := an.RTP.RoutingDetails
			if ard == nil {
				ard = &client.RTPRoutingDetails{}
			}
			str(f+".rtp.routing_details.routing_number", rd.RoutingNumber, ard.RoutingNumber, true)
			str(f+".rtp.routing_details.bank_name", rd.BankName, ard.BankName, false)
			addr(f+".rtp.routing_details.bank_address", rd.BankAddress, ard.BankAddress)
		}
	}
	if len(req.Metadata) > 0 {
		keys := make([]string, 0, len(req.Metadata))
		for k := range req.Metadata {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		answered := a.AccountMetadata()
		for _, k := range keys {
			got, ok := answered[k].(string)
			if !ok || got != req.Metadata[k] {
				d = append(d, fmt.Sprintf("metadata.%s: requested %q, answered %s", k, req.Metadata[k],
					shown(fmt.Sprint(answered[k]))))
			}
		}
	}
	return d
}

// fiatAccountWords are the words of a fiat account create.
var fiatAccountWords = createWords{
	refNamespace: fiatAccountNamespace,
	resourceType: "platform_fiat_account",
	noun:         "fiat account",
	made:         "created",
	path:         client.PathFiatAccounts,
	scope:        client.ScopeWriteFiatAccount,
}.filled()
