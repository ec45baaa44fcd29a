package emulator

import (
	"net/http"
	"slices"
	"strings"
	"time"
)

// Orchestration rules, as the API reference publishes them:
//
//	POST   /orchestration/rules        orchestration:write_orchestration_rule
//	GET    /orchestration/rules        orchestration:read_orchestration_rule
//	DELETE /orchestration/rules/{id}   orchestration:write_orchestration_rule
//
// A rule watches deposits of its source asset to the deposit address (a
// crypto source) or deposit instructions (a fiat source) made for it, and
// routes them, converted to its destination asset, to its destination. A
// new rule is PENDING until the service's approval (the admin API, or
// Options.OrchestrationRuleStatus = ACTIVE for a service that approves at
// once) makes it ACTIVE or REJECTED; Delete makes it DELETED.

const (
	scopeReadOrchestrationRule  = "orchestration:read_orchestration_rule"
	scopeWriteOrchestrationRule = "orchestration:write_orchestration_rule"
)

const listOrchestrationRules listKind = 41

// Statuses of an orchestration rule.
const (
	RuleActive   = "ACTIVE"
	RuleDeleted  = "DELETED"
	RulePending  = "PENDING"
	RuleRejected = "REJECTED"
)

// Values of the reference's enums of orchestration rules.
var (
	// OrchestrationRuleStatuses are the statuses of a rule.
	OrchestrationRuleStatuses = []string{RuleActive, RuleDeleted, RulePending, RuleRejected}
	ruleAssets                = []string{"USDG", "PYUSD", "USDP", "USDC", "USD"}
	ruleCryptoSourceNetworks  = []string{"ETHEREUM", "SOLANA", "STELLAR", "BASE", "POLYGON"}
	ruleFiatSourceNetworks    = []string{"WIRE", "CUBIX"}
	ruleFiatAccountTypes      = []string{"SWIFT", "ABA"}
)

// OrchestrationRuleRequest is the body of Create Orchestration Rule.
type OrchestrationRuleRequest struct {
	RefID            string                  `json:"ref_id"`
	Nickname         string                  `json:"nickname,omitempty"`
	ProfileID        string                  `json:"profile_id"`
	IdentityID       string                  `json:"identity_id,omitempty"`
	AccountID        string                  `json:"account_id,omitempty"`
	SourceAsset      string                  `json:"source_asset"`
	DestinationAsset string                  `json:"destination_asset"`
	Source           *RuleRequestSource      `json:"source"`
	Destination      *RuleRequestDestination `json:"destination,omitempty"`
}

// RuleRequestSource is the source of a create: one of crypto or fiat.
type RuleRequestSource struct {
	Crypto *struct {
		Network string `json:"network"`
	} `json:"crypto,omitempty"`
	Fiat *struct {
		Network     string `json:"network"`
		AccountType string `json:"account_type"`
	} `json:"fiat,omitempty"`
}

// RuleRequestDestination is the destination of a create: one of crypto,
// fiat or profile.
type RuleRequestDestination struct {
	Crypto *struct {
		RuleCryptoDestination
		CryptoAddressID string `json:"crypto_address_id,omitempty"`
	} `json:"crypto,omitempty"`
	Fiat    *RuleFiatDestination    `json:"fiat,omitempty"`
	Profile *RuleProfileDestination `json:"profile,omitempty"`
}

// RuleCryptoDestination is a crypto destination of a rule.
type RuleCryptoDestination struct {
	Address string `json:"address"`
	Network string `json:"network"`
}

// RuleFiatDestination is a fiat destination of a rule.
type RuleFiatDestination struct {
	FiatAccountID string `json:"fiat_account_id"`
	Memo          string `json:"memo,omitempty"`
}

// RuleProfileDestination is a profile destination of a rule.
type RuleProfileDestination struct {
	ProfileID string `json:"profile_id"`
}

