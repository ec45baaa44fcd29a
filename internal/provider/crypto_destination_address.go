package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/btcsuite/btcd/btcutil/base58"
	"github.com/btcsuite/btcd/btcutil/bech32"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"golang.org/x/crypto/sha3"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// An entry of the withdrawal address book (GET
// /transfer/crypto-destination-addresses): one shape, the single source of
// the items of platform_crypto_destination_addresses and of the computed
// attributes of the resource and list resource
// platform_crypto_destination_address, beside the resource's arguments,
// which are literal (cryptoDestinationAddressArgs).

// geographicAddressShape is addressShape's object with the Travel Rule
// data's descriptions, its fields in the order its pinned list state was
// first written (country first).
var geographicAddressShape = objectShape[client.Address]{
	stringField("country", "ISO 3166-1 alpha-3 country code, for example `USA`.",
		func(a *client.Address) *string { return a.Country }),
	stringField("address1", "First line of the street address.", func(a *client.Address) *string { return a.Address1 }),
	stringField("address2", "Second line of the street address.", func(a *client.Address) *string { return a.Address2 }),
	stringField("city", "City or town.", func(a *client.Address) *string { return a.City }),
	stringField("province", "State, province or region.", func(a *client.Address) *string { return a.Province }),
	stringField("zip_code", "Postal or ZIP code.", func(a *client.Address) *string { return a.ZipCode }),
}

var beneficiaryShape = objectShape[client.Beneficiary]{
	objectField("person_details", "The beneficiary, when a person.",
		func(b *client.Beneficiary) *client.BeneficiaryPerson { return b.PersonDetails },
		objectShape[client.BeneficiaryPerson]{
			stringField("first_name", "First name.", func(p *client.BeneficiaryPerson) *string { return p.FirstName }),
			stringField("last_name", "Last name.", func(p *client.BeneficiaryPerson) *string { return p.LastName }),
			objectField("physical_address", "Postal address.",
				func(p *client.BeneficiaryPerson) *client.Address { return p.PhysicalAddress }, geographicAddressShape),
		}),
	objectField("institution_details", "The beneficiary, when an institution.",
		func(b *client.Beneficiary) *client.BeneficiaryInstitution { return b.InstitutionDetails },
		objectShape[client.BeneficiaryInstitution]{
			stringField("name", "Name of the institution.", func(i *client.BeneficiaryInstitution) *string { return i.Name }),
			objectField("physical_address", "Postal address.",
				func(i *client.BeneficiaryInstitution) *client.Address { return i.PhysicalAddress }, geographicAddressShape),
		}),
	boolField("self", "True when the beneficiary is the end user (their own wallet).",
		func(b *client.Beneficiary) *bool { return b.Self }),
}

var travelruleShape = objectShape[client.TravelruleMetadata]{
	objectField("beneficiary", "The party receiving the funds.",
		func(t *client.TravelruleMetadata) *client.Beneficiary { return t.Beneficiary }, beneficiaryShape),
	objectField("vasp", "The receiving VASP, when `custodian_type` is `VASP`.",
		func(t *client.TravelruleMetadata) *client.Vasp { return t.Vasp },
		objectShape[client.Vasp]{
			stringField("id", "Id of a known VASP.", func(v *client.Vasp) *string { return v.ID }),
			stringField("name", "Name of the VASP, as the service gives it.", func(v *client.Vasp) *string { return v.Name }),
			stringField("custom_vasp_name", "Name of a VASP that is not in the service's directory.",
				func(v *client.Vasp) *string { return v.CustomVaspName }),
			stringField("custom_vasp_website", "Website of that VASP.", func(v *client.Vasp) *string { return v.CustomVaspWebsite }),
		}),
	stringField("custodian_type", "Who holds the address: `VASP` or `PRIVATE`.",
		func(t *client.TravelruleMetadata) *string { return t.CustodianType }),
	stringField("transfer_purpose", "Purpose of the transfers.", func(t *client.TravelruleMetadata) *string { return t.TransferPurpose }),
}

