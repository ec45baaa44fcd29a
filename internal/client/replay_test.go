package client

import (
	"errors"
	"fmt"
	"net/http"
	"testing"
)

func TestExistingFromConflict(t *testing.T) {
	body := []byte(`{"type":"https://x/problems/already-exists","title":"Already Exists","status":409,
		"detail":"transfer already exists with ref_id 'r-1'","meta":{"existing":{"id":"t-1","ref_id":"r-1","amount":"0.5"}}}`)
	h := http.Header{"Content-Type": []string{"application/problem+json"}}
	err := fmt.Errorf("wrapped: %w", newAPIError(http.MethodPost, PathCryptoWithdrawals, http.StatusConflict, h, body))
	tr, ok := ExistingTransfer(err)
	if !ok || tr.ID != "t-1" || tr.Amount != "0.5" || tr.RefID == nil || *tr.RefID != "r-1" {
		t.Fatalf("ExistingTransfer = %+v, %v", tr, ok)
	}
	if !errors.Is(err, ErrConflict) {
		t.Errorf("a 409 with meta.existing is not ErrConflict")
	}
	var ae *APIError
	if !errors.As(err, &ae) || ae.Message != "transfer already exists with ref_id 'r-1'" {
		t.Errorf("message %q, want the problem's detail", ae.Message)
	}
	for name, b := range map[string]string{
		"no meta":          `{"code":"CONFLICT","message":"ref_id r-1 was already used"}`,
		"existing not obj": `{"meta":{"existing":"t-1"}}`,
		"existing no id":   `{"meta":{"existing":{"amount":"1"}}}`,
		"not json":         `conflict`,
	} {
		err := newAPIError(http.MethodPost, PathCryptoWithdrawals, http.StatusConflict, nil, []byte(b))
		if tr, ok := ExistingTransfer(err); ok {
			t.Errorf("%s: ExistingTransfer = %+v", name, tr)
		}
	}
	// Only a 409 reports an existing object.
	other := newAPIError(http.MethodPost, PathCryptoWithdrawals, http.StatusBadRequest, nil, body)
	if _, ok := ExistingTransfer(other); ok {
		t.Errorf("a 400 reported an existing transfer")
	}
	fdi := newAPIError(http.MethodPost, PathFiatDepositInstructions, http.StatusConflict, nil,
		[]byte(`{"meta":{"existing":{"id":"f-1","profile_id":"p"}}}`))
	if f, ok := ExistingFiatDepositInstructions(fdi); !ok || f.ID != "f-1" {
		t.Errorf("ExistingFiatDepositInstructions = %+v, %v", f, ok)
	}
}

func TestExistingStablecoinConversionAndInsufficientFunds(t *testing.T) {
	conflict := newAPIError(http.MethodPost, PathStablecoinConversions, http.StatusConflict, nil,
		[]byte(`{"type":"https://x/problems/already-exists","title":"Already Exists","status":409,"meta":{"existing":{"id":"c-1","status":"CREATED"}}}`))
	if c, ok := ExistingStablecoinConversion(conflict); !ok || *c.ID != "c-1" || *c.Status != "CREATED" {
		t.Errorf("ExistingStablecoinConversion = %+v, %v", c, ok)
	}
	for name, tc := range map[string]struct {
		status int
		body   string
		want   bool
	}{
		"problem":      {403, `{"type":"https://x/problems/insufficient-funds","title":"Forbidden","status":403,"detail":"low"}`, true},
		"code":         {403, `{"code":"INSUFFICIENT_FUNDS","message":"low"}`, true},
		"scope":        {403, `{"type":"https://x/problems/permission-denied","title":"Forbidden","status":403}`, false},
		"other status": {400, `{"type":"https://x/problems/insufficient-funds","title":"Bad Request","status":400}`, false},
	} {
		err := newAPIError(http.MethodPost, PathFiatWithdrawals, tc.status, nil, []byte(tc.body))
		if got := IsInsufficientFunds(fmt.Errorf("wrapped: %w", err)); got != tc.want {
			t.Errorf("%s: IsInsufficientFunds = %v (%v)", name, got, err)
		}
	}
	if IsInsufficientFunds(errors.New("insufficient-funds")) {
		t.Error("an error that is no APIError")
	}
}