// OrchestrationRule is a rule as the service answers it.
type OrchestrationRule struct {
	ID               string                      `json:"id"`
	RefID            string                      `json:"ref_id"`
	Nickname         string                      `json:"nickname,omitempty"`
	ProfileID        string                      `json:"profile_id"`
	IdentityID       string                      `json:"identity_id,omitempty"`
	AccountID        string                      `json:"account_id,omitempty"`
	Status           string                      `json:"status"`
	SourceAsset      string                      `json:"source_asset"`
	DestinationAsset string                      `json:"destination_asset"`
	Source           RuleSource                  `json:"source"`
	Destination      *OrchestrationRuleEndpoints `json:"destination,omitempty"`
	CreatedAt        time.Time                   `json:"created_at"`
}

// RuleSource is what a rule watches: the deposit address made for a
// crypto source, or the deposit instructions (and memo) of a fiat one.
type RuleSource struct {
	Crypto *RuleCryptoSource `json:"crypto,omitempty"`
	Fiat   *RuleFiatSource   `json:"fiat,omitempty"`
}

// RuleCryptoSource is a crypto source as answered.
type RuleCryptoSource struct {
	AddressID string `json:"address_id"`
	Address   string `json:"address"`
	Network   string `json:"network"`
}

// RuleFiatSource is a fiat source as answered.
type RuleFiatSource struct {
	DepositInstructionsID string `json:"deposit_instructions_id"`
	Network               string `json:"network"`
	AccountType           string `json:"account_type"`
	MemoID                string `json:"memo_id"`
}

// OrchestrationRuleEndpoints is a rule's destination as answered: one of
// crypto, fiat or profile.
type OrchestrationRuleEndpoints struct {
	Crypto  *RuleCryptoDestination  `json:"crypto,omitempty"`
	Fiat    *RuleFiatDestination    `json:"fiat,omitempty"`
	Profile *RuleProfileDestination `json:"profile,omitempty"`
}

// ruleBook holds the rules made through the API, in creation order; under
// the store's lock.
type ruleBook struct {
	all   []*OrchestrationRule
	byID  map[string]*OrchestrationRule
	byRef map[string]*OrchestrationRule
}

func (b *ruleBook) add(r *OrchestrationRule) {
	if b.byID == nil {
		b.byID, b.byRef = map[string]*OrchestrationRule{}, map[string]*OrchestrationRule{}
	}
	b.all = append(b.all, r)
	b.byID[r.ID] = r
	b.byRef[r.RefID] = r
}

// ruleAnswer is the body of Create and Delete Orchestration Rule.
type ruleAnswer struct {
	Rule OrchestrationRule `json:"rule"`
}

func validateOrchestrationRule(req *OrchestrationRuleRequest) *apiError {
	if e := firstErr(
		required("ref_id", req.RefID, "profile_id", req.ProfileID,
			"source_asset", req.SourceAsset, "destination_asset", req.DestinationAsset),
		oneOf("source_asset", req.SourceAsset, ruleAssets),
		oneOf("destination_asset", req.DestinationAsset, ruleAssets),
	); e != nil {
		return e
	}
	src := req.Source
	switch {
	case src == nil || (src.Crypto == nil) == (src.Fiat == nil):
		return errInvalid("source", "exactly one of crypto or fiat is required")
	case src.Crypto != nil:
		if e := oneOf("source.crypto.network", src.Crypto.Network, ruleCryptoSourceNetworks); e != nil {
			return e
		}
	default:
		if e := firstErr(
			oneOf("source.fiat.network", src.Fiat.Network, ruleFiatSourceNetworks),
			oneOf("source.fiat.account_type", src.Fiat.AccountType, ruleFiatAccountTypes),
		); e != nil {
			return e
		}
	}
	d := req.Destination
	if d == nil {
		return nil
	}
	n := 0
	for _, set := range []bool{d.Crypto != nil, d.Fiat != nil, d.Profile != nil} {
		if set {
			n++
		}
	}
	switch {
	case n != 1:
		return errInvalid("destination", "exactly one of crypto, fiat or profile is required")
	case d.Crypto != nil:
		if d.Crypto.CryptoAddressID != "" {
			return errInvalid("destination.crypto.crypto_address_id", "is deprecated: give address and network")
		}
		return firstErr(
			required("destination.crypto.address", d.Crypto.Address),
			oneOf("destination.crypto.network", d.Crypto.Network, cryptoNetworks),
		)
	case d.Fiat != nil:
		return required("destination.fiat.fiat_account_id", d.Fiat.FiatAccountID)
	default:
		return required("destination.profile.profile_id", d.Profile.ProfileID)
	}
}

