package emulator

import (
	"cmp"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// decimalPattern is the spec's pattern of amount, total and fee.
var decimalPattern = regexp.MustCompile(`^[0-9]*\.?[0-9]+$`)

// withdrawalFees is the fee of a crypto withdrawal by asset; other assets
// pay defaultWithdrawalFee.
var withdrawalFees = map[string]decimal.Decimal{
	"BTC":   decimal.RequireFromString("0.0001"),
	"ETH":   decimal.RequireFromString("0.0015"),
	"SOL":   decimal.RequireFromString("0.000005"),
	"USDC":  decimal.RequireFromString("1.5"),
	"PYUSD": decimal.RequireFromString("1.5"),
}

var defaultWithdrawalFee = decimal.RequireFromString("0.01")

// usdPrices value assets for notional_value; other assets are worth 1 USD.
var usdPrices = map[string]decimal.Decimal{
	"BTC": decimal.NewFromInt(65000),
	"ETH": decimal.NewFromInt(3500),
	"SOL": decimal.NewFromInt(150),
	"LTC": decimal.NewFromInt(80),
	"BCH": decimal.NewFromInt(400),
	"POL": decimal.RequireFromString("0.5"),
}

// WithdrawalFee returns the fee the emulator charges for a withdrawal of asset.
func WithdrawalFee(asset string) decimal.Decimal {
	if f, ok := withdrawalFees[strings.ToUpper(asset)]; ok {
		return f
	}
	return defaultWithdrawalFee
}

func usdPrice(asset string) decimal.Decimal {
	if p, ok := usdPrices[strings.ToUpper(asset)]; ok {
		return p
	}
	return decimal.NewFromInt(1)
}

func validateMetadata(m map[string]string) *apiError {
	if len(m) > maxMetadataPairs {
		return errInvalid("metadata", "at most %d pairs are allowed, got %d", maxMetadataPairs, len(m))
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k == "" {
			return errInvalid("metadata", "keys must not be empty")
		}
		if utf8.RuneCountInString(k) > maxMetadataLength {
			return errInvalid("metadata", "key %q is longer than %d characters", k[:20]+"...", maxMetadataLength)
		}
		if utf8.RuneCountInString(m[k]) > maxMetadataLength {
			return errInvalid("metadata", "value of key %q is longer than %d characters", k, maxMetadataLength)
		}
	}
	return nil
}

// required checks fields given as pairs of a field's name and its value:
// the first blank one is the error.
func required(nameValues ...string) *apiError {
	for i := 0; i+1 < len(nameValues); i += 2 {
		if strings.TrimSpace(nameValues[i+1]) == "" {
			return errInvalid(nameValues[i], "is required")
		}
	}
	return nil
}

func oneOf(field, v string, allowed []string) *apiError {
	if !slices.Contains(allowed, v) {
		return errInvalid(field, "must be one of %s, got %q", strings.Join(allowed, ", "), v)
	}
	return nil
}

func firstErr(errs ...*apiError) *apiError {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func validateWithdrawal(req *CryptoWithdrawalRequest) *apiError {
	if e := required("profile_id", req.ProfileID, "destination_address", req.DestinationAddress,
		"asset", req.Asset, "crypto_network", req.CryptoNetwork); e != nil {
		return e
	}
	if e := oneOf("crypto_network", req.CryptoNetwork, cryptoNetworks); e != nil {
		return e
	}
	if e := firstErr(oneFigure(req.Amount, req.Total), withinPrecision("amount", req.Asset, req.Amount),
		withinPrecision("total", req.Asset, req.Total)); e != nil {
		return e
	}
	if e := validateMetadata(req.Metadata); e != nil {
		return e
	}
	if len(req.Beneficiary) > 0 && req.Beneficiary[0] != '{' && string(req.Beneficiary) != "null" {
		return errInvalid("beneficiary", "must be a JSON object")
	}
	return nil
}

// canonical returns a canonical JSON form of a decoded request, used to
// compare the bodies of two requests with the same ref_id.
func canonical(v any) string {
	b, _ := json.Marshal(v)
	var generic any
	_ = json.Unmarshal(b, &generic)
	b, _ = json.Marshal(generic)
	return string(b)
}

func (s *Server) handleCreateWithdrawal(w http.ResponseWriter, r *http.Request, _ string) {
	req, ok := decodeValid(w, r, validateWithdrawal)
	if !ok {
		return
	}
	if typ, detail, ok := s.Faults.takeRefusal(); ok {
		noteFault(r, "refuse-withdrawal")
		writeProblem(w, &Problem{Type: problemTypeBase + typ, Title: "Forbidden", Status: http.StatusForbidden, Detail: detail})
		return
	}
	if req.Amount != "" && !decimal.RequireFromString(req.Amount).IsPositive() {
		writeError(w, errInvalid("amount", "must be greater than zero"))
		return
	}
	if fee := s.withdrawalFee(req.Asset); req.FeeID == "" && req.Total != "" && decimal.RequireFromString(req.Total).LessThanOrEqual(fee) {
		writeError(w, errInvalid("total", "must be greater than the fee of %s %s", fee.String(), req.Asset))
		return
	}
	st := s.data
	st.mu.Lock()
	if req.RefID != "" {
		if prev := st.transferByRef[req.RefID]; prev != nil {
			t, same := prev.t, prev.request == canonical(*req)
			st.mu.Unlock()
			if s.opts.WithdrawalReplay == ReplayConflict {
				s.answerAlreadyExists(w, r, "transfer", req.RefID, t)
				return
			}
			s.answerReplay(w, r, req.RefID, "another crypto withdrawal", same, t)
			return
		}
	}
	amount, total, fee, problem, e := s.withdrawalFigures(req)
	// The balance debited: balance_asset's when given, at the emulator's
	// USD prices.
	debitAsset := cmp.Or(req.BalanceAsset, req.Asset)
	var debit decimal.Decimal
	if problem == nil && e == nil {
		debit = valueIn(decimal.RequireFromString(total), req.Asset, debitAsset)
		if problem = st.lackOfFunds(req.ProfileID, debitAsset, debit, "withdrawal"); problem == nil {
			problem = s.spendLimits(req.Asset, decimal.RequireFromString(amount))
		}
		if problem != nil && req.FeeID != "" {
			// Refused: the guaranteed fee stays usable.
			s.releaseFeeQuote(req.FeeID)
		}
	}
	if problem != nil || e != nil {
		st.mu.Unlock()
		if e != nil {
			writeError(w, e)
			return
		}
		writeProblem(w, problem)
		return
	}
	key := canonical(*req)
	notional := decimal.RequireFromString(total).Mul(usdPrice(req.Asset)).StringFixed(2)

	t := st.newTransfer(s.now().UTC().Truncate(time.Microsecond), "CRYPTO_WITHDRAWAL", "DEBIT", req.ProfileID, req.Asset,
		req.IdentityID, req.AccountID, req.RefID, req.Metadata)
	t.Amount, t.Total, t.Fee, t.NotionalValue = amount, total, fee, &notional
	t.BalanceAsset, t.DestinationAddress, t.CryptoNetwork, t.Memo = optional(req.BalanceAsset),
		optional(req.DestinationAddress), optional(req.CryptoNetwork), optional(req.Memo)
	rec := st.addTransfer(t, key)
	if req.RefID != "" {
		st.transferByRef[req.RefID] = rec
	}
	st.moveBalance(req.ProfileID, debitAsset, debit.Neg())
	st.mu.Unlock()
	s.answerPost(w, r, t)
}

// withdrawalFigures are the amount, total and fee of a new withdrawal: the
// fee of its fee_id's guaranteed fee (used up by it), or the fee table's.
func (s *Server) withdrawalFigures(req *CryptoWithdrawalRequest) (amount, total, fee string, _ *Problem, _ *apiError) {
	f := s.withdrawalFee(req.Asset)
	if req.FeeID != "" {
		var p *Problem
		var e *apiError
		if f, p, e = s.takeFeeQuote(req); p != nil || e != nil {
			return "", "", "", p, e
		}
	}
	if req.Amount != "" {
		a := decimal.RequireFromString(req.Amount)
		if !a.IsPositive() {
			return "", "", "", nil, errInvalid("amount", "must be greater than zero")
		}
		return req.Amount, a.Add(f).String(), f.String(), nil, nil
	}
	t := decimal.RequireFromString(req.Total)
	if t.LessThanOrEqual(f) {
		return "", "", "", nil, errInvalid("total", "must be greater than the fee of %s %s", f.String(), req.Asset)
	}
	return t.Sub(f).String(), req.Total, f.String(), nil, nil
}

func optional(v string) *string {
	if v == "" {
		return nil
	}
	return &v
}

func validateInstructions(req *FiatDepositInstructionsRequest) *apiError {
	if e := required("profile_id", req.ProfileID, "fiat_network", req.FiatNetwork); e != nil {
		return e
	}
	if e := oneOf("fiat_network", req.FiatNetwork, fiatNetworks); e != nil {
		return e
	}
	if req.RoutingNumberType != "" {
		if e := oneOf("routing_number_type", req.RoutingNumberType, routingNumberTypes); e != nil {
			return e
		}
	}
	return validateMetadata(req.Metadata)
}

// The emulator's receiving bank.
var (
	receivingBank        = "Platform Trust Company"
	receivingBankAddress = Address{
		Country: "US", Address1: "1 Example Plaza", Address2: "Floor 20",
		City: "New York", Province: "NY", ZipCode: "10004",
	}
	// correspondentBankAddress is the address of the intermediary bank of
	// SWIFT wires.
	correspondentBankAddress = Address{Country: "US", Address1: "270 Example Avenue", City: "New York", Province: "NY", ZipCode: "10017"}
	localBanks               = map[string]string{
		"DBS_ACT": "DBS Bank Ltd",
		"CUBIX":   "Customers Bank",
		"SCB":     "Standard Chartered Bank",
		"RTP":     "Platform Trust Company",
	}
)

const memoAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

func (st *store) newMemoID() string {
	for {
		b := make([]byte, 10)
		for i := range b {
			b[i] = memoAlphabet[st.created.intn(len(memoAlphabet))]
		}
		if m := string(b); !st.memoIDs[m] {
			st.memoIDs[m] = true
			return m
		}
	}
}

// personFor returns the deterministic name of an identity.
func personFor(seed int64, identity string) *PersonDetails {
	h := derivedUUID(seed, "person", identity)
	return &PersonDetails{
		FirstName: firstNames[int(h[0])%len(firstNames)],
		LastName:  lastNames[int(h[1])%len(lastNames)],
	}
}

func (s *Server) handleCreateInstructions(w http.ResponseWriter, r *http.Request, _ string) {
	req, ok := decodeValid(w, r, validateInstructions)
	if !ok {
		return
	}
	key := canonical(*req)
	st := s.data
	st.mu.Lock()
	if req.RefID != "" {
		if prev := st.instrByRef[req.RefID]; prev != nil {
			fdi, same := prev.fdi, prev.request == key
			st.mu.Unlock()
			s.answerReplay(w, r, req.RefID, "other fiat deposit instructions", same, fdi)
			return
		}
	}
	identity := req.IdentityID
	if identity == "" {
		identity = derivedUUID(st.seed, "identity", req.ProfileID)
	}
	owner := &FiatAccountOwner{PersonDetails: personFor(st.seed, identity)}
	memo := st.newMemoID()
	fni := &FiatNetworkInstructions{}
	if s.opts.Profile == ProfileSeed {
		// The seed's example response repeats them here; the reference
		// has them at the top level only.
		fni.FiatAccountOwner, fni.Metadata = owner, req.Metadata
	}
	if req.FiatNetwork == "WIRE" {
		rt := req.RoutingNumberType
		if rt == "" {
			rt = "ABA"
		}
		routing := "0" + st.created.digits(8)
		if rt == "SWIFT" {
			routing = "PLTFUS33XXX"
		}
		var intermediary *RoutingDetails
		if rt == "SWIFT" {
			// A fixed correspondent, so that no value is drawn.
			corr := correspondentBankAddress
			intermediary = &RoutingDetails{RoutingNumberType: "SWIFT", RoutingNumber: "XMPLUS3NXXX",
				BankName: "Example Correspondent Bank", BankAddress: &corr}
		}
		ownerAddr := cities[st.created.intn(len(cities))]
		bankAddr := receivingBankAddress
		fni.Wire = &WireInstructions{
			AccountNumber: st.created.digits(12),
			FiatAccountOwnerAddress: &Address{
				Country: ownerAddr.country, Address1: "100 " + streets[st.created.intn(len(streets))],
				City: ownerAddr.city, Province: ownerAddr.province, ZipCode: ownerAddr.zip,
			},
			RoutingDetails: &RoutingDetails{
				RoutingNumberType: rt,
				RoutingNumber:     routing,
				BankName:          receivingBank,
				BankAddress:       &bankAddr,
			},
			IntermediaryRoutingDetails: intermediary,
		}
	} else {
		// The reference's shapes of the other networks.
		account := st.created.digits(10)
		switch req.FiatNetwork {
		case "DBS_ACT":
			fni.DBSAct = &AccountNumberInstructions{AccountNumber: account}
		case "CUBIX":
			fni.Cubix = &CubixInstructions{AccountID: derivedUUID(st.seed, "cubix", memo)}
		case "SCB":
			fni.SCB = &AccountNumberInstructions{AccountNumber: account}
		default:
			bankAddr := receivingBankAddress
			fni.RTP = &RTPInstructions{AccountNumber: account, RoutingDetails: &RTPRoutingDetails{
				RoutingNumber: "0" + st.created.digits(8), BankName: localBanks[req.FiatNetwork], BankAddress: &bankAddr,
			}}
		}
	}
	fdi := FiatDepositInstructions{
		ID:                      st.created.uuid(),
		ProfileID:               req.ProfileID,
		IdentityID:              identity,
		Status:                  "VALID",
		MemoID:                  memo,
		FiatNetworkInstructions: fni,
		CreatedAt:               s.now().UTC().Truncate(time.Microsecond),
		AccountID:               optional(req.AccountID),
		RefID:                   optional(req.RefID),
		FiatAccountOwner:        owner,
		Metadata:                req.Metadata,
		CustomerID:              s.seedCustomerID(),
	}
	rec := &instructionsRecord{fdi: fdi, request: key}
	st.instructions = append(st.instructions, rec)
	st.instrByID[fdi.ID] = rec
	if req.RefID != "" {
		st.instrByRef[req.RefID] = rec
	}
	st.mu.Unlock()
	s.answerPost(w, r, fdi)
}

// problemTypeBase prefixes the type of the emulator's problem bodies.
const problemTypeBase = "https://api.platform.example/problems/"

// Problem is an RFC 7807 problem body, as the API reference publishes the
// 409 of a reused ref_id.
type Problem struct {
	Type   string         `json:"type"`
	Title  string         `json:"title"`
	Status int            `json:"status"`
	Detail string         `json:"detail,omitempty"`
	Meta   map[string]any `json:"meta,omitempty"`
}

// answerBareConflict answers a POST whose ref_id was used before with the
// 409 the reference publishes for an internal transfer: the problem alone,
// "<what> with ref_id already exists", without the object. The
// accept-then-fail and accept-then-hang faults apply to it.
func (s *Server) answerBareConflict(w http.ResponseWriter, r *http.Request, what string) {
	p := &Problem{
		Type: problemTypeBase + "already-exists", Title: "Already exists", Status: http.StatusConflict,
		Detail: what + " with ref_id already exists",
	}
	if s.acceptFaults(w, r) {
		writeProblem(w, p)
	}
}

// answerAlreadyExists answers a POST whose ref_id was used before with 409
// and the object made with it in meta.existing. The accept-then-fail and
// accept-then-hang faults apply to it as to any answer of a POST.
func (s *Server) answerAlreadyExists(w http.ResponseWriter, r *http.Request, what, refID string, existing any) {
	p := &Problem{
		Type: problemTypeBase + "already-exists", Title: "Already Exists", Status: http.StatusConflict,
		Detail: what + " already exists with ref_id '" + refID + "'",
		Meta:   map[string]any{"existing": existing},
	}
	if s.acceptFaults(w, r) {
		writeProblem(w, p)
	}
}

// answerReplay answers a POST whose ref_id was used before: the original
// object (200) when the request body is the same, else 409 naming the
// ref_id. usedBy says what used it ("another crypto withdrawal").
func (s *Server) answerReplay(w http.ResponseWriter, r *http.Request, refID, usedBy string, same bool, original any) {
	if !same {
		writeError(w, &apiError{status: http.StatusConflict, body: ErrorBody{
			Code: "CONFLICT", Field: "ref_id",
			Message: "ref_id " + refID + " was already used by " + usedBy + " with a different request body",
		}})
		return
	}
	s.answerPost(w, r, original)
}

// seedCustomerID is the customer_id of fiat deposit instructions: the
// seed's example response carries one, the reference's schema has none,
// so only the seed profile answers it.
func (s *Server) seedCustomerID() *string {
	if s.opts.Profile != ProfileSeed {
		return nil
	}
	id := s.data.customerID
	return &id
}
