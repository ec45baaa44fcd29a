package emulator

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// The reads of transfers and of fiat deposit instructions that the API
// reference publishes and the spec leaves out:
//
//	GET /transfer/transfers/{id}               transfer:read_transfer
//	GET /transfer/transfers                    transfer:read_transfer
//	GET /transfer/fiat-deposit-instructions    transfer:read_fiat_deposit_instructions
//
// The transfers are the seeded ones (Options.Transfers) followed by those
// made through the API; SetTransferStatus (and the admin API) moves one
// from PENDING to COMPLETED or FAILED.

const (
	pathTransfers     = "/v2/transfer/transfers"
	scopeReadTransfer = "transfer:read_transfer"
)

const (
	listTransfers listKind = iota + 10
	listInstructions
)

// Transfer types, statuses and orders of the list filters. The types are
// those the reference lists; the service adds more, so an unknown type
// matches nothing instead of being refused.
var (
	transferStatuses = []string{"PENDING", "COMPLETED", "FAILED"}
	seededTypes      = []string{
		"CRYPTO_DEPOSIT", "CRYPTO_WITHDRAWAL", "WIRE_DEPOSIT", "WIRE_WITHDRAWAL",
		"INTERNAL_TRANSFER_DEBIT", "INTERNAL_TRANSFER_CREDIT", "RTP_DEPOSIT",
	}
)

// streamTransfers is the generator stream of seeded transfers.
const streamTransfers uint64 = 6

// seedTransfers makes n transfers of several types, one a minute from
// seedEpoch.
func seedTransfers(seed int64, n int, customerID string) []Transfer {
	g := newGen(seed, streamTransfers)
	profiles := []string{g.uuid(), g.uuid(), g.uuid()}
	identities := []string{g.uuid(), g.uuid(), g.uuid(), g.uuid()}
	accounts := []string{g.uuid(), g.uuid(), g.uuid(), g.uuid()}
	groups := []string{g.uuid(), g.uuid()}
	assets := []string{"BTC", "ETH", "USDC", "SOL"}
	networks := map[string]string{"BTC": "BITCOIN", "ETH": "ETHEREUM", "USDC": "ETHEREUM", "SOL": "SOLANA"}
	out := make([]Transfer, n)
	for i := range out {
		t := &out[i]
		t.ID = g.uuid()
		t.CustomerID = customerID
		t.ProfileID = profiles[g.intn(len(profiles))]
		t.Type = g.pick(seededTypes)
		t.Status = g.pick(transferStatuses)
		t.CreatedAt = g.timeAt(i, time.Minute)
		t.UpdatedAt = t.CreatedAt.Add(time.Duration(g.intn(3600)) * time.Second)
		t.IdentityID = ptr(identities[g.intn(len(identities))])
		t.AccountID = ptr(accounts[g.intn(len(accounts))])
		if g.chance(70) {
			t.RefID = ptr("transfer-" + strconv.Itoa(i+1))
		}
		t.Asset = "USD"
		fee := decimal.Zero
		t.Direction = "CREDIT"
		switch t.Type {
		case "CRYPTO_DEPOSIT", "CRYPTO_WITHDRAWAL":
			t.Asset = g.pick(assets)
			t.CryptoNetwork = ptr(networks[t.Asset])
			t.DestinationAddress = ptr(g.addressFor(*t.CryptoNetwork))
			if t.Status != "PENDING" {
				t.CryptoTxHash = ptr("0x" + g.hex(64))
				t.CryptoTxIndex = ptr(strconv.Itoa(g.intn(8)))
			}
			if t.Type == "CRYPTO_WITHDRAWAL" {
				fee = WithdrawalFee(t.Asset)
			}
		case "INTERNAL_TRANSFER_DEBIT", "INTERNAL_TRANSFER_CREDIT":
			t.GroupID = ptr(groups[g.intn(len(groups))])
		}
		if strings.HasSuffix(t.Type, "WITHDRAWAL") || strings.HasSuffix(t.Type, "DEBIT") {
			t.Direction = "DEBIT"
		}
		amount := decimal.RequireFromString(g.decimal(100, 4))
		t.Amount = amount.String()
		t.Fee = fee.String()
		t.Total = amount.Add(fee).String()
		notional := amount.Add(fee).Mul(usdPrice(t.Asset)).StringFixed(2)
		t.NotionalValue = &notional
		t.AutoConversion = map[string]any{}
		if t.Status == "FAILED" {
			t.StatusDetails = failedDetails(t.DestinationAddress)
		}
		if g.chance(40) {
			t.Metadata = map[string]string{"batch": "batch-" + strconv.Itoa(i%7)}
		}
	}
	return out
}

