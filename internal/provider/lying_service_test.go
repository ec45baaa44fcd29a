package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// lyingFront answers creates on path through the emulator, but while lie
// is set rewrites field of the object answered (the body of a 2xx, or
// meta.existing of a 409) to value.
func lyingFront(t *testing.T, path, field string, value any, lie *atomic.Bool) func(w http.ResponseWriter, r *http.Request, next http.Handler) {
	return func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, path) || !lie.Load() {
			next.ServeHTTP(w, r)
			return
		}
		rewriteAnswer(t, w, r, next, field, value)
	}
}

// rewriteAnswer serves r through next with field of the answered object
// (or of its meta.existing) set to value.
func rewriteAnswer(t *testing.T, w http.ResponseWriter, r *http.Request, next http.Handler, field string, value any) {
	rewriteAnswerFields(t, w, r, next, map[string]any{field: value})
}

// rewriteAnswerFields serves r through next with the fields of the
// answered object (or of its meta.existing) set to their values.
func rewriteAnswerFields(t *testing.T, w http.ResponseWriter, r *http.Request, next http.Handler, fields map[string]any) {
	rec := httptest.NewRecorder()
	next.ServeHTTP(rec, r)
	var doc map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Errorf("decoding the emulator's answer: %v", err)
		return
	}
	obj := doc
	if meta, ok := doc["meta"].(map[string]any); ok {
		obj, _ = meta["existing"].(map[string]any)
	}
	for field, value := range fields {
		if obj != nil {
			obj[field] = value
		}
	}
	b, _ := json.Marshal(doc)
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(rec.Code)
	_, _ = w.Write(b)
}

func TestAccLyingService_withdrawalAnswerMustMatchRequest(t *testing.T) {
	requireTFAcc(t)
	cases := []struct {
		field string
		value any
		want  string
	}{
		{"amount", "250", `amount: requested "0.5", answered "250"`},
		{"asset", "ETH", `asset: requested "BTC", answered "ETH"`},
		{"crypto_network", "ETHEREUM", `crypto_network: requested "BITCOIN", answered "ETHEREUM"`},
		{"destination_address", "bc1qattacker", `destination_address: requested "bc1qexampleaddress0000000000000000000000", answered "bc1qattacker"`},
		{"profile_id", "prof-2", `profile_id: requested "prof-1", answered "prof-2"`},
		{"metadata", map[string]string{"invoice": "inv-2"}, `metadata: requested {invoice="inv-1"}, answered {invoice="inv-2"}`},
		{"ref_id", "someone-else", `answered "someone-else"`},
		{"fee", "-0.0001", `fee: answered "-0.0001", not a non-negative decimal`},
		{"total", "0.6", `total: answered 0.6, but amount 0.5 plus fee 0.0001 is 0.5001`},
		{"direction", "CREDIT", `direction: answered "CREDIT", a withdrawal is a DEBIT`},
	}
	for _, tc := range cases {
		t.Run(tc.field, func(t *testing.T) {
			t.Parallel()
			var lie atomic.Bool
			lie.Store(true)
			fe := startFrontedEmulator(t, emulator.Options{}, lyingFront(t, client.PathCryptoWithdrawals, tc.field, tc.value, &lie))
			cfg := fe.providerBlock("") + eoWithdrawal
			refused := regexp.MustCompile(`(?s)Crypto withdrawal answered differently from the request.*` +
				regexp.QuoteMeta(tc.want) + `.*Nothing will be sent\s+again`)
			var transferID string
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{Config: cfg, ExpectError: refused},
					{
						// Still lying: refused again, nothing more sent.
						PreConfig: func() {
							ts := fe.emu.Transfers()
							if len(ts) != 1 {
								t.Fatalf("the emulator holds %d transfers, want 1", len(ts))
							}
							transferID = ts[0].ID
						},
						Config:      cfg,
						ExpectError: regexp.MustCompile(`answered differently from the request|already used by another crypto withdrawal`),
					},
					{
						// Honest again: the transfer made with that ref_id is recorded.
						PreConfig: func() { lie.Store(false) },
						Config:    cfg,
						Check: func(s *terraform.State) error {
							if id, _ := stateAttr(s, "platform_crypto_withdrawal.payout", "id"); id != transferID {
								return fmt.Errorf("state holds %q, want the transfer %s", id, transferID)
							}
							if n := len(fe.emu.Transfers()); n != 1 {
								return fmt.Errorf("the emulator holds %d transfers, want 1", n)
							}
							return nil
						},
					},
				},
			})
		})
	}
}

