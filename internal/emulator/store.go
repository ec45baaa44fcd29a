package emulator

import (
	"crypto/rand"
	"slices"
	"sync"

	"github.com/shopspring/decimal"
)

// store holds the emulator's data. The seeded lists never change after
// newStore and are read without locking; objects created through the API
// live under mu.
type store struct {
	seed       int64
	customerID string

	fiatAccounts     []FiatAccount
	depositAddresses []DepositAddress
	rewardClaims     []RewardClaim
	conversions      []StablecoinConversion
	conversionByID   map[string]int
	seededTransfers  []Transfer
	// Encoded items of the lists, filled on first use.
	fiatJSON, addressJSON, claimJSON *jsonCache

	// closing is closed when the server closes; held answers end then.
	closing   chan struct{}
	closeOnce sync.Once

	// cursorKey signs page cursors so that only issued cursors are accepted.
	cursorKey []byte

	mu            sync.Mutex
	created       *gen // identifiers of objects created through the API
	transfers     []*transferRecord
	transferByRef map[string]*transferRecord
	// transferByID indexes the transfers made through the API, and
	// seededTransferByID the seeded ones (their position), so that a read
	// by id costs the same whatever the number of transfers.
	transferByID       map[string]*transferRecord
	seededTransferByID map[string]int
	instructions       []*instructionsRecord
	instrByID          map[string]*instructionsRecord
	instrByRef         map[string]*instructionsRecord
	memoIDs            map[string]bool
	// createdAddresses are the deposit addresses made through the API, in
	// creation order (listed after the seeded ones); addressByRef indexes
	// them by ref_id.
	createdAddresses []DepositAddress
	addressByRef     map[string]int
	// The address book: seeded addresses, then those added through the
	// API, in creation order; by id and by tupleKey.
	destAddrs   []*CryptoDestinationAddress
	destByID    map[string]*CryptoDestinationAddress
	destByTuple map[string]*CryptoDestinationAddress
	// rules are the orchestration rules made through the API.
	rules ruleBook
	// Fiat accounts made through Create Fiat Account, in creation order
	// (fiat_accounts.go); the seeded ones above never change.
	madeAccounts []*FiatAccount
	accountByID  map[string]*FiatAccount
	// The ref_ids of fiat withdrawals and of internal transfers (the
	// debit side), each operation its own namespace; transferByRef is the
	// crypto withdrawals'. Their transfers are in transfers too.
	fiatWithdrawalByRef map[string]*transferRecord
	internalByRef       map[string]*transferRecord
	// Stablecoin conversions made through the API, in creation order
	// (money_flows.go), by id and by ref_id; seededConversionByRef indexes
	// the seeded ones, whose ref_ids are taken too.
	madeConversions       []*StablecoinConversion
	madeConversionByID    map[string]*StablecoinConversion
	conversionByRef       map[string]*StablecoinConversion
	seededConversionByRef map[string]int
	// conversionDebits are the amounts the conversions made through the API
	// debited from a balance set, by id: what a cancel gives back.
	conversionDebits map[string]decimal.Decimal
	// balances are the balances set through SetBalance (balances.go).
	balances map[balanceKey]decimal.Decimal
	// profiles are the default profile, then those made through Create
	// Profile in creation order (profiles.go); profileByID indexes them.
	profiles    []*profileRecord
	profileByID map[string]*profileRecord
}

// streamCreated is the generator stream of objects created through the API.
const streamCreated uint64 = 100

type transferRecord struct {
	t Transfer
	// request is the canonical request body, compared on ref_id replay.
	request string
}

type instructionsRecord struct {
	fdi     FiatDepositInstructions
	request string
	deleted bool
}

func newStore(opts Options) *store {
	st := &store{
		seed:          opts.Seed,
		customerID:    derivedUUID(opts.Seed, "customer"),
		created:       newGen(opts.Seed, streamCreated),
		transferByRef: map[string]*transferRecord{},
		transferByID:  map[string]*transferRecord{},
		instrByID:     map[string]*instructionsRecord{},
		instrByRef:    map[string]*instructionsRecord{},
		memoIDs:       map[string]bool{},
		addressByRef:  map[string]int{},
		destByID:      map[string]*CryptoDestinationAddress{},
		destByTuple:   map[string]*CryptoDestinationAddress{},
		accountByID:   map[string]*FiatAccount{},
		cursorKey:     make([]byte, 32),
		closing:       make(chan struct{}),

		fiatWithdrawalByRef: map[string]*transferRecord{},
		internalByRef:       map[string]*transferRecord{},
		madeConversionByID:  map[string]*StablecoinConversion{},
		conversionByRef:     map[string]*StablecoinConversion{},
		conversionDebits:    map[string]decimal.Decimal{},
		balances:            map[balanceKey]decimal.Decimal{},
	}
	_, _ = rand.Read(st.cursorKey)
	st.seedProfiles()
	var wg sync.WaitGroup
	wg.Go(func() { st.fiatAccounts = seedFiatAccounts(opts.Seed, max(opts.FiatAccounts, 0)) })
	wg.Go(func() {
		st.depositAddresses = seedDepositAddresses(opts.Seed, max(opts.DepositAddresses, 0), st.customerID)
	})
	wg.Go(func() { st.rewardClaims = seedRewardClaims(opts.Seed, max(opts.RewardClaims, 0)) })
	wg.Go(func() { st.conversions = seedConversions(opts.Seed, max(opts.StablecoinConversions, 0)) })
	wg.Go(func() { st.seededTransfers = seedTransfers(opts.Seed, max(opts.Transfers, 0), st.customerID) })
	var seededDest []*CryptoDestinationAddress
	wg.Go(func() { seededDest = seedDestinationAddresses(opts.Seed, max(opts.CryptoDestinationAddresses, 0)) })
	wg.Wait()
	st.seededTransferByID = make(map[string]int, len(st.seededTransfers))
	for i := range st.seededTransfers {
		st.seededTransferByID[st.seededTransfers[i].ID] = i
	}
	for _, a := range seededDest {
		st.addDestinationAddress(a)
	}
	if !opts.FiatAccountStatusNested {
		publishFiatAccountStatus(st.fiatAccounts)
	}
	st.fiatJSON = newJSONCache(len(st.fiatAccounts))
	st.addressJSON = newJSONCache(len(st.depositAddresses))
	st.claimJSON = newJSONCache(len(st.rewardClaims))
	st.conversionByID = make(map[string]int, len(st.conversions))
	st.seededConversionByRef = make(map[string]int, len(st.conversions))
	for i := range st.conversions {
		st.conversionByID[st.conversions[i].ID] = i
		if ref := st.conversions[i].RefID; ref != nil {
			st.seededConversionByRef[*ref] = i
		}
	}
	return st
}