func (s *Server) handleCreateOrchestrationRule(w http.ResponseWriter, r *http.Request, _ string) {
	serveCreate(s, w, r, createOp[OrchestrationRuleRequest]{
		what:     "Orchestration rule",
		bare:     true,
		validate: validateOrchestrationRule,
		refID:    func(req *OrchestrationRuleRequest) string { return req.RefID },
		earlier: func(st *store, refID string) (any, bool) {
			prev, ok := st.rules.byRef[refID]
			return prev, ok
		},
		build: s.buildOrchestrationRule,
	})
}

// buildOrchestrationRule makes the rule req, and the deposit address or
// instructions it watches, under the store's lock. A fiat destination
// must be a live, APPROVED fiat account.
func (s *Server) buildOrchestrationRule(st *store, req *OrchestrationRuleRequest) (any, *Problem, *apiError) {
	if d := req.Destination; d != nil && d.Fiat != nil {
		acct, live := st.liveAccountLocked(d.Fiat.FiatAccountID)
		if !live {
			return nil, nil, errInvalid("destination.fiat.fiat_account_id", "no fiat account %s", d.Fiat.FiatAccountID)
		}
		if status := accountStatus(acct); status != "APPROVED" {
			return nil, nil, errInvalid("destination.fiat.fiat_account_id",
				"fiat account %s is %s; a rule needs an APPROVED account", d.Fiat.FiatAccountID, status)
		}
	}
	rule := &OrchestrationRule{
		ID:               st.created.uuid(),
		RefID:            req.RefID,
		Nickname:         req.Nickname,
		ProfileID:        req.ProfileID,
		IdentityID:       req.IdentityID,
		AccountID:        req.AccountID,
		Status:           s.opts.OrchestrationRuleStatus,
		SourceAsset:      req.SourceAsset,
		DestinationAsset: req.DestinationAsset,
		CreatedAt:        s.now().UTC().Truncate(time.Microsecond),
	}
	if c := req.Source.Crypto; c != nil {
		rule.Source.Crypto = &RuleCryptoSource{AddressID: st.created.uuid(), Address: st.created.addressFor(c.Network), Network: c.Network}
	} else {
		f := req.Source.Fiat
		rule.Source.Fiat = &RuleFiatSource{DepositInstructionsID: st.created.uuid(), Network: f.Network,
			AccountType: f.AccountType, MemoID: st.newMemoID()}
	}
	if d := req.Destination; d != nil {
		out := &OrchestrationRuleEndpoints{Fiat: copyOf(d.Fiat), Profile: copyOf(d.Profile)}
		if d.Crypto != nil {
			out.Crypto = copyOf(&d.Crypto.RuleCryptoDestination)
		}
		rule.Destination = out
	}
	st.rules.add(rule)
	return ruleAnswer{Rule: *rule}, nil, nil
}

func (s *Server) handleListOrchestrationRules(w http.ResponseWriter, r *http.Request, _ string) {
	q := newQuery(r)
	profile := q.str("profile_id")
	statuses := set(q.list("status", OrchestrationRuleStatuses))
	source := q.str("source_asset")
	destination := q.str("destination_asset")
	ids := set(q.list("ids", nil))
	desc := q.enum("order", []string{"DESC", "ASC"}) != "ASC"
	serveLockedPage(w, s.data, q, listOrchestrationRules, "items", func(st *store) []*OrchestrationRule { return st.rules.all }, desc, func(rule *OrchestrationRule) bool {
		return (profile == "" || rule.ProfileID == profile) &&
			(statuses == nil || statuses[rule.Status]) &&
			(source == "" || rule.SourceAsset == source) &&
			(destination == "" || rule.DestinationAsset == destination) &&
			(ids == nil || ids[rule.ID])
	})
}

// handleDeleteOrchestrationRule sets the rule's status to DELETED and
// answers it; a rule already DELETED is answered as it is.
func (s *Server) handleDeleteOrchestrationRule(w http.ResponseWriter, _ *http.Request, id string) {
	rule, ok := s.setRuleStatus(id, RuleDeleted, nil)
	if !ok {
		writeError(w, errNotFound("orchestration rule "+id+" not found"))
		return
	}
	writeJSON(w, http.StatusOK, ruleAnswer{Rule: rule})
}

