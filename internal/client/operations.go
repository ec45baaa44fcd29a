package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
)

// Paths of the operations, relative to the base URL.
const (
	PathCryptoWithdrawals       = "/transfer/crypto-withdrawals"
	PathFiatDepositInstructions = "/transfer/fiat-deposit-instructions"
	PathFiatAccounts            = "/transfer/fiat-accounts"
	PathDepositAddresses        = "/transfer/deposit-addresses"
	PathRewardClaims            = "/rewards/claims"
	PathStablecoinConversions   = "/conversion/stablecoins"
)

// CreateCryptoWithdrawal sends one crypto withdrawal. The request is
// retried only when it carries a ref_id (the service's replay protection);
// without one, a failed attempt is reported and never repeated.
func (c *Client) CreateCryptoWithdrawal(ctx context.Context, req CryptoWithdrawalRequest) (*Transfer, error) {
	body, err := c.post(ctx, PathCryptoWithdrawals, ScopeWriteCryptoWithdrawal, req)
	if err != nil {
		return nil, err
	}
	t, err := decodeTransfer(body)
	if err != nil {
		return nil, fmt.Errorf("POST %s: decoding response: %w", PathCryptoWithdrawals, err)
	}
	return t, nil
}

// CreateFiatDepositInstructions creates a set of fiat deposit instructions.
// Like every POST, it is retried only when it carries a ref_id.
func (c *Client) CreateFiatDepositInstructions(ctx context.Context, req FiatDepositInstructionsRequest) (*FiatDepositInstructions, error) {
	body, err := c.post(ctx, PathFiatDepositInstructions, ScopeWriteFiatDepositInstr, req)
	if err != nil {
		return nil, err
	}
	f, err := decodeFiatDepositInstructions(body)
	if err != nil {
		return nil, fmt.Errorf("POST %s: decoding response: %w", PathFiatDepositInstructions, err)
	}
	return f, nil
}

// GetFiatDepositInstructions reads one set of fiat deposit instructions.
// A missing one is an error matching ErrNotFound.
func (c *Client) GetFiatDepositInstructions(ctx context.Context, id string) (*FiatDepositInstructions, error) {
	p, err := idPath(PathFiatDepositInstructions, id)
	if err != nil {
		return nil, err
	}
	body, err := c.do(ctx, call{method: http.MethodGet, path: p, scope: ScopeReadFiatDepositInstr, replaySafe: true})
	if err != nil {
		return nil, err
	}
	f, err := decodeFiatDepositInstructions(body)
	if err != nil {
		return nil, fmt.Errorf("GET %s: decoding response: %w", p, err)
	}
	return f, nil
}

// CreateDepositAddress creates a crypto deposit address. Like every POST,
// it is retried only when it carries a ref_id; a ref_id the service already
// knows is answered with 409 and the address made with it (see
// ExistingDepositAddress).
func (c *Client) CreateDepositAddress(ctx context.Context, req DepositAddressRequest) (*DepositAddress, error) {
	body, err := c.post(ctx, PathDepositAddresses, ScopeWriteDepositAddress, req)
	if err != nil {
		return nil, err
	}
	d, err := decodeDepositAddress(body)
	if err != nil {
		return nil, fmt.Errorf("POST %s: decoding response: %w", PathDepositAddresses, err)
	}
	return d, nil
}

// GetStablecoinConversion reads one stablecoin conversion. A missing one is
// an error matching ErrNotFound.
func (c *Client) GetStablecoinConversion(ctx context.Context, id string) (*StablecoinConversion, error) {
	p, err := idPath(PathStablecoinConversions, id)
	if err != nil {
		return nil, err
	}
	body, err := c.do(ctx, call{method: http.MethodGet, path: p, scope: ScopeReadStablecoinConversion, replaySafe: true})
	if err != nil {
		return nil, err
	}
	s, err := decodeStablecoinConversion(body)
	if err != nil {
		return nil, fmt.Errorf("GET %s: decoding response: %w", p, err)
	}
	return s, nil
}

// post marshals v and sends it; the request is replay-safe when its body
// carries a non-empty ref_id.
func (c *Client) post(ctx context.Context, path, scope string, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("POST %s: encoding request: %w", path, err)
	}
	return c.do(ctx, call{
		method:     http.MethodPost,
		path:       path,
		scope:      scope,
		body:       b,
		replaySafe: replaySafeBody(b),
	})
}

// idPath appends the escaped id to base.
func idPath(base, id string) (string, error) {
	if id == "" || id == "." || id == ".." {
		return "", fmt.Errorf("GET %s/{id}: %w (got %q)", base, errInvalidID, id)
	}
	return base + "/" + url.PathEscape(id), nil
}
