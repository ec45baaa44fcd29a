package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// TokenMinValidity is the least remaining lifetime of a token returned by
// TokenInfo: a cached token that expires sooner is renewed first, so that
// callers handing the token to someone else never hand out one that is
// about to expire.
const TokenMinValidity = time.Minute

// Token is an access token with what the authorization server said about it.
type Token struct {
	// AccessToken is the secret bearer token.
	AccessToken string
	// TokenType is the token_type of the response, for example "Bearer".
	TokenType string
	// Expiry is when the token expires; zero when the server sent no
	// expires_in.
	Expiry time.Time
	// Scopes are the scopes the server granted (the response's scope field),
	// or the requested ones when the response has no scope field.
	Scopes []string
}

// String hides the access token, so that a Token printed by mistake
// reveals nothing.
func (t Token) String() string {
	return fmt.Sprintf("Token{type: %s, expiry: %s, scopes: %v}", t.TokenType, t.Expiry.UTC().Format(time.RFC3339), t.Scopes)
}

// TokenInfo returns an access token for exactly the scope set scopes
// (requested as one space-separated scope string), whatever Config.Scopes
// pins for the client's own operations. Tokens come from the same cache as
// the client's: one token per scope string, requested once and renewed
// before it expires; the token returned stays valid for at least
// TokenMinValidity. Scopes must be non-empty and free of whitespace.
func (c *Client) TokenInfo(ctx context.Context, scopes []string) (Token, error) {
	if len(scopes) == 0 {
		return Token{}, errors.New("access token: no scope given")
	}
	for _, s := range scopes {
		if s == "" || strings.ContainsAny(s, " \t\r\n") {
			return Token{}, fmt.Errorf("access token: invalid scope %q: scopes must be non-empty and contain no whitespace", s)
		}
	}
	e := c.entryFor(append([]string(nil), scopes...))
	tok, err := c.entryToken(ctx, e, TokenMinValidity)
	if err != nil {
		return Token{}, err
	}
	out := Token{AccessToken: tok.AccessToken, TokenType: tok.Type(), Expiry: tok.Expiry}
	if granted, ok := tok.Extra("scope").(string); ok && strings.TrimSpace(granted) != "" {
		out.Scopes = strings.Fields(granted)
	} else {
		out.Scopes = append([]string(nil), scopes...)
	}
	return out, nil
}