var cryptoDestinationAddressShape = objectShape[client.CryptoDestinationAddress]{
	requiredString("id", "Identifier of the address in the address book. Import uses it.",
		func(a *client.CryptoDestinationAddress) string { return a.ID }),
	stringField("identity_id", "Identity the address is scoped to; null for a first-party address.",
		func(a *client.CryptoDestinationAddress) *string { return a.IdentityID }),
	requiredString("crypto_network", "Network of the address, for example `ETHEREUM`.",
		func(a *client.CryptoDestinationAddress) string { return a.CryptoNetwork }),
	requiredString("address", "The crypto address.", func(a *client.CryptoDestinationAddress) string { return a.Address }),
	stringField("nickname", "Name of the address in the address book.",
		func(a *client.CryptoDestinationAddress) *string { return a.Nickname }),
	stringField("status", "Review status of the address: `PENDING`, `APPROVED` or `REJECTED`. Withdrawals should go "+
		"to `APPROVED` addresses only; the status follows the service on every refresh.",
		func(a *client.CryptoDestinationAddress) *string { return a.Status }),
	timeField("created_at", "When the address was added to the book",
		func(a *client.CryptoDestinationAddress) *time.Time { return a.CreatedAt }),
	boolField("bookmarked", "Whether the address is bookmarked.",
		func(a *client.CryptoDestinationAddress) *bool { return a.Bookmarked }),
	stringField("policy_execution_id", "Id of the service's policy execution that reviews the address.",
		func(a *client.CryptoDestinationAddress) *string { return a.PolicyExecutionID }),
	objectField("travelrule_metadata", "Travel Rule data of the address; null when it has none.",
		func(a *client.CryptoDestinationAddress) *client.TravelruleMetadata { return a.TravelruleMetadata }, travelruleShape),
}

// destinationWords are the words of the address book, for the messages the
// resource shares with the money core.
var destinationWords = createWords{
	refNamespace: "crypto_destination_address",
	resourceType: "platform_crypto_destination_address",
	noun:         "crypto destination address",
	made:         "created",
	path:         client.PathCryptoDestinationAddress,
	scope:        client.ScopeWriteCryptoDestinationAddress,
}.filled()

// cryptoDestinationAddressArgs are the arguments of the resource.
type cryptoDestinationAddressArgs struct {
	CryptoNetwork      types.String `tfsdk:"crypto_network"`
	Address            types.String `tfsdk:"address"`
	IdentityID         types.String `tfsdk:"identity_id"`
	Nickname           types.String `tfsdk:"nickname"`
	Bookmarked         types.Bool   `tfsdk:"bookmarked"`
	TravelruleMetadata types.Object `tfsdk:"travelrule_metadata"`
}

// destinationAddressComputedShape is what the resource computes of its
// address: the attributes of the shape that are not arguments (id, status,
// created_at, policy_execution_id).
var destinationAddressComputedShape = cryptoDestinationAddressShape.without(
	"crypto_network", "address", "identity_id", "nickname", "bookmarked", "travelrule_metadata")

// cryptoDestinationAddressModel is the state of the resource.
type cryptoDestinationAddressModel shapedState[cryptoDestinationAddressArgs]

func (m cryptoDestinationAddressModel) set(ctx context.Context, dst setter, sch typed) diag.Diagnostics {
	return setShaped(ctx, dst, sch, shapedState[cryptoDestinationAddressArgs](m))
}

// tuple names the address in the book: network, address and identity.
func (a cryptoDestinationAddressArgs) tuple() string {
	return knownString(a.CryptoNetwork) + "\x00" + knownString(a.Address) + "\x00" + knownString(a.IdentityID)
}

// describe says which address a names, for messages.
func (a cryptoDestinationAddressArgs) describe() string {
	s := fmt.Sprintf("%s on %s", knownString(a.Address), knownString(a.CryptoNetwork))
	if id := knownString(a.IdentityID); id != "" {
		s += " for identity " + id
	}
	return s
}

// fromAPI sets every attribute of m from the address a.
func (m *cryptoDestinationAddressModel) fromAPI(a *client.CryptoDestinationAddress, diags *diag.Diagnostics) {
	m.args = cryptoDestinationAddressArgs{
		CryptoNetwork:      optionalString(a.CryptoNetwork),
		Address:            optionalString(a.Address),
		IdentityID:         stringValue(a.IdentityID),
		Nickname:           stringValue(a.Nickname),
		Bookmarked:         types.BoolValue(a.Bookmarked != nil && *a.Bookmarked),
		TravelruleMetadata: travelruleValue(a.TravelruleMetadata, diags),
	}
	m.computed = destinationAddressComputedShape.attrValues(a, diags)
}

// travelruleType is the type of the travelrule_metadata argument.
var travelruleType = travelruleShape.objectType()

// travelruleValue is t as the travelrule_metadata argument, null when nil.
func travelruleValue(t *client.TravelruleMetadata, diags *diag.Diagnostics) types.Object {
	return travelruleShape.value(t, diags)
}

