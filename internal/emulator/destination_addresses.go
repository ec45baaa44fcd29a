package emulator

import (
	"crypto/sha256"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/btcsuite/btcd/btcutil/bech32"
)

// The withdrawal address book, as the API reference publishes it:
//
//	PUT /transfer/crypto-destination-address     transfer:write_crypto_destination_address
//	GET /transfer/crypto-destination-addresses   transfer:read_crypto_destination_address
//
// The PUT is an upsert: its body names an address by id, or by its
// (crypto_network, address, identity_id) tuple, which it creates when the
// book does not hold it. SetCryptoDestinationAddressStatus (and the admin
// API) approves or rejects an address, as the service's review does.

const (
	pathDestinationAddress       = "/v2/transfer/crypto-destination-address"
	pathDestinationAddresses     = "/v2/transfer/crypto-destination-addresses"
	scopeWriteDestinationAddress = "transfer:write_crypto_destination_address"
	scopeReadDestinationAddress  = "transfer:read_crypto_destination_address"
)

const listDestinationAddresses listKind = 20

// streamDestinationAddresses is the generator stream of seeded addresses.
const streamDestinationAddresses uint64 = 7

// Values of the address book's enums.
var (
	// DestinationAddressStatuses are the statuses of a destination address.
	DestinationAddressStatuses = []string{"PENDING", "APPROVED", "REJECTED"}
	custodianTypes             = []string{"VASP", "PRIVATE"}
	// evmNetworks are the networks whose addresses are 0x and 40 hex
	// digits, which the emulator checks.
	evmNetworks = []string{
		"ETHEREUM", "POLYGON_POS", "BASE", "ARBITRUM_ONE", "INK", "XLAYER", "AVALANCHE", "ROBINHOOD", "BNB",
	}
	evmAddress = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)
	// geoLine is the reference's pattern of the lines of a physical address.
	geoLine    = regexp.MustCompile(`^[0-9A-Za-z /?:().,&'+-]+$`)
	geoCountry = regexp.MustCompile(`^[A-Z]{3}$`)
	maxGeoLine = 35
)

// CryptoDestinationAddress is an entry of the address book.
type CryptoDestinationAddress struct {
	ID                 string              `json:"id"`
	IdentityID         *string             `json:"identity_id,omitempty"`
	CryptoNetwork      string              `json:"crypto_network"`
	Address            string              `json:"address"`
	Nickname           string              `json:"nickname"`
	Status             string              `json:"status"`
	CreatedAt          time.Time           `json:"created_at"`
	Bookmarked         bool                `json:"bookmarked"`
	PolicyExecutionID  string              `json:"policy_execution_id,omitempty"`
	TravelruleMetadata *TravelruleMetadata `json:"travelrule_metadata,omitempty"`
}

// TravelruleMetadata is the Travel Rule data of an address, as answered.
type TravelruleMetadata struct {
	Beneficiary     *Beneficiary `json:"beneficiary,omitempty"`
	Vasp            *Vasp        `json:"vasp,omitempty"`
	CustodianType   string       `json:"custodian_type,omitempty"`
	TransferPurpose string       `json:"transfer_purpose,omitempty"`
}

// Beneficiary is the party receiving the funds.
type Beneficiary struct {
	PersonDetails      *BeneficiaryPerson      `json:"person_details,omitempty"`
	InstitutionDetails *BeneficiaryInstitution `json:"institution_details,omitempty"`
	Self               *bool                   `json:"self,omitempty"`
}

// BeneficiaryPerson is a beneficiary who is a person.
type BeneficiaryPerson struct {
	FirstName       string   `json:"first_name"`
	LastName        string   `json:"last_name"`
	PhysicalAddress *Address `json:"physical_address,omitempty"`
}

// BeneficiaryInstitution is a beneficiary that is an institution.
type BeneficiaryInstitution struct {
	Name            string   `json:"name"`
	PhysicalAddress *Address `json:"physical_address,omitempty"`
}

// Vasp is the receiving VASP of an address, as answered: name is the
// directory's name of a known VASP, or the custom name.
type Vasp struct {
	ID                string `json:"id,omitempty"`
	Name              string `json:"name,omitempty"`
	CustomVaspName    string `json:"custom_vasp_name,omitempty"`
	CustomVaspWebsite string `json:"custom_vasp_website,omitempty"`
}

// VaspRequest is the receiving VASP of a PUT.
type VaspRequest struct {
	ID                string `json:"id,omitempty"`
	CustomVaspName    string `json:"custom_vasp_name,omitempty"`
	CustomVaspWebsite string `json:"custom_vasp_website,omitempty"`
}

