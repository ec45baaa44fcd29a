package emulator

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// listKind tells the lists apart inside a cursor.
type listKind byte

const (
	listFiatAccounts listKind = iota + 1
	listDepositAddresses
	listRewardClaims
	listConversions
)

// query parses and validates the query string of a list request. It keeps
// the first error, and a canonical form of the filters that cursors bind to.
type query struct {
	v     url.Values
	known map[string]bool
	canon []string
	err   *apiError
	// defaultLimit is the page size without limit, when the list's is not
	// defaultPageLimit (List Profiles: the largest page).
	defaultLimit int
}

func newQuery(r *http.Request) *query {
	q := &query{known: map[string]bool{}}
	v, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		q.err = errInvalid("", "query string cannot be parsed")
	}
	q.v = v
	return q
}

func (q *query) failed() bool { return q.err != nil }

func (q *query) fail(e *apiError) {
	if q.err == nil {
		q.err = e
	}
}

// single returns the value of a parameter that may be given at most once.
func (q *query) single(name string, canonical bool) (string, bool) {
	q.known[name] = true
	vals, ok := q.v[name]
	if !ok {
		return "", false
	}
	if len(vals) > 1 {
		q.fail(errInvalid(name, "must be given at most once"))
		return "", false
	}
	if vals[0] == "" {
		q.fail(errInvalid(name, "must not be empty"))
		return "", false
	}
	if canonical {
		q.canon = append(q.canon, name+"="+vals[0])
	}
	return vals[0], true
}

func (q *query) str(name string) string {
	v, _ := q.single(name, true)
	return v
}

// list returns an array parameter given as repeated keys and/or
// comma-separated values; enum, when set, lists the allowed values.
func (q *query) list(name string, enum []string) []string {
	q.known[name] = true
	raw, ok := q.v[name]
	if !ok {
		return nil
	}
	var out []string
	for _, r := range raw {
		for _, v := range strings.Split(r, ",") {
			if v == "" {
				q.fail(errInvalid(name, "values must not be empty"))
				return nil
			}
			if enum != nil && !slices.Contains(enum, v) {
				q.fail(errInvalid(name, "values must be among %s, got %q", strings.Join(enum, ", "), v))
				return nil
			}
			out = append(out, v)
		}
	}
	if len(out) > maxFilterValues {
		q.fail(errInvalid(name, "at most %d values are allowed, got %d", maxFilterValues, len(out)))
		return nil
	}
	c := slices.Clone(out)
	slices.Sort(c)
	q.canon = append(q.canon, name+"="+strings.Join(slices.Compact(c), ","))
	return out
}

func (q *query) time(name string) *time.Time {
	v, ok := q.single(name, true)
	if !ok {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		q.fail(errInvalid(name, "must be an RFC 3339 date-time such as 2024-01-02T15:04:05Z, got %q", v))
		return nil
	}
	return &t
}

func (q *query) boolean(name string) bool {
	v, ok := q.single(name, true)
	if !ok {
		return false
	}
	switch v {
	case "true":
		return true
	case "false":
		return false
	}
	q.fail(errInvalid(name, "must be true or false, got %q", v))
	return false
}

func (q *query) enum(name string, allowed []string) string {
	v, ok := q.single(name, true)
	if ok && !slices.Contains(allowed, v) {
		q.fail(errInvalid(name, "must be one of %s, got %q", strings.Join(allowed, ", "), v))
	}
	return v
}

func (q *query) limit() int {
	def := defaultPageLimit
	if q.defaultLimit > 0 {
		def = q.defaultLimit
	}
	v, ok := q.single("limit", false)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maxPageLimit {
		q.fail(errInvalid("limit", "must be an integer from 1 to %d, got %q", maxPageLimit, v))
		return def
	}
	return n
}

// finish rejects unknown parameters and returns the first error.
func (q *query) finish() *apiError {
	if q.err != nil {
		return q.err
	}
	names := make([]string, 0, len(q.v))
	for k := range q.v {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if !q.known[k] {
			return errInvalid(k, "unknown query parameter")
		}
	}
	return nil
}

