package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strconv"
	"time"
)

// The withdrawal address book, as the API reference publishes it.

const (
	// PathCryptoDestinationAddress is Put Crypto Destination Address.
	PathCryptoDestinationAddress = "/transfer/crypto-destination-address"
	// PathCryptoDestinationAddresses is List Crypto Destination Addresses.
	PathCryptoDestinationAddresses = "/transfer/crypto-destination-addresses"
	// ScopeWriteCryptoDestinationAddress is the scope of the PUT.
	ScopeWriteCryptoDestinationAddress = "transfer:write_crypto_destination_address"
	// ScopeReadCryptoDestinationAddress is the scope of the list.
	ScopeReadCryptoDestinationAddress = "transfer:read_crypto_destination_address"
)

// Statuses of a crypto destination address.
const (
	DestinationAddressPending  = "PENDING"
	DestinationAddressApproved = "APPROVED"
	DestinationAddressRejected = "REJECTED"
)

// DestinationAddressStatuses are the statuses of a destination address.
var DestinationAddressStatuses = []string{DestinationAddressPending, DestinationAddressApproved, DestinationAddressRejected}

// CustodianTypes are the values of travelrule_metadata.custodian_type.
var CustodianTypes = []string{"VASP", "PRIVATE"}

// BeneficiaryPerson is a beneficiary who is a person.
type BeneficiaryPerson struct {
	FirstName       *string  `json:"first_name,omitempty"`
	LastName        *string  `json:"last_name,omitempty"`
	PhysicalAddress *Address `json:"physical_address,omitempty"`
}

// BeneficiaryInstitution is a beneficiary that is an institution.
type BeneficiaryInstitution struct {
	Name            *string  `json:"name,omitempty"`
	PhysicalAddress *Address `json:"physical_address,omitempty"`
}

// Beneficiary is the party receiving the funds.
type Beneficiary struct {
	PersonDetails      *BeneficiaryPerson      `json:"person_details,omitempty"`
	InstitutionDetails *BeneficiaryInstitution `json:"institution_details,omitempty"`
	Self               *bool                   `json:"self,omitempty"`
}

// Vasp is the receiving VASP. Name is answered only (the directory's name
// of a known VASP).
type Vasp struct {
	ID                *string `json:"id,omitempty"`
	Name              *string `json:"name,omitempty"`
	CustomVaspName    *string `json:"custom_vasp_name,omitempty"`
	CustomVaspWebsite *string `json:"custom_vasp_website,omitempty"`
}

// TravelruleMetadata is the Travel Rule data of a destination address.
type TravelruleMetadata struct {
	Beneficiary     *Beneficiary `json:"beneficiary,omitempty"`
	Vasp            *Vasp        `json:"vasp,omitempty"`
	CustodianType   *string      `json:"custodian_type,omitempty"`
	TransferPurpose *string      `json:"transfer_purpose,omitempty"`
}

// CryptoDestinationAddress is an entry of the withdrawal address book.
type CryptoDestinationAddress struct {
	ID                 string              `json:"id"`
	IdentityID         *string             `json:"identity_id,omitempty"`
	CryptoNetwork      string              `json:"crypto_network"`
	Address            string              `json:"address"`
	Nickname           *string             `json:"nickname,omitempty"`
	Status             *string             `json:"status,omitempty"`
	CreatedAt          *time.Time          `json:"created_at,omitempty"`
	Bookmarked         *bool               `json:"bookmarked,omitempty"`
	PolicyExecutionID  *string             `json:"policy_execution_id,omitempty"`
	TravelruleMetadata *TravelruleMetadata `json:"travelrule_metadata,omitempty"`
}

// PutCryptoDestinationAddressRequest is the body of the PUT: it names the
// address by ID, or by the (CryptoNetwork, Address, IdentityID) tuple,
// never both.
type PutCryptoDestinationAddressRequest struct {
	ID                 string              `json:"id,omitempty"`
	IdentityID         string              `json:"identity_id,omitempty"`
	CryptoNetwork      string              `json:"crypto_network,omitempty"`
	Address            string              `json:"address,omitempty"`
	Nickname           string              `json:"nickname,omitempty"`
	BookmarkedStatus   *bool               `json:"bookmarked_status,omitempty"`
	TravelruleMetadata *TravelruleMetadata `json:"travelrule_metadata,omitempty"`
}

