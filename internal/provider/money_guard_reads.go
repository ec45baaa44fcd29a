package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// What the money guard reads of the service, once per process, and the
// tallies of the run it judges movements against.

const (
	guardConversionPrecision  = 8
	guardConversionDivisorExp = 18
)

// guardReads are what the rules read of the service, once per process.
type guardReads struct {
	// limits are read once per transfer type.
	limits readOnce[[]*client.TransferLimit]
	// The address book is read once per process.
	bookOnce sync.Once
	book     []client.CryptoDestinationAddress
	bookErr  error
	prices   sync.Map // market -> *priceEntry
	// fiatAccounts are the statuses of the fiat accounts read for
	// approved_destinations_only, by id.
	fiatAccounts readOnce[string]
	// balances are the profiles' balances read for check_balances, by
	// profile id.
	balances readOnce[[]client.ProfileBalance]
	// windows are what left each profile over a cap's window, read once
	// per phase (plan, send), cap and profile.
	windows readOnce[windowRead]
}

// addressBook reads the service's withdrawal address book once per
// process.
func (g *guardReads) addressBook(ctx context.Context, c *client.Client) ([]client.CryptoDestinationAddress, error) {
	g.bookOnce.Do(func() {
		g.book, g.bookErr = c.ListCryptoDestinationAddresses(ctx, client.ListCryptoDestinationAddressesQuery{})
		tflog.Debug(ctx, "address book read for the money guard", map[string]any{"addresses": len(g.book)})
	})
	return g.book, g.bookErr
}

// unreadable says why a read of the guard failed: err, and, when the
// credentials lack its scope, which scope it (or them) needs.
func unreadable(err error, it, scope string) string {
	if !scopeRefused(err) {
		return err.Error()
	}
	return fmt.Sprintf("reading %s needs the OAuth scope %s; have it granted to the client credentials (and, if the "+
		"provider's scopes argument pins the token's scopes, include it there): %s", it, scope, err)
}

// readOnce holds values read once per key per process, with the error of
// each read: what the guards read of the service (fiat accounts, limits by
// transfer type, balances by profile).
type readOnce[V any] struct{ m sync.Map }

// readEntry is one key's read.
type readEntry[V any] struct {
	once sync.Once
	v    V
	err  error
}

// get is the value of key, read by read the first time it is asked for.
func (r *readOnce[V]) get(key string, read func() (V, error)) (V, error) {
	v, _ := r.m.LoadOrStore(key, &readEntry[V]{})
	e, _ := v.(*readEntry[V])
	e.once.Do(func() { e.v, e.err = read() })
	return e.v, e.err
}

// runTally sums the figures of the withdrawals of one plan, by asset,
// keyed by movementKey; safe for concurrent use.
type runTally struct {
	mu      sync.Mutex
	figures map[string]tallied
}

// tallied is one movement of a tally: its figure in asset, and the
// balance it debits (debit, an asset of profile).
type tallied struct {
	profile, asset, debit string
	figure                decimal.Decimal
}

// add records the figure of w under its key.
func (t *runTally) add(w guardedMovement) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.figures == nil {
		t.figures = map[string]tallied{}
	}
	t.figures[w.key] = tallied{profile: w.profile, asset: w.assetKey, debit: w.debitKey, figure: w.figure}
}

// othersFrom sums the figures of every key but key that debit the balance
// of profile in debit (upper case).
func (t *runTally) othersFrom(key, profile, debit string) decimal.Decimal {
	return t.othersMatching(key, func(v tallied) bool { return v.profile == profile && v.debit == debit })
}

// othersMatching sums the figures of every key but key that match.
func (t *runTally) othersMatching(key string, match func(tallied) bool) decimal.Decimal {
	t.mu.Lock()
	defer t.mu.Unlock()
	sum := decimal.Zero
	for k, v := range t.figures {
		if k != key && match(v) {
			sum = sum.Add(v.figure)
		}
	}
	return sum
}