func TestWithdrawalDifferences(t *testing.T) {
	ref := "r-1"
	req := client.CryptoWithdrawalRequest{
		ProfileID: "p", DestinationAddress: "d", Asset: "BTC", CryptoNetwork: "BITCOIN", Total: "0.50",
		RefID: ref, Metadata: map[string]string{"a": "1"},
	}
	network, dest := "bitcoin", "d"
	ok := &client.Transfer{
		ID: "t", ProfileID: "p", Asset: "btc", CryptoNetwork: &network, DestinationAddress: &dest,
		Amount: "0.4999", Fee: "0.0001", Total: "0.5", RefID: &ref, Direction: "DEBIT",
		Type: client.TransferTypeCryptoWithdr, Metadata: map[string]string{"a": "1"},
	}
	if d := withdrawalDifferences(req, ok); len(d) != 0 {
		t.Errorf("a matching transfer differs: %q", d)
	}
	// The memo, the type and every optional argument that was sent must
	// come back equal; a memo nobody asked for is another destination.
	memoReq := req
	memoReq.Memo, memoReq.IdentityID, memoReq.AccountID, memoReq.BalanceAsset = "123", "i", "a", "BTC"
	otherMemo, deposit := "456", *ok
	deposit.Memo, deposit.Type = &otherMemo, "CRYPTO_DEPOSIT"
	got := strings.Join(withdrawalDifferences(memoReq, &deposit), "\n")
	for _, want := range []string{
		`memo: requested "123", answered "456"`, `type: answered "CRYPTO_DEPOSIT"`,
		`identity_id: requested "i", answered none`, `account_id: requested "a", answered none`,
		`balance_asset: requested "BTC", answered none`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("differences lack %q:\n%s", want, got)
		}
	}
	if got := strings.Join(withdrawalDifferences(req, &deposit), "\n"); !strings.Contains(got, `memo: requested none, answered "456"`) {
		t.Errorf("an unrequested memo is not a difference:\n%s", got)
	}
	// Absent fields are differences, not matches.
	bare := *ok
	bare.CryptoNetwork, bare.DestinationAddress, bare.RefID, bare.Metadata = nil, nil, nil, nil
	got = strings.Join(withdrawalDifferences(req, &bare), "\n")
	for _, want := range []string{"crypto_network: requested \"BITCOIN\", answered none", "destination_address:", "ref_id:", "metadata:"} {
		if !strings.Contains(got, want) {
			t.Errorf("differences of a bare transfer lack %q:\n%s", want, got)
		}
	}
	bad := *ok
	bad.Amount, bad.Fee = "1e3", ""
	got = strings.Join(withdrawalDifferences(req, &bad), "\n")
	if !strings.Contains(got, `amount: answered "1e3", not a non-negative decimal`) ||
		!strings.Contains(got, `fee: answered "", not a non-negative decimal`) {
		t.Errorf("invalid decimals not reported:\n%s", got)
	}
}

func TestAccLyingService_instructionsAnswerMustMatchRequest(t *testing.T) {
	t.Parallel()
	requireTFAcc(t)
	var lie atomic.Bool
	lie.Store(true)
	fe := startFrontedEmulator(t, emulator.Options{}, lyingFront(t, client.PathFiatDepositInstructions, "profile_id", "prof-2", &lie))
	cfg := fe.providerBlock("") + `
resource "platform_fiat_deposit_instructions" "wire" {
  profile_id   = "prof-1"
  fiat_network = "WIRE"
}
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg, ExpectError: regexp.MustCompile(`(?s)Fiat deposit instructions answered differently from the request.*profile_id: requested "prof-1", answered "prof-2"`)},
			{
				PreConfig: func() { lie.Store(false) },
				Config:    cfg,
				Check: func(*terraform.State) error {
					if n := len(fe.emu.FiatDepositInstructions()); n != 1 {
						return fmt.Errorf("the emulator holds %d instruction sets, want 1", n)
					}
					return nil
				},
			},
		},
	})
}

// An answer with a million-digit amount is refused without being parsed:
// comparing it takes no time, and the difference names the cap.
func TestWithdrawalDifferencesHugeAmount(t *testing.T) {
	req := client.CryptoWithdrawalRequest{ProfileID: "p", DestinationAddress: "d", Asset: "BTC", CryptoNetwork: "BITCOIN", Amount: "0.5"}
	network, dest, huge := "BITCOIN", "d", "1"+strings.Repeat("0", 1_000_000)
	answer := &client.Transfer{
		ID: "t", ProfileID: "p", Asset: "BTC", CryptoNetwork: &network, DestinationAddress: &dest,
		Amount: huge, Fee: huge, Total: huge + ".5", Direction: "DEBIT", Type: client.TransferTypeCryptoWithdr,
	}
	start := time.Now()
	d := strings.Join(withdrawalDifferences(req, answer), "\n")
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Errorf("comparing took %v", took)
	}
	if !strings.Contains(d, "not a non-negative decimal of at most 64 characters") || !strings.Contains(d, "(1000001 characters)") {
		t.Errorf("differences do not name the cap:\n%.500s", d)
	}
	if len(d) > 4000 {
		t.Errorf("the differences are %d bytes long", len(d))
	}
}
