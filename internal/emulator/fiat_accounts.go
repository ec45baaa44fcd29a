package emulator

import (
	"encoding/json"
	"maps"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// Fiat accounts made through the API (Create, Get, Update and Delete Fiat
// Account, as the API reference publishes them). They live under the
// store's lock beside the seeded accounts, which never change: the list
// serves both, masked (see maskedAccount).

// Fiat account statuses of the API reference.
var fiatAccountStatuses = []string{"PENDING", "APPROVED", "REJECTED"}

// mailingAddressPattern is the pattern of every part of a MailingAddress.
var mailingAddressPattern = regexp.MustCompile(`^[0-9A-Za-z /?:().,&'+-]+$`)

// maxAddressPart is the maxLength of every part of a MailingAddress.
const maxAddressPart = 35

func validateAddress(field string, a *Address, need bool) *apiError {
	if a == nil {
		if need {
			return errInvalid(field, "is required")
		}
		return nil
	}
	if e := required(field+".country", a.Country); e != nil {
		return e
	}
	for _, p := range []struct{ name, v string }{
		{"country", a.Country}, {"address1", a.Address1}, {"address2", a.Address2},
		{"city", a.City}, {"province", a.Province}, {"zip_code", a.ZipCode},
	} {
		if p.v == "" {
			continue
		}
		if utf8.RuneCountInString(p.v) > maxAddressPart {
			return errInvalid(field+"."+p.name, "must be at most %d characters", maxAddressPart)
		}
		if !mailingAddressPattern.MatchString(p.v) {
			return errInvalid(field+"."+p.name, "must match %s", mailingAddressPattern)
		}
	}
	return nil
}

func validateOwner(o *FiatAccountOwner) *apiError {
	const f = "fiat_account_owner"
	switch {
	case o == nil:
		return errInvalid(f, "is required")
	case (o.PersonDetails == nil) == (o.InstitutionDetails == nil):
		return errInvalid(f, "exactly one of person_details and institution_details is required")
	case o.PersonDetails != nil:
		return required(f+".person_details.first_name", o.PersonDetails.FirstName,
			f+".person_details.last_name", o.PersonDetails.LastName)
	}
	return required(f+".institution_details.name", o.InstitutionDetails.Name)
}

func validateWireRouting(field string, r *RoutingDetails) *apiError {
	if r == nil {
		return errInvalid(field, "is required")
	}
	if e := required(field+".routing_number_type", r.RoutingNumberType,
		field+".routing_number", r.RoutingNumber, field+".bank_name", r.BankName); e != nil {
		return e
	}
	if e := oneOf(field+".routing_number_type", r.RoutingNumberType, routingNumberTypes); e != nil {
		return e
	}
	return validateAddress(field+".bank_address", r.BankAddress, true)
}

func validateNetworkInstructions(n *FiatAccountNetworkInstructions) *apiError {
	const f = "fiat_network_instructions"
	if n == nil {
		return errInvalid(f, "is required")
	}
	count := 0
	for _, set := range []bool{n.Wire != nil, n.Cbit != nil, n.DBSAct != nil, n.Cubix != nil, n.SCB != nil, n.RTP != nil} {
		if set {
			count++
		}
	}
	if count != 1 {
		return errInvalid(f, "exactly one of wire, cbit, dbs_act, cubix, scb and rtp is required, got %d", count)
	}
	switch {
	case n.Wire != nil:
		w := n.Wire
		if w.Status != "" || w.Metadata != nil {
			return errInvalid(f+".wire", "status and metadata are not fields of the request")
		}
		if e := required(f+".wire.account_number", w.AccountNumber); e != nil {
			return e
		}
		if e := validateAddress(f+".wire.fiat_account_owner_address", w.FiatAccountOwnerAddress, true); e != nil {
			return e
		}
		if e := validateWireRouting(f+".wire.routing_details", w.RoutingDetails); e != nil {
			return e
		}
		if w.IntermediaryRoutingDetails != nil {
			return validateWireRouting(f+".wire.intermediary_routing_details", w.IntermediaryRoutingDetails)
		}
	case n.Cbit != nil:
		return required(f+".cbit.wallet_address", n.Cbit.WalletAddress)
	case n.DBSAct != nil:
		return required(f+".dbs_act.account_number", n.DBSAct.AccountNumber)
	case n.Cubix != nil:
		return required(f+".cubix.account_id", n.Cubix.AccountID)
	case n.SCB != nil:
		return required(f+".scb.account_number", n.SCB.AccountNumber)
	default:
		r := n.RTP
		if e := required(f+".rtp.account_number", r.AccountNumber); e != nil {
			return e
		}
		if r.RoutingDetails == nil {
			return errInvalid(f+".rtp.routing_details", "is required")
		}
		if e := required(f+".rtp.routing_details.routing_number", r.RoutingDetails.RoutingNumber); e != nil {
			return e
		}
		return firstErr(validateAddress(f+".rtp.fiat_account_owner_address", r.FiatAccountOwnerAddress, false),
			validateAddress(f+".rtp.routing_details.bank_address", r.RoutingDetails.BankAddress, false))
	}
	return nil
}

// handleCreateFiatAccount creates an account with status PENDING. The API
// reference publishes no replay answer for this create: a repeated ref_id
// makes another account (see doc.go).
func (s *Server) handleCreateFiatAccount(w http.ResponseWriter, r *http.Request, _ string) {
	req, ok := decodeValid(w, r, func(req *CreateFiatAccountRequest) *apiError {
		return firstErr(validateOwner(req.FiatAccountOwner), validateNetworkInstructions(req.FiatNetworkInstructions),
			validateMetadata(req.Metadata))
	})
	if !ok {
		return
	}
	st := s.data
	st.mu.Lock()
	now := s.now().UTC().Truncate(time.Microsecond)
	a := &FiatAccount{
		ID:                      st.created.uuid(),
		RefID:                   optional(req.RefID),
		IdentityID:              optional(req.IdentityID),
		AccountID:               optional(req.AccountID),
		FiatAccountOwner:        req.FiatAccountOwner,
		FiatNetworkInstructions: req.FiatNetworkInstructions,
		Status:                  "PENDING",
		Metadata:                maps.Clone(req.Metadata),
		CreatedAt:               now,
		UpdatedAt:               now,
	}
	st.madeAccounts = append(st.madeAccounts, a)
	st.accountByID[a.ID] = a
	out := cloneAccount(a)
	st.mu.Unlock()
	s.answerPost(w, r, out)
}

// cloneAccount is a deep copy of a, through JSON.
func cloneAccount(a *FiatAccount) FiatAccount {
	b, _ := json.Marshal(a)
	var out FiatAccount
	_ = json.Unmarshal(b, &out)
	out.Deleted = a.Deleted
	return out
}

// maskTail keeps the last four characters of an account number.
func maskTail(n string) string {
	if len(n) <= 4 {
		return n
	}
	return "XXXX" + n[len(n)-4:]
}

// maskedAccount is an account as List Fiat Accounts shows it: the account
// numbers cut to their last four digits, the owner's name left out and
// the owner's address cut to its country (the reference requires a wire's
// owner address).
func maskedAccount(a *FiatAccount) FiatAccount {
	out := cloneAccount(a)
	out.FiatAccountOwner = &FiatAccountOwner{}
	if n := out.FiatNetworkInstructions; n != nil {
		if n.Wire != nil {
			n.Wire.AccountNumber = maskTail(n.Wire.AccountNumber)
			if addr := n.Wire.FiatAccountOwnerAddress; addr != nil {
				n.Wire.FiatAccountOwnerAddress = &Address{Country: addr.Country}
			}
		}
		if n.DBSAct != nil {
			n.DBSAct.AccountNumber = maskTail(n.DBSAct.AccountNumber)
		}
		if n.SCB != nil {
			n.SCB.AccountNumber = maskTail(n.SCB.AccountNumber)
		}
		if n.RTP != nil {
			n.RTP.AccountNumber = maskTail(n.RTP.AccountNumber)
			n.RTP.FiatAccountOwnerAddress = nil
		}
	}
	return out
}

// listedMadeAccounts are the accounts made through the API, masked, in
// creation order; nil when there are none.
func (st *store) listedMadeAccounts() []FiatAccount {
	if out := lockedCopies(st, madeAccounts, maskedAccount); len(out) > 0 {
		return out
	}
	return nil
}

// accountAnswer finds the account id: one made through the API (a copy),
// or else a seeded one. deleted accounts are found only with
// includeDeleted.
func (st *store) accountAnswer(id string, includeDeleted bool) (FiatAccount, bool) {
	st.mu.Lock()
	a := st.accountByID[id]
	var out FiatAccount
	if a != nil {
		out = cloneAccount(a)
	}
	st.mu.Unlock()
	if a == nil {
		for i := range st.fiatAccounts {
			if st.fiatAccounts[i].ID == id {
				out, a = st.fiatAccounts[i], &st.fiatAccounts[i]
				break
			}
		}
	}
	if a == nil || (out.Deleted && !includeDeleted) {
		return FiatAccount{}, false
	}
	return out, true
}

func fiatAccountNotFound(id string) *apiError {
	return errNotFound("no fiat account found for id: " + id)
}

func (s *Server) handleGetFiatAccount(w http.ResponseWriter, r *http.Request, id string) {
	q := newQuery(r)
	includeDeleted := q.boolean("include_deleted")
	if e := q.finish(); e != nil {
		writeError(w, e)
		return
	}
	a, ok := s.data.accountAnswer(id, includeDeleted)
	if !ok {
		writeError(w, fiatAccountNotFound(id))
		return
	}
	writeJSON(w, http.StatusOK, a)
}

// madeAccount is the live account id made through the API, under the
// store's lock; a seeded account is refused (the seeded list never
// changes).
func (st *store) madeAccount(id string) (*FiatAccount, *apiError) {
	if !isUUID(id) {
		return nil, errInvalid("id", "id must be uuid, given '%s'", id)
	}
	a := st.accountByID[id]
	if a == nil {
		for i := range st.fiatAccounts {
			if st.fiatAccounts[i].ID == id && !st.fiatAccounts[i].Deleted {
				return nil, errInvalid("id", "seeded fiat accounts cannot be changed in the emulator")
			}
		}
	}
	if a == nil || a.Deleted {
		return nil, fiatAccountNotFound(id)
	}
	return a, nil
}

func (s *Server) handleDeleteFiatAccount(w http.ResponseWriter, _ *http.Request, id string) {
	st := s.data
	st.mu.Lock()
	a, e := st.madeAccount(id)
	if e == nil {
		a.Deleted = true
		a.UpdatedAt = s.now().UTC().Truncate(time.Microsecond)
	}
	st.mu.Unlock()
	if e != nil {
		writeError(w, e)
		return
	}
	writeRawJSON(w, http.StatusOK, []byte("{}"))
}

// mergeAddress sets the non-empty parts of from on *to.
func mergeAddress(to **Address, from *Address) {
	if from == nil {
		return
	}
	if *to == nil {
		*to = &Address{}
	}
	a := *to
	for _, p := range []struct {
		dst *string
		v   string
	}{
		{&a.Country, from.Country}, {&a.Address1, from.Address1}, {&a.Address2, from.Address2},
		{&a.City, from.City}, {&a.Province, from.Province}, {&a.ZipCode, from.ZipCode},
	} {
		if p.v != "" {
			*p.dst = p.v
		}
	}
}

// validateUpdate checks an update against the account it changes.
func validateUpdate(a *FiatAccount, req *UpdateFiatAccountRequest) *apiError {
	if o := req.FiatAccountOwner; o != nil {
		cur := a.FiatAccountOwner
		switch {
		case o.PersonDetails != nil && o.InstitutionDetails != nil:
			return errInvalid("fiat_account_owner", "give either person_details or institution_details")
		case o.PersonDetails != nil && (cur == nil || cur.PersonDetails == nil):
			return errInvalid("fiat_account_owner", "fiat_account_owner cannot be changed from institution to person")
		case o.InstitutionDetails != nil && (cur == nil || cur.InstitutionDetails == nil):
			return errInvalid("fiat_account_owner", "fiat_account_owner cannot be changed from person to institution")
		}
	}
	if n := req.FiatNetworkInstructions; n != nil && n.Wire != nil {
		const f = "fiat_network_instructions.wire"
		if a.FiatNetworkInstructions == nil || a.FiatNetworkInstructions.Wire == nil {
			return errInvalid(f, "the account has no wire instructions")
		}
		u := n.Wire
		if u.IntermediaryRoutingDetails != nil && a.FiatNetworkInstructions.Wire.IntermediaryRoutingDetails == nil {
			return errInvalid(f+".intermediary_routing_details", "the account has no intermediary routing details")
		}
		for _, c := range []struct {
			name string
			a    *Address
		}{
			{"fiat_account_owner_address", u.FiatAccountOwnerAddress},
			{"routing_details.bank_address", bankAddressOf(u.RoutingDetails)},
			{"intermediary_routing_details.bank_address", bankAddressOf(u.IntermediaryRoutingDetails)},
		} {
			if c.a == nil {
				continue
			}
			// Empty parts are ignored, so country is not required here.
			probe := *c.a
			if probe.Country == "" {
				probe.Country = "X"
			}
			if e := validateAddress(f+"."+c.name, &probe, false); e != nil {
				return e
			}
		}
	}
	if e := validateMetadata(req.Metadata); e != nil {
		return e
	}
	if len(a.Metadata)+newKeys(a.Metadata, req.Metadata) > maxMetadataPairs {
		return errInvalid("metadata", "at most %d pairs are allowed after the update", maxMetadataPairs)
	}
	return nil
}

func bankAddressOf(r *UpdateRoutingDetails) *Address {
	if r == nil {
		return nil
	}
	return r.BankAddress
}

// newKeys counts the keys of add that m does not have.
func newKeys(m, add map[string]string) int {
	n := 0
	for k := range add {
		if _, ok := m[k]; !ok {
			n++
		}
	}
	return n
}

// handleUpdateFiatAccount changes the fields the update gives (empty
// strings and nulls are ignored) and returns the account in PENDING.
func (s *Server) handleUpdateFiatAccount(w http.ResponseWriter, r *http.Request, id string) {
	req, ok := decodeValid[UpdateFiatAccountRequest](w, r, nil)
	if !ok {
		return
	}
	st := s.data
	st.mu.Lock()
	a, e := st.madeAccount(id)
	if e == nil {
		e = validateUpdate(a, req)
	}
	if e != nil {
		st.mu.Unlock()
		writeError(w, e)
		return
	}
	if o := req.FiatAccountOwner; o != nil {
		if o.PersonDetails != nil {
			p := a.FiatAccountOwner.PersonDetails
			p.FirstName = nonEmpty(o.PersonDetails.FirstName, p.FirstName)
			p.LastName = nonEmpty(o.PersonDetails.LastName, p.LastName)
		}
		if o.InstitutionDetails != nil {
			d := a.FiatAccountOwner.InstitutionDetails
			d.Name = nonEmpty(o.InstitutionDetails.Name, d.Name)
		}
	}
	if n := req.FiatNetworkInstructions; n != nil && n.Wire != nil {
		wire := a.FiatNetworkInstructions.Wire
		mergeAddress(&wire.FiatAccountOwnerAddress, n.Wire.FiatAccountOwnerAddress)
		for _, c := range []struct {
			to   *RoutingDetails
			from *UpdateRoutingDetails
		}{{wire.RoutingDetails, n.Wire.RoutingDetails}, {wire.IntermediaryRoutingDetails, n.Wire.IntermediaryRoutingDetails}} {
			if c.from == nil || c.to == nil {
				continue
			}
			c.to.BankName = nonEmpty(c.from.BankName, c.to.BankName)
			mergeAddress(&c.to.BankAddress, c.from.BankAddress)
		}
	}
	for k, v := range req.Metadata {
		if v == "" {
			continue
		}
		if a.Metadata == nil {
			a.Metadata = map[string]string{}
		}
		a.Metadata[k] = v
	}
	a.Status = "PENDING"
	a.UpdatedAt = s.now().UTC().Truncate(time.Microsecond)
	out := cloneAccount(a)
	st.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

func nonEmpty(v, otherwise string) string {
	if strings.TrimSpace(v) == "" {
		return otherwise
	}
	return v
}

// SetFiatAccountStatus moves the account id made through the API to status
// (PENDING, APPROVED or REJECTED), as the service's review does. It
// reports whether such an account exists.
func (s *Server) SetFiatAccountStatus(id, status string) bool {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	a := st.accountByID[id]
	if a == nil || a.Deleted {
		return false
	}
	a.Status = status
	a.UpdatedAt = s.now().UTC().Truncate(time.Microsecond)
	return true
}

// MadeFiatAccounts returns copies of the fiat accounts made through the
// API, deleted ones included (Deleted set), in creation order, with their
// full account numbers.
func (s *Server) MadeFiatAccounts() []FiatAccount {
	return lockedCopies(s.data, madeAccounts, cloneAccount)
}

func madeAccounts(st *store) []*FiatAccount { return st.madeAccounts }

// LiveFiatAccounts counts the fiat accounts made through the API that are
// not deleted.
func (s *Server) LiveFiatAccounts() int {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	n := 0
	for _, a := range st.madeAccounts {
		if !a.Deleted {
			n++
		}
	}
	return n
}

// AddApprovedFiatAccount adds an APPROVED wire account with the given id,
// as if it had been made through the API and approved by the service's
// review: a payee for fiat withdrawals in tests and demos. It reports
// false when the id is taken.
func (s *Server) AddApprovedFiatAccount(id string) bool {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	if _, taken := st.accountByID[id]; taken {
		return false
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	a := &FiatAccount{
		ID:               id,
		FiatAccountOwner: &FiatAccountOwner{PersonDetails: &PersonDetails{FirstName: "Ada", LastName: "Payee"}},
		FiatNetworkInstructions: &FiatAccountNetworkInstructions{Wire: &WireInstructions{
			AccountNumber:           "000123456789",
			FiatAccountOwnerAddress: &Address{Country: "USA"},
			RoutingDetails: &RoutingDetails{RoutingNumberType: "ABA", RoutingNumber: "021000021",
				BankName: "Example Bank", BankAddress: &Address{Country: "USA"}},
		}},
		Status:    "APPROVED",
		CreatedAt: now,
		UpdatedAt: now,
	}
	st.madeAccounts = append(st.madeAccounts, a)
	st.accountByID[a.ID] = a
	return true
}
