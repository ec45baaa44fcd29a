package emulator

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Money flows beyond the published excerpt: fiat withdrawals, internal
// transfers, and the creation, cancellation and settlement of stablecoin
// conversions. The excerpt names the scope of the conversions and shows
// their Get and Cancel; the request bodies, the other scopes and the
// answers are the emulator's choices (see doc.go).
//
//	POST   /transfer/fiat-withdrawals      transfer:write_fiat_withdrawal
//	POST   /transfer/internal              transfer:write_internal_transfer
//	POST   /conversion/stablecoins         conversion:write_conversion_stablecoin
//	DELETE /conversion/stablecoins/{id}    conversion:write_conversion_stablecoin

const (
	pathFiatWithdrawals     = "/v2/transfer/fiat-withdrawals"
	pathInternalTransfers   = "/v2/transfer/internal"
	pathConversions         = "/v2/conversion/stablecoins"
	scopeWriteFiatWithdraw  = "transfer:write_fiat_withdrawal"
	scopeWriteInternal      = "transfer:write_internal_transfer"
	scopeWriteConversion    = "conversion:write_conversion_stablecoin"
	transferTypeInternalDeb = "INTERNAL_TRANSFER_DEBIT"
	transferTypeInternalCre = "INTERNAL_TRANSFER_CREDIT"
)

// Statuses of a stablecoin conversion: CREATED is the one the spec shows,
// CANCELLED the published cancel's; SETTLED is the emulator's.
const (
	ConversionCreated   = "CREATED"
	ConversionSettled   = "SETTLED"
	ConversionCancelled = "CANCELLED"
)

// conversionAssets are the assets a conversion converts between: those of
// the seeded conversions.
var conversionAssets = []string{"USD", "USDC", "PYUSD"}

// fiatWithdrawalFee is the fee of every fiat withdrawal.
var fiatWithdrawalFee = decimal.Zero

// oneFigure checks that exactly one of amount and total is given, of the
// spec's pattern.
func oneFigure(amount, total string) *apiError {
	switch {
	case amount != "" && total != "":
		return errInvalid("amount", "exactly one of amount or total must be given, not both")
	case amount == "" && total == "":
		return errInvalid("amount", "exactly one of amount or total must be given")
	case amount != "" && !decimalPattern.MatchString(amount):
		return errInvalid("amount", "must match ^[0-9]*\\.?[0-9]+$")
	case total != "" && !decimalPattern.MatchString(total):
		return errInvalid("total", "must match ^[0-9]*\\.?[0-9]+$")
	}
	return nil
}

// validateAmountOrTotal checks that exactly one of amount and total is
// given, of the spec's pattern and above zero.
func validateAmountOrTotal(amount, total string) *apiError {
	if e := oneFigure(amount, total); e != nil {
		return e
	}
	if amount != "" {
		return positiveDecimal("amount", amount)
	}
	return positiveDecimal("total", total)
}

// assetDecimals are the decimals of the smallest unit of the assets whose
// unit is fixed and published: a native coin's by its network (a satoshi is
// 0.00000001 BTC, a wei 10^-18 ETH, a lamport 10^-9 SOL), the stablecoins'
// by their issuers (6), fiat currencies' by the service (its reference holds
// fiat amounts to 2 decimals). The provider refuses the same amounts at plan
// (its amount_precision.go, compared with AssetDecimals by its tests). An
// asset not listed here is not checked.
var assetDecimals = map[string]int{
	"BTC": 8, "ETH": 18, "SOL": 9, "USDC": 6, "USDT": 6, "PYUSD": 6, "USDP": 6, "USD": 2, "EUR": 2, "GBP": 2, "SGD": 2,
}

// AssetDecimals are the assets whose amounts the emulator refuses beyond
// their smallest unit, with its decimals.
func AssetDecimals() map[string]int { return maps.Clone(assetDecimals) }

