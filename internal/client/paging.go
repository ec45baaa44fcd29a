package client

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// claimsDefaultPage is the page size assumed for List claims. The spec
// shows neither a default nor a maximum for that limit, so the client never
// asks for more than the server's own default: it sends no limit at all,
// except to ask for fewer items when MaxItems leaves fewer than this many
// to fetch. 100 is the default of the other lists of the service; a limit
// at or below a list's default page is accepted by any paging server.
const claimsDefaultPage = 100

// FiatAccounts lists the fiat accounts matching q, following the cursors to
// the end with the largest page the service allows. Iteration stops at the
// first error, which is yielded with a nil item.
func (c *Client) FiatAccounts(ctx context.Context, q ListFiatAccountsQuery) iter.Seq2[*FiatAccount, error] {
	v, err := listQuery(map[string][]string{"ids": q.IDs, "ref_ids": q.RefIDs}, q.CreatedAt, q.Order)
	if q.IncludeDeleted != nil {
		v.Set("include_deleted", strconv.FormatBool(*q.IncludeDeleted))
	}
	return list[FiatAccount](ctx, c, listCall{
		path: PathFiatAccounts, scope: ScopeReadFiatAccount, query: v,
		maxItems: q.MaxItems, pageSize: maxPageSize, err: err,
	})
}

// DepositAddresses lists the crypto deposit addresses matching q, following
// the cursors to the end with the largest page the service allows.
func (c *Client) DepositAddresses(ctx context.Context, q ListDepositAddressesQuery) iter.Seq2[*DepositAddress, error] {
	v, err := listQuery(map[string][]string{
		"profile_ids": q.ProfileIDs, "identity_ids": q.IdentityIDs, "ids": q.IDs,
		"ref_ids": q.RefIDs, "account_ids": q.AccountIDs, "networks": q.Networks,
	}, q.CreatedAt, q.Order)
	return list[DepositAddress](ctx, c, listCall{
		path: PathDepositAddresses, scope: ScopeReadDepositAddress, query: v,
		maxItems: q.MaxItems, pageSize: maxPageSize, err: err,
	})
}

// RewardClaims lists the reward claims matching q, following the cursors to
// the end.
func (c *Client) RewardClaims(ctx context.Context, q ListRewardClaimsQuery) iter.Seq2[*RewardClaim, error] {
	v := url.Values{}
	if q.PayoutGroupID != "" {
		v.Set("payout_group_id", q.PayoutGroupID)
	}
	// The on-chain status filter's query key is statuses, as the API
	// reference publishes it (the spec calls it onchain_statuses).
	err := addArrays(v, map[string][]string{"statuses": q.OnchainStatuses})
	if q.AssetType != "" {
		v.Set("asset_type", q.AssetType)
	}
	if q.Chain != "" {
		v.Set("chain", q.Chain)
	}
	if q.Jurisdiction != "" {
		v.Set("jurisdiction", q.Jurisdiction)
	}
	if !q.StartTime.IsZero() {
		v.Set("start_time", formatTime(q.StartTime))
	}
	if !q.EndTime.IsZero() {
		v.Set("end_time", formatTime(q.EndTime))
	}
	return list[RewardClaim](ctx, c, listCall{
		path: PathRewardClaims, scope: ScopeReadRewardClaims, query: v,
		maxItems: q.MaxItems, pageSize: claimsPageSize, err: err,
	})
}

// maxPageSize asks for the largest page (MaxPageLimit), or for just the
// remaining items when MaxItems leaves fewer (remaining < 0: no cap).
func maxPageSize(remaining int) int {
	if remaining >= 0 && remaining < MaxPageLimit {
		return remaining
	}
	return MaxPageLimit
}

// claimsPageSize sends no limit (0) unless fewer than claimsDefaultPage
// items remain to be fetched; see claimsDefaultPage.
func claimsPageSize(remaining int) int {
	if remaining >= 0 && remaining < claimsDefaultPage {
		return remaining
	}
	return 0
}

// formatTime renders t in RFC 3339 in UTC, with as many fractional digits
// as t carries (none for whole seconds).
func formatTime(t time.Time) string {
	return t.UTC().Format(time.RFC3339Nano)
}

// listQuery is the query of a list read: its array filters (each of at
// most MaxFilterValues values), its created_at bounds and its order ("",
// ASC or DESC), with the first error of the filters and the order.
func listQuery(arrays map[string][]string, created CreatedAtFilter, order string) (url.Values, error) {
	v := url.Values{}
	err := addArrays(v, arrays)
	if err == nil {
		err = checkOrder(order)
	}
	addTimeFilter(v, "created_at", created)
	if order != "" {
		v.Set("order", order)
	}
	return v, err
}

