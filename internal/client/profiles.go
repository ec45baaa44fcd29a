package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// Profiles: the balances of a profile (GET /profiles/{id}/balances).

// ScopeReadBalances is the scope of List Profile Balances, as published:
// the scope of every profile read.
const ScopeReadBalances = "funding:read_profile"

// PathProfiles is the path of the profiles.
const PathProfiles = "/profiles"

// ProfileBalance is the balance of a profile in one asset: exact decimal
// strings.
type ProfileBalance struct {
	Asset     string `json:"asset"`
	Available string `json:"available"`
	Trading   string `json:"trading"`
}

// GetProfileBalances reads the balances of the profile id (List Profile
// Balances): the answer's items.
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

// decodeProfileBalances decodes the answer of List Profile Balances,
// {"items": [...]}: every balance needs an asset.
func decodeProfileBalances(body []byte) ([]ProfileBalance, error) {
	var answer struct {
		Items *[]ProfileBalance `json:"items"`
	}
	if err := decodeJSON(body, &answer); err != nil {
		return nil, fmt.Errorf("GET profile balances: decoding response: %w", err)
	}
	if answer.Items == nil {
		return nil, errors.New("GET profile balances: the response has no items")
	}
	out := *answer.Items
	for i, b := range out {
		if b.Asset == "" {
			return nil, fmt.Errorf("GET profile balances: balance %d has no asset", i)
		}
	}
	return out, nil
}