// travelruleRequest is the travelrule_metadata argument as sent: nil when
// null or unknown. vasp.name is answered only, never sent.
func travelruleRequest(o types.Object) (*client.TravelruleMetadata, error) {
	if o.IsNull() || o.IsUnknown() {
		return nil, nil
	}
	v, ok := jsonOf(o)
	if !ok {
		return nil, fmt.Errorf("travelrule_metadata holds a value of an unexpected kind")
	}
	if vasp, _ := v.(map[string]any)["vasp"].(map[string]any); vasp != nil {
		delete(vasp, "name")
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var t client.TravelruleMetadata
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

// jsonOf is the JSON value of a framework value built of objects, strings
// and bools; null and unknown attributes are left out (at apply, only the
// answered vasp.name is unknown). ok is false for another kind of value.
func jsonOf(v attr.Value) (any, bool) {
	if v.IsNull() || v.IsUnknown() {
		return nil, true
	}
	switch x := v.(type) {
	case types.String:
		return x.ValueString(), true
	case types.Bool:
		return x.ValueBool(), true
	case types.Object:
		out := map[string]any{}
		for name, a := range x.Attributes() {
			j, ok := jsonOf(a)
			if !ok {
				return nil, false
			}
			if j != nil {
				out[name] = j
			}
		}
		return out, true
	}
	return nil, false
}

// travelruleDifferences lists how the answered Travel Rule data differs
// from the sent one (vasp.name aside, which only the service sets).
func travelruleDifferences(sent, answered *client.TravelruleMetadata) []string {
	if sent == nil {
		return nil
	}
	canon := func(t *client.TravelruleMetadata) string {
		if t == nil {
			return "null"
		}
		c := *t
		if c.Vasp != nil {
			v := *c.Vasp
			v.Name = nil
			c.Vasp = &v
		}
		b, _ := canonicalJSON(c)
		return string(b)
	}
	if s, a := canon(sent), canon(answered); s != a {
		return []string{fmt.Sprintf("travelrule_metadata: sent %s, answered %s", truncate(s, 400),
			truncate(*escapedText(&a), 400))}
	}
	return nil
}

// Shapes of addresses the provider checks at plan. The service publishes
// none; these are the networks' own formats, well known and stable, with
// the checksums the networks define: bech32 (BIP-173) and bech32m
// (BIP-350) for Bitcoin's segwit addresses, base58check for its legacy
// ones, and EIP-55 for EVM addresses written in mixed case.
var (
	evmAddressPattern    = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)
	suiAddressPattern    = regexp.MustCompile(`^0x[0-9a-fA-F]{64}$`)
	solanaAddressPattern = regexp.MustCompile(`^[1-9A-HJ-NP-Za-km-z]{32,44}$`)
	// evmNetworks are the networks whose addresses are EVM addresses.
	evmNetworks = []string{"ETHEREUM", "POLYGON_POS", "BASE", "ARBITRUM_ONE", "INK", "XLAYER", "AVALANCHE", "ROBINHOOD", "BNB"}
)

// addressShapeProblem says what is wrong with address on network, or ""
// when nothing is: no whitespace anywhere, and on the networks whose
// format is well known (EVM networks, SUI, SOLANA) that format.
func addressShapeProblem(network, address string) string {
	if strings.ContainsFunc(address, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }) {
		return fmt.Sprintf("must not contain whitespace, got %q", address)
	}
	switch {
	case slices.Contains(evmNetworks, network) && !evmAddressPattern.MatchString(address):
		return fmt.Sprintf("an address on %s is 0x followed by 40 hexadecimal digits, got %q", network, address)
	case network == "SUI" && !suiAddressPattern.MatchString(address):
		return fmt.Sprintf("an address on SUI is 0x followed by 64 hexadecimal digits, got %q", address)
	case network == "SOLANA" && !solanaAddressPattern.MatchString(address):
		return fmt.Sprintf("an address on SOLANA is 32 to 44 base58 characters, got %q", address)
	}
	return ""
}

// addressChecksumProblem says what is wrong with the checksum of address
// on network, or "" when nothing is or the network's addresses carry
// none: EIP-55 for an EVM address in mixed case (all lower or all upper
// case carries no checksum), and on BITCOIN bech32 or bech32m for a
// segwit address and base58check for a legacy one. The address has the
// shape of its network (addressShapeProblem).
func addressChecksumProblem(network, address string) string {
	switch {
	case slices.Contains(evmNetworks, network):
		return eip55Problem(network, address)
	case network == "BITCOIN":
		return bitcoinAddressProblem(address)
	}
	return ""
}

