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
	PathFiatWithdrawals         = "/transfer/fiat-withdrawals"
	PathInternalTransfers       = "/transfer/internal"
)

// CreateCryptoWithdrawal sends one crypto withdrawal. The request is
// retried only when it carries a ref_id (the service's replay protection);
// without one, a failed attempt is reported and never repeated.
func (c *Client) CreateCryptoWithdrawal(ctx context.Context, req CryptoWithdrawalRequest) (*Transfer, error) {
	return create(ctx, c, PathCryptoWithdrawals, ScopeWriteCryptoWithdrawal, req, decodeTransfer)
}

// CreateFiatDepositInstructions creates a set of fiat deposit instructions.
// Like every POST, it is retried only when it carries a ref_id.
func (c *Client) CreateFiatDepositInstructions(ctx context.Context, req FiatDepositInstructionsRequest) (*FiatDepositInstructions, error) {
	return create(ctx, c, PathFiatDepositInstructions, ScopeWriteFiatDepositInstr, req, decodeFiatDepositInstructions)
}

// GetFiatDepositInstructions reads one set of fiat deposit instructions.
// A missing one is an error matching ErrNotFound.
func (c *Client) GetFiatDepositInstructions(ctx context.Context, id string) (*FiatDepositInstructions, error) {
	return onID(ctx, c, http.MethodGet, PathFiatDepositInstructions, id, ScopeReadFiatDepositInstr, nil, decodeFiatDepositInstructions)
}

// CreateDepositAddress creates a crypto deposit address. Like every POST,
// it is retried only when it carries a ref_id; a ref_id the service already
// knows is answered with 409 and the address made with it (see
// ExistingDepositAddress).
func (c *Client) CreateDepositAddress(ctx context.Context, req DepositAddressRequest) (*DepositAddress, error) {
	return create(ctx, c, PathDepositAddresses, ScopeWriteDepositAddress, req, decodeDepositAddress)
}

// CreateFiatWithdrawal sends one fiat withdrawal to a fiat account. Like a
// crypto withdrawal, the request is retried only when it carries a ref_id;
// a ref_id the service already knows is answered with 409 and the transfer
// made with it (see ExistingTransfer).
func (c *Client) CreateFiatWithdrawal(ctx context.Context, req FiatWithdrawalRequest) (*Transfer, error) {
	return create(ctx, c, PathFiatWithdrawals, ScopeWriteFiatWithdrawal, req, decodeTransfer)
}

// CreateInternalTransfer moves an asset from one profile to another. The
// answer is the debit side; the credit side shares its group_id. Like a
// crypto withdrawal, the request is retried only when it carries a ref_id;
// a ref_id the service already knows is answered with 409 and the transfer
// made with it (see ExistingTransfer).
func (c *Client) CreateInternalTransfer(ctx context.Context, req InternalTransferRequest) (*Transfer, error) {
	return create(ctx, c, PathInternalTransfers, ScopeWriteInternalTransfer, req, decodeTransfer)
}

// CreateStablecoinConversion requests a stablecoin conversion. Like a
// crypto withdrawal, the request is retried only when it carries a ref_id;
// a ref_id the service already knows is answered with 409 and the
// conversion made with it (see ExistingStablecoinConversion).
func (c *Client) CreateStablecoinConversion(ctx context.Context, req StablecoinConversionRequest) (*StablecoinConversion, error) {
	return create(ctx, c, PathStablecoinConversions, ScopeWriteStablecoinConversion, req, decodeStablecoinConversion)
}

// CancelStablecoinConversion cancels a stablecoin conversion and returns
// it as the service answers (status CANCELLED). A missing one is an error
// matching ErrNotFound; one that can no longer be cancelled is the
// service's refusal (ErrConflict from the emulator, for a settled one).
// Cancelling twice cancels once: it is retried like a read.
func (c *Client) CancelStablecoinConversion(ctx context.Context, id string) (*StablecoinConversion, error) {
	return onID(ctx, c, http.MethodDelete, PathStablecoinConversions, id, ScopeWriteStablecoinConversion, nil, decodeStablecoinConversion)
}

// GetStablecoinConversion reads one stablecoin conversion. A missing one is
// an error matching ErrNotFound.
func (c *Client) GetStablecoinConversion(ctx context.Context, id string) (*StablecoinConversion, error) {
	return onID(ctx, c, http.MethodGet, PathStablecoinConversions, id, ScopeReadStablecoinConversion, nil, decodeStablecoinConversion)
}

// create POSTs req to path and decodes the answer with decode; like every
// POST, it is retried only when req carries a ref_id.
func create[T any](ctx context.Context, c *Client, path, scope string, req any, decode func([]byte) (*T, error)) (*T, error) {
	body, err := c.post(ctx, path, scope, req)
	if err != nil {
		return nil, err
	}
	out, err := decode(body)
	if err != nil {
		return nil, fmt.Errorf("POST %s: decoding response: %w", path, err)
	}
	return out, nil
}

