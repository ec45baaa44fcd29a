package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
)

// Profiles: the balances of a profile (GET /profiles/{id}/balances).

// ScopeReadBalances is the scope of Get Profile Balances.
const ScopeReadBalances = "profile:read_balances"

// PathProfiles is the path of the profiles.
const PathProfiles = "/profiles"

// ProfileBalance is the balance of a profile in one asset: exact decimal
// strings.
type ProfileBalance struct {
	Asset     string `json:"asset"`
	Available string `json:"available"`
	Trading   string `json:"trading"`
}

// GetProfileBalances reads the balances of the profile id. The answer is
// an object whose balances list them, or the list itself: both are read.
func (c *Client) GetProfileBalances(ctx context.Context, id string) ([]ProfileBalance, error) {
	p, err := idPath(PathProfiles, id)
	if err != nil {
		return nil, err
	}
	p += "/balances"
	body, err := c.do(ctx, call{method: http.MethodGet, path: p, scope: ScopeReadBalances, replaySafe: true})
	if err != nil {
		return nil, err
	}
	return decodeProfileBalances(body)
}

// decodeProfileBalances decodes the answer of Get Profile Balances: every
// balance needs an asset.
func decodeProfileBalances(body []byte) ([]ProfileBalance, error) {
	var out []ProfileBalance
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '[' {
		if err := decodeJSON(body, &out); err != nil {
			return nil, fmt.Errorf("GET profile balances: decoding response: %w", err)
		}
	} else {
		var wrapped struct {
			Balances *[]ProfileBalance `json:"balances"`
		}
		if err := decodeJSON(body, &wrapped); err != nil {
			return nil, fmt.Errorf("GET profile balances: decoding response: %w", err)
		}
		if wrapped.Balances == nil {
			return nil, errors.New("GET profile balances: the response has no balances")
		}
		out = *wrapped.Balances
	}
	for i, b := range out {
		if b.Asset == "" {
			return nil, fmt.Errorf("GET profile balances: balance %d has no asset", i)
		}
	}
	return out, nil
}