// TravelruleMetadataRequest is the Travel Rule data of a PUT.
type TravelruleMetadataRequest struct {
	Beneficiary     *Beneficiary `json:"beneficiary,omitempty"`
	Vasp            *VaspRequest `json:"vasp,omitempty"`
	CustodianType   string       `json:"custodian_type,omitempty"`
	TransferPurpose string       `json:"transfer_purpose,omitempty"`
}

// PutCryptoDestinationAddressRequest is the body of PUT
// /v2/transfer/crypto-destination-address.
type PutCryptoDestinationAddressRequest struct {
	ID                 string                     `json:"id,omitempty"`
	IdentityID         *string                    `json:"identity_id,omitempty"`
	CryptoNetwork      string                     `json:"crypto_network,omitempty"`
	Address            string                     `json:"address,omitempty"`
	Nickname           *string                    `json:"nickname,omitempty"`
	BookmarkedStatus   *bool                      `json:"bookmarked_status,omitempty"`
	TravelruleMetadata *TravelruleMetadataRequest `json:"travelrule_metadata,omitempty"`
}

// PutCryptoDestinationAddressResponse is the answer of the PUT.
type PutCryptoDestinationAddressResponse struct {
	Address CryptoDestinationAddress `json:"address"`
}

// tupleKey is the key of an address in the book: network, address (exact,
// case included) and identity ("" for a first-party address).
func tupleKey(network, address string, identity *string) string {
	id := ""
	if identity != nil {
		id = *identity
	}
	return network + "\x00" + address + "\x00" + id
}

// defaultNickname is the nickname the emulator gives an address created
// without one: the network in lower case and the address's last 6
// characters, for example ethereum-595515.
func defaultNickname(network, address string) string {
	return strings.ToLower(network) + "-" + address[max(0, len(address)-6):]
}

// seedDestinationAddresses generates n addresses in creation order.
func seedDestinationAddresses(seed int64, n int) []*CryptoDestinationAddress {
	g := newGen(seed, streamDestinationAddresses)
	identities := []string{g.uuid(), g.uuid(), g.uuid()}
	networks := []string{"BITCOIN", "ETHEREUM", "SOLANA", "BASE", "POLYGON_POS", "ARBITRUM_ONE", "LITECOIN", "STELLAR"}
	out := make([]*CryptoDestinationAddress, n)
	for i := range out {
		a := &CryptoDestinationAddress{ID: g.uuid(), CreatedAt: g.timeAt(i, time.Minute)}
		a.CryptoNetwork = g.pick(networks)
		a.Address = g.addressFor(a.CryptoNetwork)
		if g.chance(40) {
			a.IdentityID = ptr(identities[g.intn(len(identities))])
		}
		a.Nickname = defaultNickname(a.CryptoNetwork, a.Address)
		if g.chance(50) {
			a.Nickname = "payee " + strconv.Itoa(i+1)
		}
		a.Status = g.pick(DestinationAddressStatuses)
		a.Bookmarked = g.chance(30)
		a.PolicyExecutionID = g.uuid()
		if g.chance(40) {
			tr := &TravelruleMetadata{CustodianType: "PRIVATE", TransferPurpose: "payroll"}
			tr.Beneficiary = &Beneficiary{PersonDetails: &BeneficiaryPerson{
				FirstName: g.pick(firstNames), LastName: g.pick(lastNames),
				PhysicalAddress: &Address{Country: "USA", City: "New York"},
			}}
			if g.chance(50) {
				tr.CustodianType = "VASP"
				tr.Vasp = &Vasp{CustomVaspName: "Example Exchange", CustomVaspWebsite: "https://exchange.example", Name: "Example Exchange"} //nolint:gosec // A VASP, not a credential.
				tr.Beneficiary = &Beneficiary{InstitutionDetails: &BeneficiaryInstitution{Name: g.pick(institutionNames)}}
			}
			a.TravelruleMetadata = tr
		}
		out[i] = a
	}
	return out
}

// addDestinationAddress adds a to the book; st.mu is held.
func (st *store) addDestinationAddress(a *CryptoDestinationAddress) {
	st.destAddrs = append(st.destAddrs, a)
	st.destByID[a.ID] = a
	st.destByTuple[tupleKey(a.CryptoNetwork, a.Address, a.IdentityID)] = a
}

// CryptoDestinationAddresses returns the address book (seeded addresses
// first, then those added through the API), in creation order.
func (s *Server) CryptoDestinationAddresses() []CryptoDestinationAddress {
	return lockedCopies(s.data, func(st *store) []*CryptoDestinationAddress { return st.destAddrs },
		func(a *CryptoDestinationAddress) CryptoDestinationAddress { return *a })
}