// onID sends method to base/{id}, with req as its JSON body (none when
// nil), and decodes the answer with decode. It is retried: a read, or a
// change that sets a state, which repeated sets it once.
func onID[T any](ctx context.Context, c *Client, method, base, id, scope string, req any, decode func([]byte) (*T, error)) (*T, error) {
	p, err := idPath(base, id)
	if err != nil {
		return nil, err
	}
	var b []byte
	if req != nil {
		if b, err = json.Marshal(req); err != nil {
			return nil, fmt.Errorf("%s %s: encoding request: %w", method, p, err)
		}
	}
	body, err := c.do(ctx, call{method: method, path: p, scope: scope, body: b, replaySafe: true})
	if err != nil {
		return nil, err
	}
	out, err := decode(body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: decoding response: %w", method, p, err)
	}
	return out, nil
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

// The service publishes no replay answer for Create Fiat Account: a
// repeated ref_id may make a second account. So the create is never sent
// again blindly: before each retry the caller's recheck looks the ref_id up
// (List Fiat Accounts, ref_ids), and an account found there is the answer.
// A recheck that fails stops the retries (the outcome is then unknown).

// CreateFiatAccount creates a fiat account. recheck, when not nil, finds
// the account made with the request's ref_id; only then is the request
// retried (after 5xx, 429 or a network error), each retry after a recheck
// that found nothing.
func (c *Client) CreateFiatAccount(ctx context.Context, req CreateFiatAccountRequest, recheck func(ctx context.Context) (*FiatAccount, bool, error)) (*FiatAccount, error) {
	cl := call{method: http.MethodPost, path: PathFiatAccounts, scope: ScopeWriteFiatAccount}
	if req.RefID == "" {
		recheck = nil
	}
	return createRechecked(ctx, c, cl, req, "the ref_id", recheck, decodeFiatAccount)
}

// createRechecked sends the create cl with the body req, an operation
// whose replays the service does not refuse: when recheck is not nil, a
// failed attempt (5xx, 429 or a network error) is retried only after
// recheck looked the object up and found nothing, and an object it finds
// is the answer; a recheck that fails stops the retries (the outcome is
// then unknown). Without recheck, the create is sent once. what names
// what recheck looks up, in the log line of a failed recheck.
func createRechecked[T any](ctx context.Context, c *Client, cl call, req any, what string, recheck func(ctx context.Context) (*T, bool, error), decode func([]byte) (*T, error)) (*T, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: encoding request: %w", cl.method, cl.path, err)
	}
	cl.body = b
	var found *T
	if recheck != nil {
		cl.replaySafe = true
		cl.recheck = func(ctx context.Context) bool {
			obj, ok, err := recheck(ctx)
			if err != nil {
				c.logf(ctx, LevelWarn, "not retrying: "+what+" could not be looked up", map[string]any{
					"method": cl.method, "path": cl.path, "error": err.Error(),
				})
				return true
			}
			if ok {
				found = obj
			}
			return ok
		}
	}
	body, err := c.do(ctx, cl)
	if found != nil {
		return found, nil
	}
	if err != nil {
		return nil, err
	}
	obj, err := decode(body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: decoding response: %w", cl.method, cl.path, err)
	}
	return obj, nil
}

// GetFiatAccount reads one fiat account, with its full account number. A
// missing (or deleted) one is an error matching ErrNotFound.
func (c *Client) GetFiatAccount(ctx context.Context, id string) (*FiatAccount, error) {
	return onID(ctx, c, http.MethodGet, PathFiatAccounts, id, ScopeReadFiatAccount, nil, decodeFiatAccount)
}

// UpdateFiatAccount changes a fiat account; the service sends it back to
// PENDING review. The update sets values, so repeating it is harmless: it
// is retried like a read.
func (c *Client) UpdateFiatAccount(ctx context.Context, id string, req UpdateFiatAccountRequest) (*FiatAccount, error) {
	return onID(ctx, c, http.MethodPut, PathFiatAccounts, id, ScopeWriteFiatAccount, req, decodeFiatAccount)
}

// DeleteFiatAccount deletes a fiat account. A missing one is an error
// matching ErrNotFound. Deleting twice deletes once: it is retried.
func (c *Client) DeleteFiatAccount(ctx context.Context, id string) error {
	p, err := idPath(PathFiatAccounts, id)
	if err != nil {
		return err
	}
	_, err = c.do(ctx, call{method: http.MethodDelete, path: p, scope: ScopeWriteFiatAccount, replaySafe: true})
	return err
}

// decodeFiatAccount decodes a fiat account answered by Create, Get or
// Update Fiat Account.
func decodeFiatAccount(body []byte) (*FiatAccount, error) {
	return decodeIdentified(body, func(a *FiatAccount) bool { return hasID(a.ID) }, "fiat account in the response has no id")
}