func (st *store) close() { st.closeOnce.Do(func() { close(st.closing) }) }

// CustomerID is the customer_id of every object the emulator serves.
func (s *Server) CustomerID() string { return s.data.customerID }

// FiatAccounts returns the seeded fiat accounts, deleted ones included, in
// creation order. The slice is a copy; the values must not be modified.
func (s *Server) FiatAccounts() []FiatAccount {
	return append([]FiatAccount(nil), s.data.fiatAccounts...)
}

// DepositAddresses returns the deposit addresses in creation order: the
// seeded ones, then those made through the API. The slice is a copy; the
// values must not be modified.
func (s *Server) DepositAddresses() []DepositAddress {
	return append(slices.Clip(s.data.depositAddresses), s.data.createdDepositAddresses()...)
}

// RewardClaims returns the seeded reward claims in creation order. The
// slice is a copy; the values must not be modified.
func (s *Server) RewardClaims() []RewardClaim {
	return append([]RewardClaim(nil), s.data.rewardClaims...)
}

// StablecoinConversions returns the seeded stablecoin conversions in
// creation order (MadeStablecoinConversions returns those made through the
// API). The slice is a copy; the values must not be modified.
func (s *Server) StablecoinConversions() []StablecoinConversion {
	return append([]StablecoinConversion(nil), s.data.conversions...)
}

// Transfers returns every transfer made through the API (crypto and fiat
// withdrawals, both sides of internal transfers), in creation order.
func (s *Server) Transfers() []Transfer {
	return lockedCopies(s.data, func(st *store) []*transferRecord { return st.transfers },
		func(r *transferRecord) Transfer { return r.t })
}

// lockedCopies is what of returns, read under the store's lock, each item
// copied by each: the copies a test may keep while the server runs.
func lockedCopies[E, T any](st *store, of func(*store) []E, each func(E) T) []T {
	st.mu.Lock()
	defer st.mu.Unlock()
	items := of(st)
	out := make([]T, len(items))
	for i, e := range items {
		out[i] = each(e)
	}
	return out
}

// SeededTransfers returns the seeded transfers (Options.Transfers), of
// every type, in creation order.
func (s *Server) SeededTransfers() []Transfer {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	return append([]Transfer(nil), st.seededTransfers...)
}

// FiatDepositInstructions returns the fiat deposit instructions created
// through the API and not deleted, in creation order.
func (s *Server) FiatDepositInstructions() []FiatDepositInstructions {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]FiatDepositInstructions, 0, len(st.instructions))
	for _, r := range st.instructions {
		if !r.deleted {
			out = append(out, r.fdi)
		}
	}
	return out
}

// DeprecateInstructions sets the status of the instructions id to
// DEPRECATED. It reports whether they exist.
func (s *Server) DeprecateInstructions(id string) bool {
	return s.data.changeInstructions(id, func(_ *store, r *instructionsRecord) { r.fdi.Status = "DEPRECATED" })
}

// changeInstructions applies change to the live instructions id under the
// store's lock; it reports whether they exist.
func (st *store) changeInstructions(id string, change func(*store, *instructionsRecord)) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	r := st.instrByID[id]
	if r != nil {
		change(st, r)
	}
	return r != nil
}

// DeleteInstructions removes the instructions id, as if deleted outside the
// API: Get answers 404 and their ref_id is free again. It reports whether
// they existed.
func (s *Server) DeleteInstructions(id string) bool {
	return s.data.changeInstructions(id, func(st *store, r *instructionsRecord) {
		r.deleted = true
		delete(st.instrByID, id)
		if r.fdi.RefID != nil && st.instrByRef[*r.fdi.RefID] == r {
			delete(st.instrByRef, *r.fdi.RefID)
		}
	})
}

// instructionsByID returns a copy of the live instructions id.
func (st *store) instructionsByID(id string) (FiatDepositInstructions, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	r := st.instrByID[id]
	if r == nil {
		return FiatDepositInstructions{}, false
	}
	return r.fdi, true
}