// SetTransferStatus moves the transfer id made through the API (a crypto or
// fiat withdrawal, or one side of an internal transfer, each side on its
// own) to status (PENDING, COMPLETED or FAILED), with the on-chain hash
// txHash when not empty and the transfer is a crypto one, as the service
// does when the network confirms or rejects it. Balances do not move. It
// reports whether the emulator knows the transfer.
func (s *Server) SetTransferStatus(id, status, txHash string) bool {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	if r, ok := st.transferByID[id]; ok {
		r.t.Status = status
		r.t.UpdatedAt = s.now().UTC().Truncate(time.Microsecond)
		if txHash != "" && r.t.CryptoNetwork != nil {
			r.t.CryptoTxHash = ptr(txHash)
			r.t.CryptoTxIndex = ptr("0")
		}
		r.t.SecondaryStatus = nil
		r.t.StatusDetails = nil
		if status == "FAILED" {
			r.t.StatusDetails = failedDetails(r.t.DestinationAddress)
		}
		return true
	}
	return false
}

// BackdateTransfer moves the created_at and updated_at of a transfer made
// through the API back by d, as if it had been made d earlier (users
// rehearse a cap over time with it); false when there is none.
func (s *Server) BackdateTransfer(id string, d time.Duration) bool {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	r, ok := st.transferByID[id]
	if !ok {
		return false
	}
	r.t.CreatedAt = r.t.CreatedAt.Add(-d)
	r.t.UpdatedAt = r.t.UpdatedAt.Add(-d)
	return true
}

// AllTransfers returns the seeded transfers followed by those made through
// the API, in creation order, as List Transfers serves them.
func (s *Server) AllTransfers() []Transfer { return s.data.allTransfers() }

// allTransfers is the seeded transfers followed by a copy of those made
// through the API.
func (st *store) allTransfers() []Transfer {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]Transfer, 0, len(st.seededTransfers)+len(st.transfers))
	out = append(out, st.seededTransfers...)
	for _, r := range st.transfers {
		out = append(out, r.t)
	}
	return out
}

// transfer is the transfer id, seeded or made through the API.
func (st *store) transfer(id string) (Transfer, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if r, ok := st.transferByID[id]; ok {
		return r.t, true
	}
	if i, ok := st.seededTransferByID[id]; ok {
		return st.seededTransfers[i], true
	}
	return Transfer{}, false
}

func (s *Server) handleGetTransfer(w http.ResponseWriter, _ *http.Request, id string) {
	if t, ok := s.data.transfer(id); ok {
		writeJSON(w, http.StatusOK, t)
		return
	}
	writeError(w, errNotFound("transfer "+id+" not found"))
}

// exclusiveFilters fails q when one of the alone filters is given with
// another of filters: the reference says each of them "can be combined
// with created_at.* or updated_at.* filtering options only".
func exclusiveFilters(q *query, alone []string, filters ...string) {
	for _, a := range alone {
		if len(q.v[a]) == 0 {
			continue
		}
		for _, f := range filters {
			if f != a && len(q.v[f]) > 0 {
				q.fail(errInvalid(a, "can be combined with created_at.* or updated_at.* filtering options only, not with %s", f))
				return
			}
		}
	}
}

// timeFilter holds the {lt,lte,eq,gte,gt} parameters of one time field.
func parseTimeFilter(q *query, field string) createdAtFilter {
	return createdAtFilter{
		lt:  q.time(field + ".lt"),
		lte: q.time(field + ".lte"),
		eq:  q.time(field + ".eq"),
		gte: q.time(field + ".gte"),
		gt:  q.time(field + ".gt"),
	}
}

