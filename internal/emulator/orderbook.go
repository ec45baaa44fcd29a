package emulator

import (
	"cmp"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// bookDepth is the number of price levels kept on each side of a book.
const bookDepth = 10

// priceDecimals and amountDecimals fix the precision of every price and
// amount on the stream: prices in cents, amounts in units of 0.0001.
const (
	priceDecimals  = 2
	amountDecimals = 4
)

// marketSpec describes how a simulated market moves. Prices are integers in
// units of 10^-priceDecimals.
type marketSpec struct {
	base    int64 // price the book starts at and drifts around
	spacing int64 // distance between neighbouring levels
	maxAmt  int64 // largest level amount, in units of 10^-amountDecimals
}

func specFor(market string) marketSpec {
	switch market {
	case "BTCUSD":
		return marketSpec{base: 6_000_000, spacing: 50, maxAmt: 50_000}
	case "ETHUSD":
		return marketSpec{base: 300_000, spacing: 10, maxAmt: 400_000}
	case "SOLUSD":
		return marketSpec{base: 15_000, spacing: 1, maxAmt: 2_000_000}
	default:
		return marketSpec{base: 10_000, spacing: 1, maxAmt: 1_000_000}
	}
}

// bookLevel is one price level in integer units.
type bookLevel struct {
	price  int64
	amount int64 // 0 in an update means "remove this level"
}

// trade is one simulated execution.
type trade struct {
	price  int64
	amount int64
}

// orderBook is a deterministic simulated order book for one market: the
// same seed and market always produce the same sequence of books. The best
// bid is always strictly below the best ask.
type orderBook struct {
	market string
	spec   marketSpec
	rng    *rand.Rand
	mid    int64
	bids   map[int64]int64 // price -> amount
	asks   map[int64]int64
}

func newOrderBook(seed int64, market string) *orderBook {
	h := fnv.New64a()
	_, _ = h.Write([]byte(market))
	b := &orderBook{
		market: market,
		spec:   specFor(market),
		rng:    rand.New(rand.NewPCG(uint64(seed), h.Sum64())), //nolint:gosec // deterministic simulation, not security.
		bids:   map[int64]int64{},
		asks:   map[int64]int64{},
	}
	b.mid = b.spec.base
	b.rebuild(bookDepth)
	return b
}

func (b *orderBook) randAmount() int64 {
	return 1 + b.rng.Int64N(b.spec.maxAmt)
}

// rebuild lays out the ladder around mid, keeping the amounts of levels that
// stay and giving new levels (and `changes` random kept levels) fresh amounts.
func (b *orderBook) rebuild(changes int) {
	sp := b.spec.spacing
	bestBid := b.mid - sp*(1+b.rng.Int64N(2))
	bestAsk := b.mid + sp*(1+b.rng.Int64N(2))
	nb := make(map[int64]int64, bookDepth)
	na := make(map[int64]int64, bookDepth)
	for i := range int64(bookDepth) {
		p := bestBid - i*sp
		if a, ok := b.bids[p]; ok {
			nb[p] = a
		} else {
			nb[p] = b.randAmount()
		}
		p = bestAsk + i*sp
		if a, ok := b.asks[p]; ok {
			na[p] = a
		} else {
			na[p] = b.randAmount()
		}
	}
	for range changes {
		i := b.rng.Int64N(bookDepth)
		if b.rng.IntN(2) == 0 {
			nb[bestBid-i*sp] = b.randAmount()
		} else {
			na[bestAsk+i*sp] = b.randAmount()
		}
	}
	b.bids, b.asks = nb, na
}

// step moves the book once and returns the changed levels of each side
// (amount 0 for removed levels) and, sometimes, a trade.
func (b *orderBook) step() (bidChanges, askChanges []bookLevel, tr *trade) {
	oldBids, oldAsks := b.bids, b.asks
	move := b.rng.Int64N(5) - 2
	// Drift back towards the base price when too far away.
	dev := b.mid - b.spec.base
	if dev > b.spec.base/20 && move > 0 || dev < -b.spec.base/20 && move < 0 {
		move = -move
	}
	b.mid += move * b.spec.spacing
	b.rebuild(2)
	bidChanges = diffSide(oldBids, b.bids, true)
	askChanges = diffSide(oldAsks, b.asks, false)
	if b.rng.IntN(2) == 0 {
		bb, ba := b.top()
		lv := bb
		if b.rng.IntN(2) == 0 {
			lv = ba
		}
		tr = &trade{price: lv.price, amount: 1 + b.rng.Int64N(lv.amount)}
	}
	return bidChanges, askChanges, tr
}

func diffSide(old, cur map[int64]int64, desc bool) []bookLevel {
	var out []bookLevel
	for p, a := range cur {
		if old[p] != a {
			out = append(out, bookLevel{price: p, amount: a})
		}
	}
	for p := range old {
		if _, ok := cur[p]; !ok {
			out = append(out, bookLevel{price: p})
		}
	}
	sortLevels(out, desc)
	return out
}

func sortLevels(l []bookLevel, desc bool) {
	slices.SortFunc(l, func(x, y bookLevel) int {
		if desc {
			return cmp.Compare(y.price, x.price)
		}
		return cmp.Compare(x.price, y.price)
	})
}

func levelsOf(side map[int64]int64, desc bool) []bookLevel {
	out := make([]bookLevel, 0, len(side))
	for p, a := range side {
		out = append(out, bookLevel{price: p, amount: a})
	}
	sortLevels(out, desc)
	return out
}

// snapshot returns every level: bids best (highest) first, asks best (lowest) first.
func (b *orderBook) snapshot() (bids, asks []bookLevel) {
	return levelsOf(b.bids, true), levelsOf(b.asks, false)
}

// top returns the best bid and best ask.
func (b *orderBook) top() (bid, ask bookLevel) {
	first := true
	for p, a := range b.bids {
		if first || p > bid.price {
			bid = bookLevel{price: p, amount: a}
			first = false
		}
	}
	first = true
	for p, a := range b.asks {
		if first || p < ask.price {
			ask = bookLevel{price: p, amount: a}
			first = false
		}
	}
	return bid, ask
}

// formatFixed renders v*10^-dec as a decimal string ("60000.50", "0.0125").
func formatFixed(v int64, dec int) string {
	if v == 0 {
		return "0"
	}
	neg := v < 0
	if neg {
		v = -v
	}
	s := strconv.FormatInt(v, 10)
	if len(s) <= dec {
		s = strings.Repeat("0", dec-len(s)+1) + s
	}
	s = s[:len(s)-dec] + "." + s[len(s)-dec:]
	if neg {
		s = "-" + s
	}
	return s
}
