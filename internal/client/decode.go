package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Caps on how much of a response body is read.
const (
	// maxResponseBytes caps a successful response (one resource or one page).
	maxResponseBytes = 10 << 20
	// maxErrorBodyBytes caps the body read from an error answer.
	maxErrorBodyBytes = 64 << 10
)

// errBodyTooLarge is wrapped by readBody when a body exceeds its cap.
var errBodyTooLarge = errors.New("response body too large")

// readBody reads at most limit bytes of r. A longer body is an error
// wrapping errBodyTooLarge; the rest of it is not read.
func readBody(r io.Reader, limit int64) ([]byte, error) {
	return readBodyInto(nil, r, -1, limit)
}

// readBodyInto is readBody appending to buf (whose memory is reused when
// it has room), which it first grows to size, the length the answer
// announces (-1: unknown), when that is within limit: a page is then read
// without the copies of a growing slice.
func readBodyInto(buf []byte, r io.Reader, size, limit int64) ([]byte, error) {
	if size > 0 && size <= limit {
		buf = slices.Grow(buf[:0], int(size)+1) // +1: room to see the end without growing
	} else if buf == nil {
		buf = make([]byte, 0, 512)
	}
	b := buf[:0]
	lr := io.LimitReader(r, limit+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // Grow, as io.ReadAll does.
		}
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading response body: %w", err)
		}
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: more than %s", errBodyTooLarge, byteSize(limit))
	}
	return b, nil
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// decodeJSON decodes one JSON value from body into v with errors that say
// what is wrong (empty, HTML page, truncated, malformed, wrong type) instead
// of the decoder's terse ones. It never panics.
func decodeJSON(body []byte, v any) error {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return errors.New("empty response body, expected JSON")
	}
	if looksLikeHTML("", trimmed) {
		return errors.New("expected JSON, got an HTML page")
	}
	if bytes.Equal(trimmed, []byte("null")) {
		return errors.New("expected a JSON object, got null")
	}
	err := json.Unmarshal(trimmed, v)
	if err == nil {
		return nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		if syn.Offset >= int64(len(trimmed)) {
			return fmt.Errorf("truncated JSON (%d bytes): %w", len(trimmed), err)
		}
		return fmt.Errorf("malformed JSON at byte %d: %w", syn.Offset, err)
	case errors.As(err, &typ):
		where := typ.Field
		if where == "" {
			where = "top-level value"
		} else {
			where = "field " + where
		}
		want := "another type"
		if typ.Type != nil {
			want = goTypeName(typ.Type.String())
		}
		return fmt.Errorf("unexpected JSON: %s is %s, expected %s", where, typ.Value, want)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("truncated JSON (%d bytes): %w", len(trimmed), err)
	}
	return fmt.Errorf("unexpected JSON: %w", err)
}

// goTypeName turns a Go type into a JSON-ish description.
func goTypeName(t string) string {
	t = strings.TrimPrefix(t, "*")
	switch {
	case t == "string":
		return "a string"
	case strings.HasPrefix(t, "[]"):
		return "an array"
	case t == "time.Time":
		return "an RFC 3339 date-time string"
	case strings.HasPrefix(t, "map["), strings.HasPrefix(t, "client."):
		return "an object"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"), strings.HasPrefix(t, "float"):
		return "a number"
	case t == "bool":
		return "a boolean"
	}
	return t
}

// decodeIdentified decodes an object of an answer, which needs an id:
// identified says whether it has one, and noID is the error otherwise.
func decodeIdentified[T any](body []byte, identified func(*T) bool, noID string) (*T, error) {
	var v T
	if err := decodeJSON(body, &v); err != nil {
		return nil, err
	}
	if !identified(&v) {
		return nil, errors.New(noID)
	}
	return &v, nil
}

// hasID says whether an optional id is set and not empty.
func hasID(id *string) bool { return id != nil && *id != "" }

// decodeTransfer decodes a transfer: the answer of Create Crypto or Fiat
// Withdrawal, Create Internal Transfer and Get Transfer.
func decodeTransfer(body []byte) (*Transfer, error) {
	return decodeIdentified(body, func(t *Transfer) bool { return t.ID != "" }, "transfer in the response has no id")
}

// decodeFiatDepositInstructions decodes the answer of Create and Get Fiat
// Deposit Instructions.
func decodeFiatDepositInstructions(body []byte) (*FiatDepositInstructions, error) {
	return decodeIdentified(body, func(f *FiatDepositInstructions) bool { return f.ID != "" }, "fiat deposit instructions in the response have no id")
}

// decodeDepositAddress decodes the answer of Create Deposit Address.
func decodeDepositAddress(body []byte) (*DepositAddress, error) {
	return decodeIdentified(body, func(d *DepositAddress) bool { return hasID(d.ID) }, "deposit address in the response has no id")
}

// decodeStablecoinConversion decodes the answer of Create, Get and Cancel
// Stablecoin Conversion.
func decodeStablecoinConversion(body []byte) (*StablecoinConversion, error) {
	return decodeIdentified(body, func(s *StablecoinConversion) bool { return hasID(s.ID) }, "stablecoin conversion in the response has no id")
}

// page is one page of a list answer.
type page[T any] struct {
	Items          []*T    `json:"items"`
	NextPageCursor *string `json:"next_page_cursor"`
}

// addressesPage is a page of the one list whose items the API reference
// names otherwise: List Crypto Destination Addresses.
type addressesPage[T any] struct {
	Items          []*T    `json:"addresses"`
	NextPageCursor *string `json:"next_page_cursor"`
}

// decodePage decodes one page of a list answer, whose items are under key
// ("items" when empty). A null item is an error.
func decodePage[T any](body []byte, key string) (*page[T], error) {
	var p page[T]
	switch key {
	case "", "items":
		if err := decodeJSON(body, &p); err != nil {
			return nil, err
		}
	case "addresses":
		var a addressesPage[T]
		if err := decodeJSON(body, &a); err != nil {
			return nil, err
		}
		p = page[T](a)
	default:
		return nil, fmt.Errorf("no page type for the items key %q", key)
	}
	if key == "" {
		key = "items"
	}
	for i, it := range p.Items {
		if it == nil {
			return nil, fmt.Errorf("unexpected JSON: %s[%d] is null", key, i)
		}
	}
	return &p, nil
}