func (s *Server) handleListTransfers(w http.ResponseWriter, r *http.Request, _ string) {
	q := newQuery(r)
	ids := set(q.list("ids", nil))
	refIDs := set(q.list("ref_ids", nil))
	profiles := set(q.list("profile_ids", nil))
	identities := set(q.list("identity_ids", nil))
	accounts := set(q.list("account_ids", nil))
	groups := set(q.list("group_ids", nil))
	hashes := set(q.list("crypto_tx_hashes", nil))
	types := set(q.list("type", nil))
	statuses := set(q.list("statuses", transferStatuses))
	created := parseTimeFilter(q, "created_at")
	updated := parseTimeFilter(q, "updated_at")
	desc := q.enum("order", []string{"DESC", "ASC"}) != "ASC"
	byUpdated := q.enum("order_by", []string{"CREATED_AT", "UPDATED_AT"}) == "UPDATED_AT"
	exclusiveFilters(q, []string{"ids", "ref_ids", "type", "profile_ids", "identity_ids", "account_ids"}, "ids", "ref_ids",
		"profile_ids", "identity_ids", "account_ids", "group_ids", "crypto_tx_hashes", "type", "statuses", "secondary_statuses")
	hasCreated, hasUpdated := created != (createdAtFilter{}), updated != (createdAtFilter{})
	if ob := q.v.Get("order_by"); ob == "CREATED_AT" && hasUpdated || ob == "UPDATED_AT" && hasCreated {
		q.fail(errInvalid("order_by", "must equal the timestamp filter type"))
	}
	items := s.data.allTransfers()
	// Stable order: by the ordering time, then by position.
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	key := func(i int) time.Time {
		if byUpdated {
			return items[i].UpdatedAt
		}
		return items[i].CreatedAt
	}
	slices.SortStableFunc(idx, func(a, b int) int { return key(a).Compare(key(b)) })
	sorted := make([]Transfer, len(items))
	for n, i := range idx {
		sorted[n] = items[i]
	}
	servePage(w, s.data, q, listTransfers, sorted, nil, desc, func(i int) bool {
		t := &sorted[i]
		return (ids == nil || ids[t.ID]) &&
			inSet(refIDs, t.RefID) &&
			(profiles == nil || profiles[t.ProfileID]) &&
			inSet(identities, t.IdentityID) &&
			inSet(accounts, t.AccountID) &&
			inSet(groups, t.GroupID) &&
			inSet(hashes, t.CryptoTxHash) &&
			(types == nil || types[t.Type]) &&
			(statuses == nil || statuses[t.Status]) &&
			created.match(t.CreatedAt) &&
			updated.match(t.UpdatedAt)
	})
}

func (s *Server) handleListInstructions(w http.ResponseWriter, r *http.Request, _ string) {
	q := newQuery(r)
	ids := set(q.list("ids", nil))
	refIDs := set(q.list("ref_ids", nil))
	created := parseCreatedAt(q)
	desc := q.enum("order", []string{"DESC", "ASC"}) != "ASC"
	st := s.data
	st.mu.Lock()
	items := make([]FiatDepositInstructions, 0, len(st.instructions))
	for _, rec := range st.instructions {
		if !rec.deleted {
			items = append(items, rec.fdi)
		}
	}
	st.mu.Unlock()
	servePage(w, st, q, listInstructions, items, nil, desc, func(i int) bool {
		f := &items[i]
		return (ids == nil || ids[f.ID]) && inSet(refIDs, f.RefID) && created.match(f.CreatedAt)
	})
}

// encodeItem is the JSON of one list item, from cache when there is one.
func encodeItem(cache *jsonCache, i int, v any) []byte {
	if cache != nil && i < len(cache.b) {
		return cache.get(i, v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}

// failedDetails are the status_details of a FAILED transfer, of a shape
// the reference publishes (invalid_destination_address).
func failedDetails(address *string) map[string]any {
	d := map[string]any{"message": "the destination address cannot receive the asset"}
	if address != nil {
		d["destination_address"] = *address
	}
	return map[string]any{"invalid_destination_address": d}
}
