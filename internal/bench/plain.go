package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// plainClient is the baseline: what a plain Go program would write with
// net/http and encoding/json alone, with no retries, logging or framework.
type plainClient struct {
	http  *http.Client
	ep    endpoints
	token string
}

// newPlainClient fetches one token for scope from the token endpoint.
func newPlainClient(ctx context.Context, ep endpoints, scope string) (*plainClient, error) {
	c := &plainClient{
		http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}, Timeout: time.Minute},
		ep:   ep,
	}
	form := url.Values{"grant_type": {"client_credentials"}, "scope": {scope}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.AuthURL+"/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth(ep.ClientID, ep.ClientSecret)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := c.do(req, &tok); err != nil {
		return nil, fmt.Errorf("token: %w", err)
	}
	c.token = tok.AccessToken
	return c, nil
}

func (c *plainClient) close() { c.http.CloseIdleConnections() }

// do sends req and decodes a 200 answer into v.
func (c *plainClient) do(req *http.Request, v any) error {
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("%s %s: %s: %s", req.Method, req.URL.Path, resp.Status, body)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

func (c *plainClient) get(ctx context.Context, pathQuery string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.ep.BaseURL+pathQuery, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	return c.do(req, v)
}

// putDestinationAddress puts the first-party address on network into the
// address book (PUT /transfer/crypto-destination-address) and returns the
// entry answered.
func (c *plainClient) putDestinationAddress(ctx context.Context, network, address string) (plainDestinationAddress, error) {
	body, err := json.Marshal(map[string]string{"crypto_network": network, "address": address})
	if err != nil {
		return plainDestinationAddress{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.ep.BaseURL+"/transfer/crypto-destination-address", bytes.NewReader(body))
	if err != nil {
		return plainDestinationAddress{}, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	var out struct {
		Address plainDestinationAddress `json:"address"`
	}
	err = c.do(req, &out)
	return out.Address, err
}

// plainDestinationAddress is an entry of the address book.
type plainDestinationAddress struct {
	ID            string `json:"id"`
	Address       string `json:"address"`
	CryptoNetwork string `json:"crypto_network"`
}

// Wire types of the baseline, written from the spec.
type (
	plainAddress struct {
		Country  *string `json:"country"`
		Address1 *string `json:"address1"`
		Address2 *string `json:"address2"`
		City     *string `json:"city"`
		Province *string `json:"province"`
		ZipCode  *string `json:"zip_code"`
	}
	plainOwner struct {
		PersonDetails *struct {
			FirstName string `json:"first_name"`
			LastName  string `json:"last_name"`
		} `json:"person_details"`
	}
	plainRouting struct {
		RoutingNumberType string        `json:"routing_number_type"`
		RoutingNumber     string        `json:"routing_number"`
		BankName          string        `json:"bank_name"`
		BankAddress       *plainAddress `json:"bank_address"`
	}
	plainWire struct {
		AccountNumber           string         `json:"account_number"`
		FiatAccountOwnerAddress *plainAddress  `json:"fiat_account_owner_address"`
		RoutingDetails          *plainRouting  `json:"routing_details"`
		Status                  string         `json:"status"`
		Metadata                map[string]any `json:"metadata"`
	}
	plainFiatAccount struct {
		ID                      string      `json:"id"`
		RefID                   *string     `json:"ref_id"`
		IdentityID              *string     `json:"identity_id"`
		AccountID               *string     `json:"account_id"`
		FiatAccountOwner        *plainOwner `json:"fiat_account_owner"`
		FiatNetworkInstructions *struct {
			Wire *plainWire `json:"wire"`
		} `json:"fiat_network_instructions"`
		CreatedAt time.Time `json:"created_at"`
		UpdatedAt time.Time `json:"updated_at"`
	}
	plainInstructions struct {
		ID                      string            `json:"id"`
		ProfileID               string            `json:"profile_id"`
		IdentityID              string            `json:"identity_id"`
		Status                  string            `json:"status"`
		MemoID                  string            `json:"memo_id"`
		CustomerID              *string           `json:"customer_id"`
		CreatedAt               time.Time         `json:"created_at"`
		Metadata                map[string]string `json:"metadata"`
		FiatAccountOwner        *plainOwner       `json:"fiat_account_owner"`
		FiatNetworkInstructions json.RawMessage   `json:"fiat_network_instructions"`
	}
)

// listFiatAccounts pages through every (not deleted) fiat account with
// limit 1000 and returns them all.
func (c *plainClient) listFiatAccounts(ctx context.Context) ([]plainFiatAccount, error) {
	var all []plainFiatAccount
	cursor := ""
	for {
		q := url.Values{"limit": {"1000"}}
		if cursor != "" {
			q.Set("page_cursor", cursor)
		}
		var page struct {
			Items          []plainFiatAccount `json:"items"`
			NextPageCursor string             `json:"next_page_cursor"`
		}
		if err := c.get(ctx, "/transfer/fiat-accounts?"+q.Encode(), &page); err != nil {
			return nil, err
		}
		all = append(all, page.Items...)
		if page.NextPageCursor == "" {
			return all, nil
		}
		cursor = page.NextPageCursor
	}
}

var cursorKey = []byte(`"next_page_cursor":"`)

// listRaw pages through the same fiat accounts reading each body without
// decoding it (the cursor is cut from the body's tail): the cost of the
// emulator and the transport alone. It returns the bytes read.
func (c *plainClient) listRaw(ctx context.Context) (int, error) {
	total, cursor := 0, ""
	for {
		q := url.Values{"limit": {"1000"}}
		if cursor != "" {
			q.Set("page_cursor", cursor)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.ep.BaseURL+"/transfer/fiat-accounts?"+q.Encode(), nil)
		if err != nil {
			return 0, err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		resp, err := c.http.Do(req)
		if err != nil {
			return 0, err
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return 0, err
		}
		if resp.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("GET %s: %s", req.URL.Path, resp.Status)
		}
		total += len(body)
		i := bytes.LastIndex(body, cursorKey)
		if i < 0 {
			return 0, errors.New("no next_page_cursor in a page")
		}
		rest := body[i+len(cursorKey):]
		j := bytes.IndexByte(rest, '"')
		if j < 0 {
			return 0, errors.New("unterminated next_page_cursor")
		}
		if j == 0 {
			return total, nil
		}
		cursor = string(rest[:j])
	}
}

// getInstructions reads one set of fiat deposit instructions.
func (c *plainClient) getInstructions(ctx context.Context, id string) (*plainInstructions, error) {
	var v plainInstructions
	if err := c.get(ctx, "/transfer/fiat-deposit-instructions/"+url.PathEscape(id), &v); err != nil {
		return nil, err
	}
	return &v, nil
}