// filterHash is the hash of the canonical filters a cursor is bound to.
func (q *query) filterHash() uint64 {
	c := slices.Clone(q.canon)
	slices.Sort(c)
	sum := sha256.Sum256([]byte(strings.Join(c, "&")))
	return binary.BigEndian.Uint64(sum[:8])
}

// Cursors: base64url(kind | position | filter hash | MAC), where position is
// the index of the next item to examine and the MAC is an HMAC-SHA256 with a
// key drawn when the emulator starts.
const (
	cursorPayload = 1 + 4 + 8
	cursorMAC     = 12
)

func (st *store) cursorMAC(payload []byte) []byte {
	m := hmac.New(sha256.New, st.cursorKey)
	m.Write(payload)
	return m.Sum(nil)[:cursorMAC]
}

func (st *store) encodeCursor(kind listKind, pos int, hash uint64) string {
	b := make([]byte, cursorPayload, cursorPayload+cursorMAC)
	b[0] = byte(kind)
	binary.BigEndian.PutUint32(b[1:5], uint32(pos)) //nolint:gosec // Positions are below the data set size.
	binary.BigEndian.PutUint64(b[5:13], hash)
	b = append(b, st.cursorMAC(b)...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// page_cursor is validated after the filters, since it binds to them.
func (st *store) decodeCursor(q *query, kind listKind, n int) (int, bool, *apiError) {
	c, ok := q.single("page_cursor", false)
	if q.failed() || !ok {
		return 0, false, nil
	}
	bad := errInvalid("page_cursor", "is not a cursor issued by this server for this list")
	b, err := base64.RawURLEncoding.Strict().DecodeString(c)
	if err != nil || len(b) != cursorPayload+cursorMAC || !hmac.Equal(b[cursorPayload:], st.cursorMAC(b[:cursorPayload])) {
		return 0, false, bad
	}
	if listKind(b[0]) != kind {
		return 0, false, bad
	}
	if binary.BigEndian.Uint64(b[5:13]) != q.filterHash() {
		return 0, false, errInvalid("page_cursor", "was issued for different filters; repeat the filters of the first page")
	}
	pos := int(binary.BigEndian.Uint32(b[1:5]))
	if pos >= n {
		return 0, false, bad
	}
	return pos, true, nil
}

// createdAtFilter holds the created_at.* parameters.
type createdAtFilter struct {
	lt, lte, eq, gte, gt *time.Time
}

func parseCreatedAt(q *query) createdAtFilter {
	return createdAtFilter{
		lt:  q.time("created_at.lt"),
		lte: q.time("created_at.lte"),
		eq:  q.time("created_at.eq"),
		gte: q.time("created_at.gte"),
		gt:  q.time("created_at.gt"),
	}
}

func (f *createdAtFilter) match(t time.Time) bool {
	return (f.lt == nil || t.Before(*f.lt)) &&
		(f.lte == nil || !t.After(*f.lte)) &&
		(f.eq == nil || t.Equal(*f.eq)) &&
		(f.gte == nil || !t.Before(*f.gte)) &&
		(f.gt == nil || t.After(*f.gt))
}

func set(vals []string) map[string]bool {
	if len(vals) == 0 {
		return nil
	}
	m := make(map[string]bool, len(vals))
	for _, v := range vals {
		m[v] = true
	}
	return m
}

// inSet reports whether v passes the filter m (nil means no filter).
func inSet(m map[string]bool, v *string) bool {
	if m == nil {
		return true
	}
	return v != nil && m[*v]
}

// pageOf walks n items from start (downwards when desc) and returns the
// indexes of up to limit matching items and, when more match, the position
// of the next one.
func pageOf(n, start, limit int, desc bool, match func(int) bool) (idx []int, next int, more bool) {
	step := 1
	if desc {
		step = -1
	}
	idx = make([]int, 0, min(limit, n))
	for i := start; i >= 0 && i < n; i += step {
		if !match(i) {
			continue
		}
		if len(idx) == limit {
			return idx, i, true
		}
		idx = append(idx, i)
	}
	return idx, 0, false
}

// listOrder parses order and order_by of the fiat account and deposit
// address lists and reports whether the order is descending.
func listOrder(q *query) bool {
	order := q.enum("order", []string{"DESC", "ASC"})
	q.enum("order_by", []string{"CREATED_AT"})
	return order != "ASC"
}

// jsonCache holds the encoded form of each item of an immutable list.
type jsonCache struct {
	b []atomic.Pointer[[]byte]
}

func newJSONCache(n int) *jsonCache { return &jsonCache{b: make([]atomic.Pointer[[]byte], n)} }

// get returns the JSON of item i, encoding v on first use.
func (c *jsonCache) get(i int, v any) []byte {
	if p := c.b[i].Load(); p != nil {
		return *p
	}
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte("null")
	}
	c.b[i].Store(&b)
	return b
}

// servePage runs one list request over items; cache, when not nil, holds
// their encoded form.
func servePage[T any](w http.ResponseWriter, st *store, q *query, kind listKind, items []T, cache *jsonCache, desc bool, match func(int) bool) {
	servePageAt(w, st, q, kind, len(items), func(i int) *T { return &items[i] }, cache, desc, match)
}

// servePageAt runs one list request over the n items at(0) … at(n-1);
// cache, when not nil, holds the encoded form of its first items.
func servePageAt[T any](w http.ResponseWriter, st *store, q *query, kind listKind, n int, at func(int) *T, cache *jsonCache, desc bool, match func(int) bool) {
	b, e := pageBodyAt(st, q, kind, "items", n, at, cache, desc, match)
	if e != nil {
		writeError(w, e)
		return
	}
	writeRawJSON(w, http.StatusOK, b)
}

// serveLockedPage runs one list request over the items of reads, which it
// reads and matches under the store's lock; the array of the answer is
// named key, and the answer is written once the lock is released.
func serveLockedPage[T any](w http.ResponseWriter, st *store, q *query, kind listKind, key string, reads func(*store) []T, desc bool, match func(T) bool) {
	st.mu.Lock()
	items := reads(st)
	b, e := pageBody(st, q, kind, key, items, nil, desc, func(i int) bool { return match(items[i]) })
	st.mu.Unlock()
	if e != nil {
		writeError(w, e)
		return
	}
	writeRawJSON(w, http.StatusOK, b)
}

// pageBody is the answer of one list request over items, whose array is
// named key: {"<key>":[...],"next_page_cursor":"..."}.
func pageBody[T any](st *store, q *query, kind listKind, key string, items []T, cache *jsonCache, desc bool, match func(int) bool) ([]byte, *apiError) {
	return pageBodyAt(st, q, kind, key, len(items), func(i int) *T { return &items[i] }, cache, desc, match)
}

// pageBodyAt is pageBody over the n items at(0) … at(n-1).
func pageBodyAt[T any](st *store, q *query, kind listKind, key string, n int, at func(int) *T, cache *jsonCache, desc bool, match func(int) bool) ([]byte, *apiError) {
	limit := q.limit()
	pos, hasCursor, cerr := st.decodeCursor(q, kind, n)
	if e := q.finish(); e != nil {
		return nil, e
	}
	if cerr != nil {
		return nil, cerr
	}
	if !hasCursor {
		pos = 0
		if desc {
			pos = n - 1
		}
	}
	idx, next, more := pageOf(n, pos, limit, desc, match)
	cursor := ""
	if more {
		cursor = st.encodeCursor(kind, next, q.filterHash())
	}
	// Cursors are base64url and need no escaping.
	var buf bytes.Buffer
	buf.WriteString(`{"` + key + `":[`)
	for k, j := range idx {
		if k > 0 {
			buf.WriteByte(',')
		}
		buf.Write(encodeItem(cache, j, at(j)))
	}
	buf.WriteString(`],"next_page_cursor":"`)
	buf.WriteString(cursor)
	buf.WriteString(`"}`)
	return buf.Bytes(), nil
}

func (s *Server) handleListFiatAccounts(w http.ResponseWriter, r *http.Request, _ string) {
	q := newQuery(r)
	ids := set(q.list("ids", nil))
	refIDs := set(q.list("ref_ids", nil))
	includeDeleted := q.boolean("include_deleted")
	created := parseCreatedAt(q)
	desc := listOrder(q)
	items, cache := s.data.fiatAccounts, s.data.fiatJSON
	if made := s.data.listedMadeAccounts(); made != nil {
		// Accounts made through the API follow the seeded ones; they change,
		// so this view is encoded afresh (the cache holds seeded items only).
		items, cache = append(items[:len(items):len(items)], made...), nil
	}
	servePage(w, s.data, q, listFiatAccounts, items, cache, desc, func(i int) bool {
		a := &items[i]
		return (includeDeleted || !a.Deleted) &&
			(ids == nil || ids[a.ID]) &&
			inSet(refIDs, a.RefID) &&
			created.match(a.CreatedAt)
	})
}

func (s *Server) handleListDepositAddresses(w http.ResponseWriter, r *http.Request, _ string) {
	q := newQuery(r)
	profiles := set(q.list("profile_ids", nil))
	identities := set(q.list("identity_ids", nil))
	ids := set(q.list("ids", nil))
	refIDs := set(q.list("ref_ids", nil))
	accounts := set(q.list("account_ids", nil))
	networks := set(q.list("networks", cryptoNetworks))
	created := parseCreatedAt(q)
	desc := listOrder(q)
	// The seeded addresses, then those made through the API; only the
	// seeded ones have their JSON cached.
	seeded, made := s.data.depositAddresses, s.data.createdDepositAddresses()
	at := func(i int) *DepositAddress {
		if i < len(seeded) {
			return &seeded[i]
		}
		return &made[i-len(seeded)]
	}
	servePageAt(w, s.data, q, listDepositAddresses, len(seeded)+len(made), at, s.data.addressJSON, desc, func(i int) bool {
		d := at(i)
		return (profiles == nil || profiles[d.ProfileID]) &&
			inSet(identities, d.IdentityID) &&
			(ids == nil || ids[d.ID]) &&
			inSet(refIDs, d.RefID) &&
			(accounts == nil || accounts[d.AccountID]) &&
			(networks == nil || networks[d.CryptoNetwork]) &&
			created.match(d.CreatedAt)
	})
}

func (s *Server) handleListRewardClaims(w http.ResponseWriter, r *http.Request, _ string) {
	q := newQuery(r)
	group := q.str("payout_group_id")
	// statuses, as the API reference names it; onchain_statuses, as the
	// spec does, is accepted too.
	statuses := set(append(q.list("statuses", onchainStatuses), q.list("onchain_statuses", onchainStatuses)...))
	assetType := q.str("asset_type")
	chain := q.str("chain")
	jurisdiction := q.str("jurisdiction")
	start := q.time("start_time")
	end := q.time("end_time")
	if start != nil && end != nil && start.After(*end) {
		q.fail(errInvalid("start_time", "must not be after end_time"))
	}
	items := s.data.rewardClaims
	servePage(w, s.data, q, listRewardClaims, items, s.data.claimJSON, true, func(i int) bool {
		c := &items[i]
		return (group == "" || c.PayoutGroupID == group) &&
			(statuses == nil || statuses[c.OnchainStatus]) &&
			(assetType == "" || c.AssetType == assetType) &&
			(chain == "" || c.Blockchain == chain) &&
			(jurisdiction == "" || c.Jurisdiction == jurisdiction) &&
			(start == nil || !c.CreatedAt.Before(*start)) &&
			(end == nil || !c.CreatedAt.After(*end))
	})
}
