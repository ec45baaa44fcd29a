package client

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strings"
)

// Profiles: List, Create, Get, Update and Deactivate Profile, and the
// balances of a profile (GET /profiles/{id}/balances), as published.

// Scopes of the profile operations, as published: every read (the
// balances included) takes funding:read_profile, every change
// funding:write_profile.
const (
	ScopeReadProfile  = "funding:read_profile"
	ScopeWriteProfile = "funding:write_profile"
	// ScopeReadBalances is the scope of List Profile Balances.
	ScopeReadBalances = ScopeReadProfile
)

// PathProfiles is the path of the profiles.
const PathProfiles = "/profiles"

// Profile types, as published: DEFAULT is made by the service, NORMAL by
// Create Profile.
const (
	ProfileTypeNormal  = "NORMAL"
	ProfileTypeDefault = "DEFAULT"
)

// Profile is a profile as published: id, nickname and type are required
// in an answer.
type Profile struct {
	ID          string  `json:"id"`
	Nickname    string  `json:"nickname"`
	Type        string  `json:"type"`
	Description *string `json:"description,omitempty"`
}

// CreateProfileRequest is the body of Create Profile.
type CreateProfileRequest struct {
	Nickname    string `json:"nickname"`
	Description string `json:"description,omitempty"`
}

// ListProfilesQuery holds the filters of List Profiles. Nickname matches
// the beginning of a nickname without letter case, as published: a caller
// that wants one nickname compares the items itself.
type ListProfilesQuery struct {
	IDs       []string
	Nickname  string
	CreatedAt CreatedAtFilter
	Order     string
	MaxItems  int
}

// ProfileBalance is the balance of a profile in one asset: exact decimal
// strings.
type ProfileBalance struct {
	Asset     string `json:"asset"`
	Available string `json:"available"`
	Trading   string `json:"trading"`
}

// Profiles lists the profiles matching q, following the cursors to the end
// with the largest page the service allows.
func (c *Client) Profiles(ctx context.Context, q ListProfilesQuery) iter.Seq2[*Profile, error] {
	v, err := listQuery(map[string][]string{"ids": q.IDs}, q.CreatedAt, q.Order)
	if q.Nickname != "" {
		v.Set("nickname", q.Nickname)
	}
	return list[Profile](ctx, c, listCall{
		path: PathProfiles, scope: ScopeReadProfile, query: v,
		maxItems: q.MaxItems, pageSize: maxPageSize, err: err,
	})
}

// ProfileByNickname finds the active profile whose nickname is nickname,
// compared without letter case (as the list's filter compares, and as a
// nickname is unique): nil when there is none.
func (c *Client) ProfileByNickname(ctx context.Context, nickname string) (*Profile, error) {
	for p, err := range c.Profiles(ctx, ListProfilesQuery{Nickname: nickname}) {
		if err != nil {
			return nil, err
		}
		if strings.EqualFold(p.Nickname, nickname) {
			return p, nil
		}
	}
	return nil, nil
}

// CreateProfile creates a profile. The service publishes no replay
// protection for it (no ref_id), so it is never sent again blindly: when
// recheck is not nil, a failed attempt (5xx, 429 or a network error) is
// retried only after recheck looked the profile up (by its nickname, which
// is unique) and found nothing; a profile recheck finds is the answer. A
// recheck that fails stops the retries (the outcome is then unknown).
func (c *Client) CreateProfile(ctx context.Context, req CreateProfileRequest, recheck func(ctx context.Context) (*Profile, bool, error)) (*Profile, error) {
	cl := call{method: http.MethodPost, path: PathProfiles, scope: ScopeWriteProfile}
	return createRechecked(ctx, c, cl, req, "the profile", recheck, decodeProfile)
}

// GetProfile reads one active profile. A missing (or deactivated) one is
// an error matching ErrNotFound.
func (c *Client) GetProfile(ctx context.Context, id string) (*Profile, error) {
	return onID(ctx, c, http.MethodGet, PathProfiles, id, ScopeReadProfile, nil, decodeProfile)
}

// UpdateProfile changes the nickname of the profile id. Setting a
// nickname twice sets it once: it is retried.
func (c *Client) UpdateProfile(ctx context.Context, id, nickname string) (*Profile, error) {
	return onID(ctx, c, http.MethodPut, PathProfiles, id, ScopeWriteProfile, struct {
		Nickname string `json:"nickname"`
	}{nickname}, decodeProfile)
}

// DeactivateProfile deactivates the profile id. The service refuses a
// profile holding a balance above zero, and the default profile. A
// missing one is an error matching ErrNotFound. Deactivating twice
// deactivates once: it is retried.
func (c *Client) DeactivateProfile(ctx context.Context, id string) error {
	p, err := idPath(PathProfiles, id)
	if err != nil {
		return err
	}
	_, err = c.do(ctx, call{method: http.MethodPut, path: p + "/deactivate", scope: ScopeWriteProfile, replaySafe: true})
	return err
}

// ExistingProfile returns the profile that a 409 answer of Create or
// Update Profile reports as already holding the nickname (the problem's
// meta.existing), when the answer carries one.
func ExistingProfile(err error) (*Profile, bool) { return existingDecoded(err, decodeProfile) }

// decodeProfile decodes a profile: it needs an id.
func decodeProfile(body []byte) (*Profile, error) {
	return decodeIdentified(body, func(p *Profile) bool { return p.ID != "" }, "profile in the response has no id")
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