// PutCryptoDestinationAddress creates or updates an entry of the address
// book. The PUT is an upsert (by id, or by the tuple), so repeating it
// cannot make a second entry: it is retried like a GET.
func (c *Client) PutCryptoDestinationAddress(ctx context.Context, req PutCryptoDestinationAddressRequest) (*CryptoDestinationAddress, error) {
	if (req.ID != "") == (req.CryptoNetwork != "" || req.Address != "") || req.ID != "" && req.IdentityID != "" {
		return nil, fmt.Errorf("PUT %s: name the address by id or by crypto_network and address, not both", PathCryptoDestinationAddress)
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("PUT %s: encoding request: %w", PathCryptoDestinationAddress, err)
	}
	body, err := c.do(ctx, call{
		method: http.MethodPut, path: PathCryptoDestinationAddress, scope: ScopeWriteCryptoDestinationAddress,
		body: b, replaySafe: true,
	})
	if err != nil {
		return nil, err
	}
	var out struct {
		Address *CryptoDestinationAddress `json:"address"`
	}
	if err := decodeJSON(body, &out); err != nil {
		return nil, fmt.Errorf("PUT %s: decoding response: %w", PathCryptoDestinationAddress, err)
	}
	if out.Address == nil || out.Address.ID == "" {
		return nil, fmt.Errorf("PUT %s: decoding response: %w", PathCryptoDestinationAddress,
			errors.New("the answer has no address with an id"))
	}
	return out.Address, nil
}

// ListCryptoDestinationAddressesQuery holds the filters of List Crypto
// Destination Addresses.
type ListCryptoDestinationAddressesQuery struct {
	IDs, IdentityIDs, CryptoNetworks, Addresses, Nicknames []string
	// BookmarkedStatus: nil lists addresses whatever their bookmark.
	BookmarkedStatus *bool
	CreatedAt        CreatedAtFilter
	Order            string // "" (server default, DESC), "ASC" or "DESC"
	OrderBy          string // "" or "CREATED_AT"
	MaxItems         int    // 0: no cap
}

// CryptoDestinationAddresses lists the address book entries matching q,
// following the cursors to the end with the largest page the service
// allows.
func (c *Client) CryptoDestinationAddresses(ctx context.Context, q ListCryptoDestinationAddressesQuery) iter.Seq2[*CryptoDestinationAddress, error] {
	v, err := listQuery(map[string][]string{
		"ids": q.IDs, "identity_ids": q.IdentityIDs, "crypto_networks": q.CryptoNetworks,
		"addresses": q.Addresses, "nicknames": q.Nicknames,
	}, q.CreatedAt, q.Order)
	if e := setOrderBy(v, q.OrderBy, "CREATED_AT"); err == nil {
		err = e
	}
	if q.BookmarkedStatus != nil {
		v.Set("bookmarked_status", strconv.FormatBool(*q.BookmarkedStatus))
	}
	return list[CryptoDestinationAddress](ctx, c, listCall{
		path: PathCryptoDestinationAddresses, scope: ScopeReadCryptoDestinationAddress, query: v,
		maxItems: q.MaxItems, pageSize: maxPageSize, err: err, itemsKey: "addresses",
	})
}

// ListCryptoDestinationAddresses reads every address book entry matching
// q (following the cursors to the end, within the ceilings of the list
// reads), for callers that need them all at once, such as a check at plan
// that a withdrawal goes to an approved address.
func (c *Client) ListCryptoDestinationAddresses(ctx context.Context, q ListCryptoDestinationAddressesQuery) ([]CryptoDestinationAddress, error) {
	var out []CryptoDestinationAddress
	for a, err := range c.CryptoDestinationAddresses(ctx, q) {
		if err != nil {
			return nil, err
		}
		out = append(out, *a)
	}
	return out, nil
}