// withinPrecision refuses an amount of asset with more decimals than the
// smallest unit of the asset (trailing zeros aside), as the service does:
// 400 with the published problem exceed-precision ("Exceeds Maximum
// Precision Allowed", "max precision allowed for asset ETH is 18"). An
// amount not of the spec's pattern is left to the other checks.
func withinPrecision(field, asset, v string) *apiError {
	most, ok := assetDecimals[strings.ToUpper(asset)]
	if !ok || !decimalPattern.MatchString(v) {
		return nil
	}
	_, frac, _ := strings.Cut(v, ".")
	if len(strings.TrimRight(frac, "0")) <= most {
		return nil
	}
	return &apiError{
		status: http.StatusBadRequest,
		title:  "Exceeds Maximum Precision Allowed",
		body: ErrorBody{
			Code:    "EXCEED_PRECISION",
			Message: fmt.Sprintf("max precision allowed for asset %s is %d", strings.ToUpper(asset), most),
			Field:   field,
		},
	}
}

// positiveDecimal checks that v is a decimal of the spec's pattern above
// zero.
func positiveDecimal(field, v string) *apiError {
	if !decimalPattern.MatchString(v) {
		return errInvalid(field, "must match ^[0-9]*\\.?[0-9]+$")
	}
	if !decimal.RequireFromString(v).IsPositive() {
		return errInvalid(field, "must be greater than zero")
	}
	return nil
}

func validateFiatWithdrawal(req *FiatWithdrawalRequest) *apiError {
	return firstErr(
		required("profile_id", req.ProfileID, "fiat_account_id", req.FiatAccountID, "asset", req.Asset),
		validateAmountOrTotal(req.Amount, req.Total),
		withinPrecision("amount", req.Asset, req.Amount),
		withinPrecision("total", req.Asset, req.Total),
		validateMetadata(req.Metadata),
	)
}

func validateInternalTransfer(req *InternalTransferRequest) *apiError {
	if e := firstErr(
		required("from_profile_id", req.FromProfileID, "to_profile_id", req.ToProfileID,
			"asset", req.Asset, "amount", req.Amount),
		positiveDecimal("amount", req.Amount),
		withinPrecision("amount", req.Asset, req.Amount),
		validateMetadata(req.Metadata),
	); e != nil {
		return e
	}
	if req.FromProfileID == req.ToProfileID {
		return errInvalid("to_profile_id", "must differ from from_profile_id")
	}
	return nil
}

func validateConversion(req *StablecoinConversionRequest) *apiError {
	if e := firstErr(
		required("profile_id", req.ProfileID, "source_asset", req.SourceAsset,
			"target_asset", req.TargetAsset, "amount", req.Amount),
		oneOf("source_asset", req.SourceAsset, conversionAssets),
		oneOf("target_asset", req.TargetAsset, conversionAssets),
		positiveDecimal("amount", req.Amount),
		withinPrecision("amount", req.SourceAsset, req.Amount),
		validateMetadata(req.Metadata),
	); e != nil {
		return e
	}
	if req.SourceAsset == req.TargetAsset {
		return errInvalid("target_asset", "must differ from source_asset")
	}
	return nil
}

// liveAccountLocked is the fiat account id, made through the API or
// seeded, unless unknown or deleted; under the store's lock.
func (st *store) liveAccountLocked(id string) (*FiatAccount, bool) {
	a := st.accountByID[id]
	if a == nil {
		for i := range st.fiatAccounts {
			if st.fiatAccounts[i].ID == id {
				a = &st.fiatAccounts[i]
				break
			}
		}
	}
	return a, a != nil && !a.Deleted
}

// accountStatus is the review status of a fiat account: the top-level
// status, or the wire status of the nested form (where ACTIVE is
// APPROVED).
func accountStatus(a *FiatAccount) string {
	if a.Status != "" {
		return a.Status
	}
	if n := a.FiatNetworkInstructions; n != nil && n.Wire != nil {
		if n.Wire.Status == "ACTIVE" {
			return "APPROVED"
		}
		return n.Wire.Status
	}
	return ""
}