// setOrderBy sets order_by (when given) and checks it is one of allowed.
func setOrderBy(v url.Values, orderBy string, allowed ...string) error {
	if orderBy == "" {
		return nil
	}
	v.Set("order_by", orderBy)
	if !slices.Contains(allowed, orderBy) {
		return fmt.Errorf("order_by must be %s, got %q", strings.Join(allowed, " or "), orderBy)
	}
	return nil
}

// addArrays adds each array filter as repeated query keys (ids=a&ids=b).
func addArrays(v url.Values, arrays map[string][]string) error {
	var err error
	for k, vals := range arrays {
		if len(vals) > MaxFilterValues {
			err = errors.Join(err, fmt.Errorf("filter %s has %d values, at most %d are allowed", k, len(vals), MaxFilterValues))
			continue
		}
		for _, s := range vals {
			v.Add(k, s)
		}
	}
	return err
}

func checkOrder(o string) error {
	if o == "" {
		return nil
	}
	for _, ok := range Orders {
		if o == ok {
			return nil
		}
	}
	return fmt.Errorf("order must be ASC or DESC, got %q", o)
}

// ListLimits are the ceilings of one list read. Only a repeated cursor
// ends a list otherwise, so a service (or anything between) that keeps
// answering pages with fresh cursors would page on until memory runs out;
// Terraform sets no deadline on a data source's read.
type ListLimits struct {
	// MaxItems is the most items one read takes (default
	// DefaultMaxListItems).
	MaxItems int
	// MaxPages is the most pages one read takes (default
	// DefaultMaxListPages).
	MaxPages int
	// MaxEmptyPages is the most pages in a row without items that still
	// carry a cursor (default DefaultMaxEmptyPages).
	MaxEmptyPages int
	// MaxBytes is the most bytes of pages one read takes (default
	// DefaultMaxListBytes).
	MaxBytes int64
}

// The default ceilings of a list read: room for the largest honest lists
// (a million reward claims in pages of 100), and a size a CI runner can
// hold, with the state Terraform builds of it.
const (
	DefaultMaxListItems  = 2_000_000
	DefaultMaxListPages  = 25_000
	DefaultMaxEmptyPages = 20
	// DefaultMaxListBytes bounds the answers of one list read at 512
	// MiB, a size a CI runner can hold with the state Terraform builds of
	// them (documented with max_items).
	DefaultMaxListBytes int64 = 512 << 20
	// maxItemBytes bounds the size of one item of a page (on average over
	// the page): no object of the service comes near it.
	maxItemBytes = 1 << 20
)

func (l ListLimits) withDefaults() ListLimits {
	if l.MaxItems <= 0 {
		l.MaxItems = DefaultMaxListItems
	}
	if l.MaxPages <= 0 {
		l.MaxPages = DefaultMaxListPages
	}
	if l.MaxEmptyPages <= 0 {
		l.MaxEmptyPages = DefaultMaxEmptyPages
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxListBytes
	}
	return l
}

// ErrListTooLong is the error of a list read that reached a ceiling.
var ErrListTooLong = errors.New("list read stopped at its ceiling")

// listCall describes one list operation.
type listCall struct {
	path     string
	scope    string
	query    url.Values
	maxItems int
	// pageSize returns the limit to send given the number of items still
	// wanted (-1: no cap); 0 means send no limit.
	pageSize func(remaining int) int
	// err is a validation error of the query, reported before any request.
	err error
	// itemsKey names the items of a page; empty: "items".
	itemsKey string
}