// eip55Problem checks the EIP-55 checksum of the EVM address (0x and 40
// hexadecimal digits) on network: written in mixed case, the case of its
// letters must be the checksum of its digits; all lower case or all upper
// case carries no checksum and is accepted as it is.
func eip55Problem(network, address string) string {
	hex := address[2:]
	if hex == strings.ToLower(hex) || hex == strings.ToUpper(hex) {
		return ""
	}
	if hex == eip55(hex) {
		return ""
	}
	return fmt.Sprintf("has a bad EIP-55 checksum, got %q: the upper and lower case of its letters do not match "+
		"the checksum of its digits, so a character was changed or mistyped. An address on %s is 0x followed by "+
		"40 hexadecimal digits, written in mixed case with a valid EIP-55 checksum (copy it exactly as the "+
		"wallet gives it) or all in lower case (which carries no checksum)", address, network)
}

// eip55 is the EIP-55 mixed-case form of the 40 hexadecimal digits hex:
// each letter upper case when the matching hexadecimal digit of the
// Keccak-256 hash of the lower-case digits is 8 or more.
func eip55(hex string) string {
	lower := strings.ToLower(hex)
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte(lower))
	sum := h.Sum(nil)
	out := []byte(lower)
	for i, c := range out {
		nibble := sum[i/2] >> 4
		if i%2 == 1 {
			nibble = sum[i/2] & 0x0f
		}
		if c >= 'a' && c <= 'f' && nibble >= 8 {
			out[i] = c - 'a' + 'A'
		}
	}
	return string(out)
}

// bitcoinAllowed says what an address on BITCOIN may be, for messages.
const bitcoinAllowed = "An address on BITCOIN is a segwit address (bc1…, or tb1… and bcrt1… on test networks) with " +
	"a valid bech32 or bech32m checksum, or a legacy address (1… or 3…, or m…, n… and 2… on test networks) with a " +
	"valid base58check checksum"

// bitcoinAddressProblem checks address as an address on BITCOIN: a segwit
// address (BIP-173, BIP-350) or a legacy base58check one, whose checksum
// must hold.
func bitcoinAddressProblem(address string) string {
	lower := strings.ToLower(address)
	for _, hrp := range []string{"bc", "tb", "bcrt"} {
		if strings.HasPrefix(lower, hrp+"1") {
			if why := segwitProblem(hrp, address); why != "" {
				return fmt.Sprintf("is not a valid segwit address, got %q: %s. %s", address, why, bitcoinAllowed)
			}
			return ""
		}
	}
	versions := map[byte]byte{'1': 0x00, '3': 0x05, 'm': 0x6f, 'n': 0x6f, '2': 0xc4}
	want, legacy := byte(0), false
	if address != "" {
		want, legacy = versions[address[0]]
	}
	if !legacy {
		return fmt.Sprintf("is not an address of BITCOIN, got %q. %s", address, bitcoinAllowed)
	}
	payload, version, err := base58.CheckDecode(address)
	switch {
	case errors.Is(err, base58.ErrChecksum):
		return fmt.Sprintf("has a bad base58check checksum, got %q: a character was changed or mistyped. %s",
			address, bitcoinAllowed)
	case err != nil || version != want || len(payload) != 20:
		return fmt.Sprintf("is not a valid legacy address, got %q: it does not decode to the 20 bytes of a "+
			"key or script hash. %s", address, bitcoinAllowed)
	}
	return ""
}

// segwitProblem says what is wrong with the segwit address of hrp, or "":
// one case throughout, a valid checksum (bech32 for witness version 0,
// bech32m for the later ones, as BIP-350 requires) and a witness program
// of the length its version allows.
func segwitProblem(hrp, address string) string {
	got, data, version, err := bech32.DecodeGeneric(address)
	switch {
	case errors.As(err, new(bech32.ErrInvalidChecksum)):
		return "bad checksum (a character was changed or mistyped, or the address was made up)"
	case errors.As(err, new(bech32.ErrMixedCase)):
		return "it mixes upper and lower case"
	case err != nil:
		return err.Error()
	case got != hrp || len(data) == 0:
		return "it holds no witness program"
	}
	witness := data[0]
	program, err := bech32.ConvertBits(data[1:], 5, 8, false)
	switch {
	case err != nil || witness > 16 || len(program) < 2 || len(program) > 40:
		return "it holds no valid witness program"
	case witness == 0 && version != bech32.Version0:
		return "bad checksum: a witness version 0 address takes a bech32 checksum, not bech32m"
	case witness != 0 && version != bech32.VersionM:
		return "bad checksum: a witness version 1 or later address takes a bech32m checksum, not bech32"
	case witness == 0 && len(program) != 20 && len(program) != 32:
		return "a witness version 0 program is 20 or 32 bytes"
	}
	return ""
}