// fiatWithdrawalType is the transfer type of a withdrawal to a, by its
// network: wire WIRE_WITHDRAWAL, cbit CBIT_WITHDRAWAL, cubix
// CUBIX_WITHDRAWAL, and the bank networks rtp, dbs_act and scb
// BANK_WITHDRAWAL.
func fiatWithdrawalType(a *FiatAccount) string {
	n := a.FiatNetworkInstructions
	switch {
	case n == nil:
	case n.Cbit != nil:
		return "CBIT_WITHDRAWAL"
	case n.Cubix != nil:
		return "CUBIX_WITHDRAWAL"
	case n.RTP != nil, n.DBSAct != nil, n.SCB != nil:
		return "BANK_WITHDRAWAL"
	}
	return "WIRE_WITHDRAWAL"
}

// FiatWithdrawalTypes are the transfer types of fiat withdrawals the
// emulator makes.
var FiatWithdrawalTypes = []string{"WIRE_WITHDRAWAL", "BANK_WITHDRAWAL", "CBIT_WITHDRAWAL", "CUBIX_WITHDRAWAL"}

// newTransfer is a PENDING transfer made through the API at now, of the
// type, direction, profile and asset given and with the parts every money
// request names (identity_id, account_id, ref_id, metadata); the caller
// sets its figures and its own fields. It draws the transfer's id.
func (st *store) newTransfer(now time.Time, typ, direction, profile, asset string, identity, account, ref string, metadata map[string]string) Transfer {
	return Transfer{
		ID: st.created.uuid(), CustomerID: st.customerID, ProfileID: profile, Asset: asset,
		Direction: direction, Type: typ, Status: "PENDING", CreatedAt: now, UpdatedAt: now,
		IdentityID: optional(identity), AccountID: optional(account), RefID: optional(ref),
		Metadata: metadata, AutoConversion: map[string]any{},
	}
}

// earlierTransfer is createOp.earlier of a transfer kept by its ref_id in
// the map byRef picks.
func earlierTransfer(byRef func(*store) map[string]*transferRecord) func(*store, string) (any, bool) {
	return func(st *store, refID string) (any, bool) {
		if prev := byRef(st)[refID]; prev != nil {
			return prev.t, true
		}
		return nil, false
	}
}

// addTransfer stores a transfer made through the API, under the store's
// lock.
func (st *store) addTransfer(t Transfer, request string) *transferRecord {
	rec := &transferRecord{t: t, request: request}
	st.transfers = append(st.transfers, rec)
	st.transferByID[t.ID] = rec
	return rec
}

// createOp is what a create POST has of its own; serveCreate does the
// rest.
type createOp[Req any] struct {
	// what names the object in the detail of the already-exists answer.
	what string
	// bare answers a ref_id already used with the 409 the reference
	// publishes for the operation, which does not carry the object (an
	// internal transfer's: "Transfer with ref_id already exists").
	bare bool
	// validate checks the decoded body, before the store's lock is taken.
	validate func(*Req) *apiError
	// refID is the request's ref_id ("" when none).
	refID func(*Req) string
	// earlier is the object made before by the same operation with the
	// ref_id, under the store's lock.
	earlier func(st *store, refID string) (any, bool)
	// build checks what needs the store (funds, ...), then makes and
	// records the object(s) and moves the balances, under the store's
	// lock. It returns what the 201 answers, or the problem or the error
	// answered instead, having changed nothing.
	build func(st *store, req *Req) (any, *Problem, *apiError)
}

// serveCreate serves a create POST: it decodes and validates the body,
// answers a ref_id already used by the operation with 409 already-exists
// and the object made with it, else builds under the store's lock and
// answers 201, or the problem or the error of build. Nothing is answered
// while the lock is held.
func serveCreate[Req any](s *Server, w http.ResponseWriter, r *http.Request, op createOp[Req]) {
	req, ok := decodeValid(w, r, op.validate)
	if !ok {
		return
	}
	st := s.data
	st.mu.Lock()
	if ref := op.refID(req); ref != "" {
		if prev, ok := op.earlier(st, ref); ok {
			st.mu.Unlock()
			if op.bare {
				s.answerBareConflict(w, r, op.what)
				return
			}
			s.answerAlreadyExists(w, r, op.what, ref, prev)
			return
		}
	}
	out, p, e := op.build(st, req)
	st.mu.Unlock()
	switch {
	case e != nil:
		writeError(w, e)
	case p != nil:
		writeProblem(w, p)
	default:
		s.answerPost(w, r, out)
	}
}