// others sums, by asset, the figures of every key but key.
func (t *runTally) others(key string) map[string]decimal.Decimal {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[string]decimal.Decimal{}
	for k, v := range t.figures {
		if k != key {
			out[v.asset] = out[v.asset].Add(v.figure)
		}
	}
	return out
}

// serviceLimits reads the limits of each of the transfer types once per
// process: those that bound a movement of these types (a limit that names
// no transfer type bounds every one). No types: no transfer limit applies.
func (g *guardReads) serviceLimits(ctx context.Context, c *client.Client, transferTypes []string) ([]*client.TransferLimit, error) {
	var out []*client.TransferLimit
	seen := map[string]bool{}
	for _, typ := range transferTypes {
		limits, err := g.limits.get(typ, func() ([]*client.TransferLimit, error) {
			var limits []*client.TransferLimit
			for l, err := range c.TransferLimits(ctx, typ) {
				if err != nil {
					return nil, err
				}
				if slices.Contains(l.TransferTypes, typ) || len(l.TransferTypes) == 0 {
					limits = append(limits, l)
				}
			}
			tflog.Debug(ctx, "transfer limits read for the money guard", map[string]any{
				"transfer_type": typ, "limits": len(limits)})
			return limits, nil
		})
		if err != nil {
			return nil, err
		}
		for _, l := range limits {
			key := l.RuleID + "\x00" + l.LimitAsset + "\x00" + l.PeriodSeconds
			if !seen[key] {
				seen[key] = true
				out = append(out, l)
			}
		}
	}
	return out, nil
}

// priceEntry is one market's price, read once.
type priceEntry struct {
	once  sync.Once
	price decimal.Decimal
	ok    bool
}

// convert converts amount of asset into target: the same asset as it is,
// otherwise at the highest price of the ticker of asset+target (or, as
// its inverse, the lowest of target+asset). conversion describes it.
func (g *guardReads) convert(ctx context.Context, c *client.Client, amount decimal.Decimal, asset, target string) (decimal.Decimal, string, bool) {
	a, t := strings.ToUpper(asset), strings.ToUpper(target)
	if a == t {
		return amount, "", true
	}
	if p, ok := g.price(ctx, c, a+t, true); ok {
		v := amount.Mul(p)
		return v, fmt.Sprintf(" %s (%s %s at %s, the highest price of the service's %s ticker)", t, amount, a, p, a+t), true
	}
	if p, ok := g.price(ctx, c, t+a, false); ok && p.IsPositive() {
		v := amount.DivRound(p, guardConversionDivisorExp)
		return v, fmt.Sprintf(" %s (%s %s at 1/%s, the lowest price of the service's %s ticker)", t, amount, a, p, t+a), true
	}
	return decimal.Zero, "", false
}

// price reads the ticker of market once per process: its highest price
// (or lowest, when !highest) among best bid, best ask and last execution.
func (g *guardReads) price(ctx context.Context, c *client.Client, market string, highest bool) (decimal.Decimal, bool) {
	key := market + "/" + strconv.FormatBool(highest)
	v, _ := g.prices.LoadOrStore(key, &priceEntry{})
	e, _ := v.(*priceEntry)
	e.once.Do(func() {
		tk, err := c.GetTicker(ctx, market)
		if err != nil {
			if !errors.Is(err, client.ErrNotFound) {
				tflog.Warn(ctx, "ticker not read", map[string]any{"market": market, "error": err.Error()})
			}
			return
		}
		for _, lvl := range []*client.BookLevel{tk.BestBid, tk.BestAsk, tk.LastExecution} {
			if lvl == nil {
				continue
			}
			p, ok := parseAmount(lvl.Price)
			if !ok || !p.IsPositive() {
				continue
			}
			if !e.ok || (highest && p.GreaterThan(e.price)) || (!highest && p.LessThan(e.price)) {
				e.price, e.ok = p, true
			}
		}
	})
	return e.price, e.ok
}

// othersOut sums the figures of every key but key that leave profile in
// asset (upper case).
func (t *runTally) othersOut(key, profile, asset string) decimal.Decimal {
	return t.othersMatching(key, func(v tallied) bool { return v.profile == profile && v.asset == asset })
}
