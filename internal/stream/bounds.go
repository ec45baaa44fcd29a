package stream

import (
	"errors"
	"fmt"
	"strings"
)

// What a Hub keeps of a stream is bounded, whatever the server sends:
//
//   - a price or an amount is a plain decimal (the spec's pattern
//     ^[0-9]*\.?[0-9]+$) of at most MaxDecimalLength characters, checked
//     before anything else looks at it; a message with any other level is
//     refused with a *DecimalError naming the field, and its subscription
//     fails. The Hub never parses these strings as numbers: it compares
//     them as plain decimals, digit by digit.
//   - a side of an order book holds at most MaxBookLevels levels; a
//     snapshot or an UPDATE that would make a side longer fails the
//     subscription with an error wrapping ErrBookTooLarge (levels are never
//     dropped silently: a book cut at an arbitrary price would be wrong).
//   - the data messages a connection has read and its reader has not taken
//     yet hold at most Options.MaxQueuedBytes (DefaultMaxQueuedBytes) bytes
//     of frames; past that the connection is closed with ErrSlowConsumer.

// MaxDecimalLength is the longest price or amount accepted from the stream,
// in characters.
const MaxDecimalLength = 64

// MaxBookLevels is the most price levels a side of an order book may hold;
// no honest market comes near it.
const MaxBookLevels = 10_000

// ErrBookTooLarge: a side of an order book would hold more than
// MaxBookLevels levels.
var ErrBookTooLarge = errors.New("stream order book too large")

// DecimalError is a price or an amount that is not a plain decimal of at
// most MaxDecimalLength characters. The value was not parsed.
type DecimalError struct {
	// Channel is the channel of the refused message.
	Channel Channel
	// Field names the value, for example bids[3].price.
	Field string
	// Value is the value as sent.
	Value string
}

func (e *DecimalError) Error() string {
	v := e.Value
	if len(v) > 40 {
		v = v[:40] + "..."
	}
	return fmt.Sprintf("a message on %s was refused: %s %q is not a plain decimal "+
		"(digits with at most one decimal point, at most %d characters)", e.Channel, e.Field, v, MaxDecimalLength)
}

// plainDecimal reports whether s matches ^[0-9]*\.?[0-9]+$ and has at most
// MaxDecimalLength characters.
func plainDecimal(s string) bool {
	if len(s) == 0 || len(s) > MaxDecimalLength {
		return false
	}
	dot := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
		case c == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return s[len(s)-1] != '.'
}

// normDecimal is the canonical text of a plain decimal: no leading zeros in
// the integer part ("0" when there is none), no trailing zeros in the
// fraction, no point without a fraction. "0100.50" and "100.5" have the same
// canonical text.
func normDecimal(s string) string {
	i, f, _ := strings.Cut(s, ".")
	i = strings.TrimLeft(i, "0")
	if i == "" {
		i = "0"
	}
	f = strings.TrimRight(f, "0")
	if f == "" {
		return i
	}
	return i + "." + f
}

// cmpDecimal compares two canonical plain decimals (normDecimal): a longer
// integer part is larger, equal lengths compare digit by digit, and so do
// fractions, whose trailing zeros were removed.
func cmpDecimal(a, b string) int {
	ai, af, _ := strings.Cut(a, ".")
	bi, bf, _ := strings.Cut(b, ".")
	if len(ai) != len(bi) {
		if len(ai) < len(bi) {
			return -1
		}
		return 1
	}
	if c := strings.Compare(ai, bi); c != 0 {
		return c
	}
	return strings.Compare(af, bf)
}

// checkLevels refuses levels whose price or amount is not a plain decimal;
// side names them (bids, asks).
func checkLevels(ch Channel, side string, levels []Level) error {
	for i, l := range levels {
		if !plainDecimal(l.Price) {
			return &DecimalError{Channel: ch, Field: fmt.Sprintf("%s[%d].price", side, i), Value: l.Price}
		}
		if !plainDecimal(l.Amount) {
			return &DecimalError{Channel: ch, Field: fmt.Sprintf("%s[%d].amount", side, i), Value: l.Amount}
		}
	}
	return nil
}

// checkMessage refuses a data message carrying a price or an amount that
// is not a plain decimal.
func checkMessage(ch Channel, m Message) error {
	var bids, asks []Level
	switch v := m.(type) {
	case *MarketData:
		bids, asks = v.Bids, v.Asks
	case *TopOfBook:
		bids, asks = v.Bids, v.Asks
	case *Execution:
		if !plainDecimal(v.Price) {
			return &DecimalError{Channel: ch, Field: "price", Value: v.Price}
		}
		if !plainDecimal(v.Amount) {
			return &DecimalError{Channel: ch, Field: "amount", Value: v.Amount}
		}
		return nil
	default:
		return nil
	}
	if err := checkLevels(ch, "bids", bids); err != nil {
		return err
	}
	return checkLevels(ch, "asks", asks)
}