func (s *Server) handleCreateFiatWithdrawal(w http.ResponseWriter, r *http.Request, _ string) {
	serveCreate(s, w, r, createOp[FiatWithdrawalRequest]{
		what:     "transfer",
		validate: validateFiatWithdrawal,
		refID:    func(req *FiatWithdrawalRequest) string { return req.RefID },
		earlier:  earlierTransfer(func(st *store) map[string]*transferRecord { return st.fiatWithdrawalByRef }),
		build:    s.buildFiatWithdrawal,
	})
}

// buildFiatWithdrawal makes the fiat withdrawal req, to an APPROVED fiat
// account, under the store's lock.
func (s *Server) buildFiatWithdrawal(st *store, req *FiatWithdrawalRequest) (any, *Problem, *apiError) {
	acct, live := st.liveAccountLocked(req.FiatAccountID)
	if !live {
		return nil, nil, errInvalid("fiat_account_id", "no fiat account %s", req.FiatAccountID)
	}
	if status := accountStatus(acct); status != "APPROVED" {
		return nil, nil, errInvalid("fiat_account_id", "fiat account %s is %s; a withdrawal needs an APPROVED account", req.FiatAccountID, status)
	}
	fee := fiatWithdrawalFee
	amount, total := req.Amount, req.Total
	if amount != "" {
		total = decimal.RequireFromString(amount).Add(fee).String()
	} else {
		amount = decimal.RequireFromString(total).Sub(fee).String()
	}
	if p := st.lackOfFunds(req.ProfileID, req.Asset, decimal.RequireFromString(total), "fiat withdrawal"); p != nil {
		return nil, p, nil
	}
	t := st.newTransfer(s.now().UTC().Truncate(time.Microsecond), fiatWithdrawalType(acct), "DEBIT", req.ProfileID, req.Asset,
		req.IdentityID, req.AccountID, req.RefID, req.Metadata)
	t.Amount, t.Total, t.Fee = amount, total, fee.String()
	t.FiatAccountID, t.Memo = optional(req.FiatAccountID), optional(req.Memo)
	rec := st.addTransfer(t, canonical(*req))
	if req.RefID != "" {
		st.fiatWithdrawalByRef[req.RefID] = rec
	}
	st.moveBalance(req.ProfileID, req.Asset, decimal.RequireFromString(total).Neg())
	return t, nil, nil
}

func (s *Server) handleCreateInternalTransfer(w http.ResponseWriter, r *http.Request, _ string) {
	serveCreate(s, w, r, createOp[InternalTransferRequest]{
		what:     "Transfer",
		bare:     true,
		validate: validateInternalTransfer,
		refID:    func(req *InternalTransferRequest) string { return req.RefID },
		earlier:  earlierTransfer(func(st *store) map[string]*transferRecord { return st.internalByRef }),
		build:    s.buildInternalTransfer,
	})
}