// SetCryptoDestinationAddressStatus sets the status of the address id
// (PENDING, APPROVED or REJECTED), as the service's review does. It
// reports whether the book holds the address; the status must be one of
// DestinationAddressStatuses.
func (s *Server) SetCryptoDestinationAddressStatus(id, status string) bool {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	a := st.destByID[id]
	if a == nil || !slices.Contains(DestinationAddressStatuses, status) {
		return false
	}
	a.Status = status
	return true
}

// cryptoDestinationAddress returns a copy of the address id.
func (st *store) cryptoDestinationAddress(id string) (CryptoDestinationAddress, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	a := st.destByID[id]
	if a == nil {
		return CryptoDestinationAddress{}, false
	}
	return *a, true
}

func validateGeoAddress(field string, a *Address) *apiError {
	if a == nil {
		return nil
	}
	if !geoCountry.MatchString(a.Country) {
		return errInvalid(field+".country", "must be an ISO 3166-1 alpha-3 country code such as USA, got %q", a.Country)
	}
	for _, l := range []struct{ name, v string }{
		{"address1", a.Address1}, {"address2", a.Address2}, {"city", a.City},
		{"province", a.Province}, {"zip_code", a.ZipCode},
	} {
		if l.v == "" {
			continue
		}
		if len(l.v) > maxGeoLine || !geoLine.MatchString(l.v) {
			return errInvalid(field+"."+l.name, "must be at most %d characters of letters, digits, spaces and /?:().,&'+-", maxGeoLine)
		}
	}
	return nil
}

func validateTravelrule(t *TravelruleMetadataRequest) *apiError {
	if t == nil {
		return nil
	}
	const f = "travelrule_metadata"
	if t.CustodianType != "" {
		if e := oneOf(f+".custodian_type", t.CustodianType, custodianTypes); e != nil {
			return e
		}
	}
	if v := t.Vasp; v != nil {
		switch {
		case v.ID != "" && (v.CustomVaspName != "" || v.CustomVaspWebsite != ""):
			return errInvalid(f+".vasp", "specify exactly one of id or custom_vasp_name and custom_vasp_website")
		case v.ID == "" && v.CustomVaspName == "":
			return errInvalid(f+".vasp", "specify id (a known VASP) or custom_vasp_name and custom_vasp_website")
		case v.CustomVaspName != "" && v.CustomVaspWebsite == "":
			return errInvalid(f+".vasp.custom_vasp_website", "is required with custom_vasp_name")
		}
	}
	b := t.Beneficiary
	if b == nil {
		return nil
	}
	self := b.Self != nil && *b.Self
	switch {
	case b.PersonDetails != nil && b.InstitutionDetails != nil:
		return errInvalid(f+".beneficiary", "specify person_details or institution_details, not both")
	case self && (b.PersonDetails != nil || b.InstitutionDetails != nil):
		return errInvalid(f+".beneficiary", "with self = true, person_details and institution_details are omitted")
	}
	if p := b.PersonDetails; p != nil {
		if e := required(f+".beneficiary.person_details.first_name", p.FirstName,
			f+".beneficiary.person_details.last_name", p.LastName); e != nil {
			return e
		}
		return validateGeoAddress(f+".beneficiary.person_details.physical_address", p.PhysicalAddress)
	}
	if i := b.InstitutionDetails; i != nil {
		if e := required(f+".beneficiary.institution_details.name", i.Name); e != nil {
			return e
		}
		return validateGeoAddress(f+".beneficiary.institution_details.physical_address", i.PhysicalAddress)
	}
	return nil
}

// answeredTravelrule is the Travel Rule data of a PUT as the book answers
// it: a known VASP gets its directory name, a custom one its own.
func answeredTravelrule(t *TravelruleMetadataRequest) *TravelruleMetadata {
	if t == nil {
		return nil
	}
	out := &TravelruleMetadata{Beneficiary: t.Beneficiary, CustodianType: t.CustodianType, TransferPurpose: t.TransferPurpose}
	if v := t.Vasp; v != nil {
		out.Vasp = &Vasp{ID: v.ID, CustomVaspName: v.CustomVaspName, CustomVaspWebsite: v.CustomVaspWebsite, Name: v.CustomVaspName}
		if v.ID != "" {
			out.Vasp.Name = "Known VASP " + v.ID
		}
	}
	return out
}