// list is the one paging iterator of the client. It follows
// next_page_cursor until it is empty or absent, fails on a cursor that
// repeats, stops after maxItems items (asking for no more than needed),
// decodes one page at a time and stops as soon as the consumer breaks.
func list[T any](ctx context.Context, c *Client, lc listCall) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		if lc.err != nil {
			yield(nil, fmt.Errorf("GET %s: %w", lc.path, lc.err))
			return
		}
		if lc.maxItems < 0 {
			yield(nil, fmt.Errorf("GET %s: max items must not be negative, got %d", lc.path, lc.maxItems))
			return
		}
		seen := map[string]int{}
		cursor := ""
		count, empty := 0, 0
		var read int64
		limits := c.listLimits
		for pageNo := 1; ; pageNo++ {
			if pageNo > limits.MaxPages {
				yield(nil, fmt.Errorf("GET %s: %w: %d pages (%d items) read and the service still sends a next "+
					"page; no honest list of this provider is that long. Narrow the filters (or set max_items) "+
					"and check that the base_url names the service", lc.path, ErrListTooLong, limits.MaxPages, count))
				return
			}
			remaining := -1
			if lc.maxItems > 0 {
				remaining = lc.maxItems - count
			}
			q := url.Values{}
			for k, vs := range lc.query {
				q[k] = append([]string(nil), vs...)
			}
			if n := lc.pageSize(remaining); n > 0 {
				q.Set("limit", strconv.Itoa(n))
			}
			if cursor != "" {
				q.Set("page_cursor", cursor)
			}
			body, err := c.do(ctx, call{method: http.MethodGet, path: lc.path, query: q, scope: lc.scope, replaySafe: true, list: true})
			if err != nil {
				yield(nil, err)
				return
			}
			read += int64(len(body))
			if read > limits.MaxBytes {
				yield(nil, fmt.Errorf("GET %s: %w: %d bytes read in %d pages (%d items) and the service sends more; "+
					"no honest list of this provider is that large. Narrow the filters (or set max_items) and check "+
					"that the base_url names the service", lc.path, ErrListTooLong, read, pageNo, count))
				return
			}
			p, err := decodePage[T](body, lc.itemsKey)
			if err != nil {
				yield(nil, fmt.Errorf("GET %s: decoding page %d: %w", lc.path, pageNo, err))
				return
			}
			if len(body) > maxItemBytes*max(1, len(p.Items)) {
				yield(nil, fmt.Errorf("GET %s: %w: page %d holds %d items in %d bytes, more than %d bytes an item; no "+
					"object of the service is that large. Check that the base_url names the service", lc.path,
					ErrListTooLong, pageNo, len(p.Items), len(body), maxItemBytes))
				return
			}
			for _, it := range p.Items {
				if count >= limits.MaxItems {
					yield(nil, fmt.Errorf("GET %s: %w: %d items read and the service sends more; no honest list of "+
						"this provider is that long. Narrow the filters (or set max_items) and check that the "+
						"base_url names the service", lc.path, ErrListTooLong, limits.MaxItems))
					return
				}
				if !yield(it, nil) {
					return
				}
				count++
				if lc.maxItems > 0 && count >= lc.maxItems {
					return
				}
			}
			next := ""
			if p.NextPageCursor != nil {
				next = *p.NextPageCursor
			}
			if next == "" {
				return
			}
			if len(p.Items) == 0 {
				empty++
			} else {
				empty = 0
			}
			if empty >= limits.MaxEmptyPages {
				yield(nil, fmt.Errorf("GET %s: %w: %d pages in a row without items, each with a cursor to a "+
					"next page; the service is not making progress. Check that the base_url names the service",
					lc.path, ErrListTooLong, empty))
				return
			}
			if prev, dup := seen[next]; dup {
				yield(nil, fmt.Errorf("GET %s: the server returned the cursor %q again on page %d (first seen on page %d); stopping to avoid an endless loop",
					lc.path, cleanText(next, 80), pageNo, prev))
				return
			}
			seen[next] = pageNo
			cursor = next
		}
	}
}

// ListStablecoinConversionsQuery holds the filters of List Stablecoin
// Conversions.
type ListStablecoinConversionsQuery struct {
	// ProfileID is the profile of the conversions; "" for every profile.
	ProfileID string
	// CreatedFrom is created_at.begin, inclusive; zero: not sent.
	CreatedFrom time.Time
	MaxItems    int // 0: no cap
}

// StablecoinConversions lists the stablecoin conversions matching q,
// following the cursors to the end with the largest page the service
// allows.
func (c *Client) StablecoinConversions(ctx context.Context, q ListStablecoinConversionsQuery) iter.Seq2[*StablecoinConversion, error] {
	v := url.Values{}
	if q.ProfileID != "" {
		v.Set("profile_id", q.ProfileID)
	}
	if !q.CreatedFrom.IsZero() {
		v.Set("created_at.begin", formatTime(q.CreatedFrom))
	}
	return list[StablecoinConversion](ctx, c, listCall{
		path: PathStablecoinConversions, scope: ScopeReadStablecoinConversion, query: v,
		maxItems: q.MaxItems, pageSize: maxPageSize,
	})
}