// buildInternalTransfer makes the debit and the credit of the internal
// transfer req, under the store's lock; the debit is answered.
func (s *Server) buildInternalTransfer(st *store, req *InternalTransferRequest) (any, *Problem, *apiError) {
	amount := decimal.RequireFromString(req.Amount)
	if p := st.lackOfFunds(req.FromProfileID, req.Asset, amount, "internal transfer"); p != nil {
		return nil, p, nil
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	group := st.created.uuid()
	side := func(profile, typ, direction string) Transfer {
		t := st.newTransfer(now, typ, direction, profile, req.Asset, req.IdentityID, req.AccountID, req.RefID, req.Metadata)
		t.Amount, t.Total, t.Fee, t.GroupID = req.Amount, amount.String(), "0", &group
		return t
	}
	debit := side(req.FromProfileID, transferTypeInternalDeb, "DEBIT")
	credit := side(req.ToProfileID, transferTypeInternalCre, "CREDIT")
	key := canonical(*req)
	rec := st.addTransfer(debit, key)
	st.addTransfer(credit, key)
	if req.RefID != "" {
		st.internalByRef[req.RefID] = rec
	}
	st.moveBalance(req.FromProfileID, req.Asset, amount.Neg())
	st.moveBalance(req.ToProfileID, req.Asset, amount)
	return debit, nil, nil
}

func (s *Server) handleCreateConversion(w http.ResponseWriter, r *http.Request, _ string) {
	serveCreate(s, w, r, createOp[StablecoinConversionRequest]{
		what:     "conversion",
		validate: validateConversion,
		refID:    func(req *StablecoinConversionRequest) string { return req.RefID },
		earlier: func(st *store, refID string) (any, bool) {
			if c := st.conversionByRef[refID]; c != nil {
				return cloneConversion(c), true
			}
			if i, ok := st.seededConversionByRef[refID]; ok {
				return cloneConversion(&st.conversions[i]), true
			}
			return nil, false
		},
		build: s.buildConversion,
	})
}

// buildConversion makes the stablecoin conversion req and debits its
// source asset, under the store's lock.
func (s *Server) buildConversion(st *store, req *StablecoinConversionRequest) (any, *Problem, *apiError) {
	amount := decimal.RequireFromString(req.Amount)
	if p := st.lackOfFunds(req.ProfileID, req.SourceAsset, amount, "conversion"); p != nil {
		return nil, p, nil
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	c := &StablecoinConversion{
		ID:                 st.created.uuid(),
		ProfileID:          req.ProfileID,
		Amount:             req.Amount,
		SourceAsset:        req.SourceAsset,
		TargetAsset:        req.TargetAsset,
		Status:             ConversionCreated,
		RefID:              optional(req.RefID),
		IdentityID:         optional(req.IdentityID),
		AccountID:          optional(req.AccountID),
		CreatedAt:          now,
		UpdatedAt:          now,
		Metadata:           req.Metadata,
		RecipientProfileID: optional(req.RecipientProfileID),
	}
	st.madeConversions = append(st.madeConversions, c)
	st.madeConversionByID[c.ID] = c
	if req.RefID != "" {
		st.conversionByRef[req.RefID] = c
	}
	if st.moveBalance(req.ProfileID, req.SourceAsset, amount.Neg()) {
		st.conversionDebits[c.ID] = amount
	}
	return cloneConversion(c), nil, nil
}

// cloneConversion is a copy of c that shares nothing with it.
func cloneConversion(c *StablecoinConversion) StablecoinConversion {
	out := *c
	for _, p := range []**time.Time{&out.SettledAt, &out.CancelledAt} {
		if *p != nil {
			t := **p
			*p = &t
		}
	}
	if c.Metadata != nil {
		out.Metadata = make(map[string]string, len(c.Metadata))
		for k, v := range c.Metadata {
			out.Metadata[k] = v
		}
	}
	return out
}

// conversion is the conversion id (lower or upper case), made through the
// API or seeded.
func (st *store) conversion(id string) (StablecoinConversion, bool) {
	id = strings.ToLower(id)
	st.mu.Lock()
	defer st.mu.Unlock()
	if c := st.madeConversionByID[id]; c != nil {
		return cloneConversion(c), true
	}
	if i, ok := st.conversionByID[id]; ok {
		return st.conversions[i], true
	}
	return StablecoinConversion{}, false
}

func conversionNotFound(id string) *apiError {
	return errNotFound("stablecoin conversion " + id + " not found")
}

// handleCancelConversion cancels a CREATED conversion made through the
// API and gives back what it debited. A CANCELLED one is answered as it is; a
// SETTLED one is a 409; a seeded one cannot be changed (400).
func (s *Server) handleCancelConversion(w http.ResponseWriter, _ *http.Request, id string) {
	if !isUUID(id) {
		writeError(w, errInvalid("id", "must be a UUID"))
		return
	}
	st := s.data
	st.mu.Lock()
	c := st.madeConversionByID[strings.ToLower(id)]
	var e *apiError
	switch {
	case c == nil:
		if _, seeded := st.conversionByID[strings.ToLower(id)]; seeded {
			e = errInvalid("id", "seeded stablecoin conversions cannot be changed in the emulator")
		} else {
			e = conversionNotFound(id)
		}
	case c.Status == ConversionSettled:
		e = &apiError{status: http.StatusConflict, body: ErrorBody{Code: "CONFLICT",
			Message: "stablecoin conversion " + id + " is SETTLED; only a CREATED conversion can be cancelled"}}
	case c.Status == ConversionCreated:
		now := s.now().UTC().Truncate(time.Microsecond)
		c.Status, c.CancelledAt, c.UpdatedAt = ConversionCancelled, &now, now
		if debited, ok := st.conversionDebits[c.ID]; ok {
			st.moveBalance(c.ProfileID, c.SourceAsset, debited)
			delete(st.conversionDebits, c.ID)
		}
	}
	var out StablecoinConversion
	if c != nil {
		out = cloneConversion(c)
	}
	st.mu.Unlock()
	if e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// SettleConversion settles the conversion id made through the API, as the
// service does once the assets have moved: status SETTLED, settled_at now,
// and the amount (converted one to one) credited in the target asset to
// recipient_profile_id, or else profile_id, when that balance is set. It
// reports whether the conversion was CREATED and is now SETTLED.
func (s *Server) SettleConversion(id string) bool {
	ok, _ := s.settleConversion(id)
	return ok
}

// settleConversion settles id; when it cannot, the error says why (404
// unknown, 409 not CREATED).
func (s *Server) settleConversion(id string) (bool, *apiError) {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	c := st.madeConversionByID[strings.ToLower(id)]
	switch {
	case c == nil:
		return false, errNotFound("stablecoin conversion " + id + " not found among the conversions made through the API")
	case c.Status != ConversionCreated:
		return false, &apiError{status: http.StatusConflict, body: ErrorBody{Code: "CONFLICT",
			Message: "stablecoin conversion " + id + " is " + c.Status + "; only a CREATED conversion settles"}}
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	c.Status, c.SettledAt, c.UpdatedAt = ConversionSettled, &now, now
	to := c.ProfileID
	if c.RecipientProfileID != nil {
		to = *c.RecipientProfileID
	}
	st.moveBalance(to, c.TargetAsset, decimal.RequireFromString(c.Amount))
	return true, nil
}

// MadeStablecoinConversions returns copies of the stablecoin conversions
// made through the API (not the seeded ones), in creation order.
func (s *Server) MadeStablecoinConversions() []StablecoinConversion {
	return lockedCopies(s.data, func(st *store) []*StablecoinConversion { return st.madeConversions }, cloneConversion)
}

// TransfersOfType returns the transfers made through the API whose type is
// one of types, in creation order.
func (s *Server) TransfersOfType(types ...string) []Transfer {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []Transfer
	for _, r := range st.transfers {
		if slices.Contains(types, r.t.Type) {
			out = append(out, r.t)
		}
	}
	return out
}

// allConversions is the seeded conversions followed by a copy of those
// made through the API, in creation order.
func (st *store) allConversions() []StablecoinConversion {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]StablecoinConversion, 0, len(st.conversions)+len(st.madeConversions))
	out = append(out, st.conversions...)
	for _, c := range st.madeConversions {
		out = append(out, cloneConversion(c))
	}
	return out
}

// handleListConversions is List Stablecoin Conversions: the seeded
// conversions and those made through the API, newest first unless order
// is ASC, by profile_id and the created_at.begin and created_at.end
// bounds (inclusive).
func (s *Server) handleListConversions(w http.ResponseWriter, r *http.Request, _ string) {
	q := newQuery(r)
	profile := q.str("profile_id")
	ref := q.str("ref_id")
	begin, end := q.time("created_at.begin"), q.time("created_at.end")
	desc := listOrder(q)
	items := s.data.allConversions()
	servePage(w, s.data, q, listConversions, items, nil, desc, func(i int) bool {
		c := &items[i]
		return (profile == "" || c.ProfileID == profile) &&
			(ref == "" || c.RefID != nil && *c.RefID == ref) &&
			(begin == nil || !c.CreatedAt.Before(*begin)) &&
			(end == nil || !c.CreatedAt.After(*end))
	})
}
