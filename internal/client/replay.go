package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
)

// A create whose ref_id the service already knows is answered, as the
// service's API reference publishes it, with 409 and an RFC 7807 problem
// whose meta.existing is the object made with that ref_id:
//
//	{"type": ".../problems/already-exists", "title": "Already Exists", "status": 409,
//	 "detail": "transfer already exists with ref_id '...'", "meta": {"existing": {...}}}
//
// The client keeps meta.existing on the APIError; ExistingTransfer (crypto
// and fiat withdrawals, internal transfers), ExistingFiatDepositInstructions,
// ExistingDepositAddress and ExistingStablecoinConversion decode it.
// Whether that object is the same request as the one sent is for the
// caller to decide.

// existingFrom returns meta.existing of a JSON error body, or nil when the
// body has none.
func existingFrom(body []byte) json.RawMessage {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return nil
	}
	var problem struct {
		Meta struct {
			Existing json.RawMessage `json:"existing"`
		} `json:"meta"`
	}
	if err := json.Unmarshal(body, &problem); err != nil {
		return nil
	}
	e := bytes.TrimSpace(problem.Meta.Existing)
	if len(e) == 0 || e[0] != '{' {
		return nil
	}
	return e
}

// existingOf is meta.existing of err when err is a 409 answer that has one.
func existingOf(err error) json.RawMessage {
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != http.StatusConflict {
		return nil
	}
	return ae.Existing
}

// existingDecoded is meta.existing of err, decoded by decode, when err is
// a 409 answer that has one and it decodes.
func existingDecoded[T any](err error, decode func([]byte) (*T, error)) (*T, bool) {
	raw := existingOf(err)
	if raw == nil {
		return nil, false
	}
	v, derr := decode(raw)
	if derr != nil {
		return nil, false
	}
	return v, true
}

// ExistingTransfer returns the transfer that a 409 answer of Create Crypto
// Withdrawal, Create Fiat Withdrawal or Create Internal Transfer (its debit
// side) reports as already made with the request's ref_id.
func ExistingTransfer(err error) (*Transfer, bool) { return existingDecoded(err, decodeTransfer) }

// ExistingFiatDepositInstructions returns the instructions that a 409
// answer of Create Fiat Deposit Instructions reports as already made with
// the request's ref_id.
func ExistingFiatDepositInstructions(err error) (*FiatDepositInstructions, bool) {
	return existingDecoded(err, decodeFiatDepositInstructions)
}

// ExistingDepositAddress returns the deposit address that a 409 answer of
// Create Deposit Address reports as already made with the request's ref_id.
func ExistingDepositAddress(err error) (*DepositAddress, bool) {
	return existingDecoded(err, decodeDepositAddress)
}

// ExistingStablecoinConversion returns the conversion that a 409 answer of
// Create Stablecoin Conversion reports as already made with the request's
// ref_id.
func ExistingStablecoinConversion(err error) (*StablecoinConversion, bool) {
	return existingDecoded(err, decodeStablecoinConversion)
}