// setRuleStatus moves the rule id to status when its status is one of
// from (any, when from is empty), and returns it as it now is. ok is false
// when the emulator has no such rule; moved says whether it moved.
func (s *Server) setRuleStatus(id, status string, from []string) (OrchestrationRule, bool) {
	return s.changeRule(id, func(rule *OrchestrationRule) {
		if len(from) == 0 || slices.Contains(from, rule.Status) {
			rule.Status = status
		}
	})
}

// changeRule applies change to the rule id under the store's lock and
// returns the rule as it now is; false when the emulator has no such rule.
func (s *Server) changeRule(id string, change func(*OrchestrationRule)) (OrchestrationRule, bool) {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	rule := st.rules.byID[strings.ToLower(id)]
	if rule == nil {
		return OrchestrationRule{}, false
	}
	change(rule)
	return *rule, true
}

// SetOrchestrationRuleDestination replaces the destination of the rule
// id with d (nil: none, the deposits stay in the rule's profile), as a
// change made at the service outside the API would; it reports whether
// the emulator has the rule.
func (s *Server) SetOrchestrationRuleDestination(id string, d *OrchestrationRuleEndpoints) (OrchestrationRule, bool) {
	return s.changeRule(id, func(rule *OrchestrationRule) { rule.Destination = d })
}

// SetOrchestrationRuleStatus sets the status of the rule id (one of
// OrchestrationRuleStatuses), as the service's approval does; it reports
// whether the emulator has the rule.
func (s *Server) SetOrchestrationRuleStatus(id, status string) bool {
	_, ok := s.setRuleStatus(id, status, nil)
	return ok
}

// OrchestrationRules returns copies of the rules made through the API, in
// creation order.
func (s *Server) OrchestrationRules() []OrchestrationRule {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]OrchestrationRule, len(st.rules.all))
	for i, r := range st.rules.all {
		out[i] = *r
	}
	return out
}

// registerRuleAdmin adds the admin operations of rules: approve (PENDING
// to ACTIVE), reject (PENDING to REJECTED) and delete (any to DELETED),
// each answering the rule as it now is; a rule in another status than the
// move needs is a 409.
func (s *Server) registerRuleAdmin(mux adminRouter) {
	for _, op := range []struct {
		verb, status string
		from         []string
	}{
		{"approve", RuleActive, []string{RulePending}},
		{"reject", RuleRejected, []string{RulePending}},
		{"delete", RuleDeleted, nil},
	} {
		mux.HandleFunc("POST /admin/orchestration-rules/{id}/"+op.verb, func(w http.ResponseWriter, r *http.Request) {
			id := r.PathValue("id")
			rule, ok := s.setRuleStatus(id, op.status, op.from)
			switch {
			case !ok:
				writeError(w, errNotFound("orchestration rule "+id+" not found"))
			case rule.Status != op.status:
				writeError(w, &apiError{status: http.StatusConflict, body: ErrorBody{Code: "CONFLICT",
					Message: "orchestration rule " + id + " is " + rule.Status + "; only a PENDING rule can be " +
						op.verb + "d"}})
			default:
				writeJSON(w, http.StatusOK, rule)
			}
		})
	}
	mux.HandleFunc("POST /admin/orchestration-rules/{id}/destination", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Destination *OrchestrationRuleEndpoints `json:"destination"`
		}
		if e := decodeBody(r, &body); e != nil {
			writeError(w, e)
			return
		}
		if d := body.Destination; d != nil {
			n := 0
			for _, set := range []bool{d.Crypto != nil, d.Fiat != nil, d.Profile != nil} {
				if set {
					n++
				}
			}
			if n != 1 {
				writeError(w, errInvalid("destination", "must be exactly one of crypto, fiat or profile, or null"))
				return
			}
		}
		id := r.PathValue("id")
		rule, ok := s.SetOrchestrationRuleDestination(id, body.Destination)
		if !ok {
			writeError(w, errNotFound("orchestration rule "+id+" not found"))
			return
		}
		writeJSON(w, http.StatusOK, rule)
	})
}