// validatePut checks a PUT: either id or the tuple, the enums, the
// address's shape where the emulator knows it, and the Travel Rule data.
func validatePut(req *PutCryptoDestinationAddressRequest) *apiError {
	if req.IdentityID != nil && *req.IdentityID == "" {
		return errInvalid("identity_id", "must not be empty when given")
	}
	if req.Nickname != nil && strings.TrimSpace(*req.Nickname) == "" {
		return errInvalid("nickname", "must not be empty when given")
	}
	if req.ID != "" {
		if req.CryptoNetwork != "" || req.Address != "" || req.IdentityID != nil {
			return errInvalid("id", "specify either id or the (crypto_network, address, identity_id) tuple, not both")
		}
		return validateTravelrule(req.TravelruleMetadata)
	}
	if e := required("crypto_network", req.CryptoNetwork, "address", req.Address); e != nil {
		return e
	}
	if e := oneOf("crypto_network", req.CryptoNetwork, cryptoNetworks); e != nil {
		return e
	}
	if strings.ContainsFunc(req.Address, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }) {
		return errInvalid("address", "must not contain whitespace")
	}
	if slices.Contains(evmNetworks, req.CryptoNetwork) && !evmAddress.MatchString(req.Address) {
		return errInvalid("address", "an address on %s is 0x followed by 40 hexadecimal digits, got %q", req.CryptoNetwork, req.Address)
	}
	return validateTravelrule(req.TravelruleMetadata)
}

// handlePutDestinationAddress implements PutCryptoDestinationAddress.
func (s *Server) handlePutDestinationAddress(w http.ResponseWriter, r *http.Request, _ string) {
	req, ok := decodeValid(w, r, validatePut)
	if !ok {
		return
	}
	st := s.data
	st.mu.Lock()
	var a *CryptoDestinationAddress
	if req.ID != "" {
		a = st.destByID[req.ID]
		if a == nil {
			st.mu.Unlock()
			writeError(w, errNotFound("crypto destination address "+req.ID+" not found"))
			return
		}
	} else {
		a = st.destByTuple[tupleKey(req.CryptoNetwork, req.Address, req.IdentityID)]
	}
	if a == nil {
		a = &CryptoDestinationAddress{
			ID:                st.created.uuid(),
			IdentityID:        req.IdentityID,
			CryptoNetwork:     req.CryptoNetwork,
			Address:           req.Address,
			Nickname:          defaultNickname(req.CryptoNetwork, req.Address),
			Status:            s.opts.CryptoDestinationAddressStatus,
			CreatedAt:         s.now().UTC().Truncate(time.Microsecond),
			PolicyExecutionID: st.created.uuid(),
		}
		st.addDestinationAddress(a)
	}
	if req.Nickname != nil {
		a.Nickname = *req.Nickname
	}
	if req.BookmarkedStatus != nil {
		a.Bookmarked = *req.BookmarkedStatus
	}
	if req.TravelruleMetadata != nil {
		a.TravelruleMetadata = answeredTravelrule(req.TravelruleMetadata)
	}
	out := PutCryptoDestinationAddressResponse{Address: *a}
	st.mu.Unlock()
	if s.acceptFaults(w, r) {
		writeJSON(w, http.StatusOK, out)
	}
}

// handleListDestinationAddresses implements ListCryptoDestinationAddresses.
func (s *Server) handleListDestinationAddresses(w http.ResponseWriter, r *http.Request, _ string) {
	q := newQuery(r)
	ids := set(q.list("ids", nil))
	identities := set(q.list("identity_ids", nil))
	networks := set(q.list("crypto_networks", cryptoNetworks))
	addresses := set(q.list("addresses", nil))
	nicknames := set(q.list("nicknames", nil))
	_, hasBookmarked := q.v["bookmarked_status"]
	bookmarked := q.boolean("bookmarked_status")
	created := parseCreatedAt(q)
	desc := listOrder(q)
	serveLockedPage(w, s.data, q, listDestinationAddresses, "addresses", func(st *store) []*CryptoDestinationAddress { return st.destAddrs }, desc, func(a *CryptoDestinationAddress) bool {
		return (ids == nil || ids[a.ID]) &&
			inSet(identities, a.IdentityID) &&
			(networks == nil || networks[a.CryptoNetwork]) &&
			(addresses == nil || addresses[a.Address]) &&
			(nicknames == nil || nicknames[a.Nickname]) &&
			(!hasBookmarked || a.Bookmarked == bookmarked) &&
			created.match(a.CreatedAt)
	})
}

// SegwitAddress is a valid segwit address on BITCOIN (bech32, witness
// version 0) made from seed: its 20-byte program is the first 20 bytes of
// the SHA-256 of seed, so each seed names one address, always the same.
// Tests and the benchmarks put such addresses where the provider checks
// the checksum.
func SegwitAddress(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	program, err := bech32.ConvertBits(sum[:20], 8, 5, true)
	if err != nil {
		panic(err) // 20 bytes always convert.
	}
	address, err := bech32.Encode("bc", append([]byte{0}, program...))
	if err != nil {
		panic(err) // A program of 32 five-bit groups always encodes.
	}
	return address
}
