package provider

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

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
	objs := []map[string]any{doc}
	if rule, ok := doc["rule"].(map[string]any); ok {
		// An orchestration rule is answered as {"rule": {...}}.
		objs = []map[string]any{rule}
	}
	if meta, ok := doc["meta"].(map[string]any); ok {
		existing, _ := meta["existing"].(map[string]any)
		objs = []map[string]any{existing}
	}
	if items, ok := doc["items"].([]any); ok {
		objs = objs[:0]
		for _, it := range items {
			if obj, ok := it.(map[string]any); ok {
				objs = append(objs, obj)
			}
		}
	}
	for _, obj := range objs {
		for field, value := range fields {
			if obj != nil {
				obj[field] = value
			}
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

// lyingAnswer is an answer of the service that differs from the request
// in field: the difference the apply must name, and a value it must not
// show (a sensitive one).
type lyingAnswer struct {
	field  string
	value  any
	want   string
	hidden string
}

// lyingRow is a resource of the lying-service suite.
type lyingRow struct {
	// lookupFirst: its create looks the ref_id up before sending
	// (createRun.lookupFirst), so an apply after a lying answer finds the
	// object the service made, which matches, through the lookup, and
	// sends nothing; otherwise the service's answer to the ref_id sent
	// again carries the lie, and the apply refuses it again.
	lookupFirst bool
	// lies are answers to its create that lie about what was made.
	lies []lyingAnswer
}

// lyingRows are the rows of the lying-service suite, by resource type:
// every resource on the money core (registry.MoneyCore), each from its
// fixture. Each lie is applied to the row's body of moneyResources. A
// money flow checks every argument of its table alike (flow.differences),
// which TestFlowAnswersChecked covers field by field: its rows here are a
// few lies through the CLI.
func lyingRows() map[string]lyingRow {
	return rowsOf(func(f moneyFixture) (lyingRow, bool) { return f.lying, true })
}

// lyingCreates answers the creates on path through the emulator, but
// while lie is set rewrites field of the object answered (the body of a
// 2xx, or meta.existing of a 409) to value.
func lyingCreates(t *testing.T, path, field string, value any, lie *atomic.Bool) func(w http.ResponseWriter, r *http.Request, next http.Handler) {
	return func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, path) || !lie.Load() {
			next.ServeHTTP(w, r)
			return
		}
		rewriteAnswer(t, w, r, next, field, value)
	}
}

// TestAccLyingService_answerMustMatchRequest: a create answered with an
// object that differs from the request fails the apply with the
// difference and records nothing; while the service's answers to the
// create still lie, the next apply refuses them again, or, for a resource
// that looks its ref_id up first or a money movement whose plan finds it
// (money.sends = false), records the object the lookup finds without
// sending; once the service answers truly, the object made under the
// ref_id is recorded. The emulator holds one object throughout.
func TestAccLyingService_answerMustMatchRequest(t *testing.T) {
	t.Parallel()
	rows := lyingRows()
	for _, typ := range mapKeys(rows) {
		res, row := moneyRow(t, typ), rows[typ]
		t.Run(res.name, func(t *testing.T) {
			t.Parallel()
			for _, lie := range row.lies {
				t.Run(lie.field, func(t *testing.T) {
					t.Parallel()
					lyingServiceRun(t, res, row, lie)
				})
			}
		})
	}
}

// lyingServiceRun applies the body of res against a service that lies.
func lyingServiceRun(t *testing.T, res moneyResource, row lyingRow, lie lyingAnswer) {
	var lying atomic.Bool
	lying.Store(true)
	fe := startFrontedEmulator(t, emulator.Options{}, lyingCreates(t, res.words.path, lie.field, lie.value, &lying))
	fe.emu.AddApprovedFiatAccount(testPayeeAccount)
	w := newCLIWorkdir(t)
	w.write(fe.providerBlock(""), res.body)
	notRecorded := func(step string) {
		t.Helper()
		if r := w.run("state", "list"); strings.Contains(r.stdout, res.addr) {
			t.Errorf("%s: the untrusted answer is in the state:\n%s", step, r.stdout)
		}
	}
	hidden := func(step, out string) {
		t.Helper()
		if lie.hidden != "" && strings.Contains(out, lie.hidden) {
			t.Errorf("%s: the output shows %q", step, lie.hidden)
		}
	}

	r := w.mustRun(1, "apply", "-auto-approve")
	refused := regexp.MustCompile(regexp.QuoteMeta(res.words.title+" answered differently from the request") +
		".*" + regexp.QuoteMeta(lie.want) + ".*Nothing will be sent again")
	if !refused.MatchString(oneLine(r.output())) {
		t.Errorf("apply does not refuse the answer naming %q:\n%s", lie.want, r.output())
	}
	hidden("apply", r.output())
	made := onlyObject(t, fe.emu, res)
	notRecorded("apply")

	// Still lying.
	_, moves := moneyKinds()[res.typ]
	if found := moves && !res.noPlanLookup; row.lookupFirst || found {
		// The lookup (before the create, or a money movement's at plan,
		// money.sends = false) finds the object made under the ref_id:
		// recorded, nothing sent.
		r = w.mustRun(0, "apply", "-auto-approve")
		warning := res.words.title + " was " + res.words.made + " earlier, not " + res.words.made + " again"
		if found {
			warning = res.words.title + " " + made.ID + " recorded, not " + res.words.made
		}
		mustContain(t, "apply again", r.output(), warning, made.ID)
		checkStateHoldsObject(t, w, res, made)
		if n := fe.emu.Counters.Requests(res.post); n != 1 {
			t.Errorf("%d creates reached the emulator, want only the first", n)
		}
	} else {
		// The answer to the ref_id sent again lies too: refused again.
		r = w.mustRun(1, "apply", "-auto-approve")
		again := regexp.MustCompile(`answered differently from the request|already used by another ` + res.words.noun)
		if !again.MatchString(oneLine(r.output())) {
			t.Errorf("the apply against the same lie does not refuse it:\n%s", r.output())
		}
		notRecorded("apply again")
	}
	hidden("apply again", r.output())
	if got := onlyObject(t, fe.emu, res); got != made {
		t.Fatalf("the emulator holds %+v, want only %+v", got, made)
	}

	// Honest again: the object made with that ref_id is recorded.
	lying.Store(false)
	w.mustRun(0, "apply", "-auto-approve")
	w.mustRun(0, "plan", "-detailed-exitcode")
	checkStateHoldsObject(t, w, res, onlyObject(t, fe.emu, res))
	if got := onlyObject(t, fe.emu, res); got.ID != made.ID {
		t.Fatalf("the emulator holds %s, the first apply made %s", got.ID, made.ID)
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
	if d := cryptoWithdrawalFlow.differences(req, ok); len(d) != 0 {
		t.Errorf("a matching transfer differs: %q", d)
	}
	// The memo, the type and every optional argument that was sent must
	// come back equal; a memo nobody asked for is another destination.
	memoReq := req
	memoReq.Memo, memoReq.IdentityID, memoReq.AccountID, memoReq.BalanceAsset = "123", "i", "a", "BTC"
	otherMemo, deposit := "456", *ok
	deposit.Memo, deposit.Type = &otherMemo, "CRYPTO_DEPOSIT"
	got := strings.Join(cryptoWithdrawalFlow.differences(memoReq, &deposit), "\n")
	for _, want := range []string{
		`memo: requested "123", answered "456"`, `type: "CRYPTO_DEPOSIT", not CRYPTO_WITHDRAWAL`,
		`identity_id: requested "i", answered none`, `account_id: requested "a", answered none`,
		`balance_asset: requested "BTC", answered none`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("differences lack %q:\n%s", want, got)
		}
	}
	if got := strings.Join(cryptoWithdrawalFlow.differences(req, &deposit), "\n"); !strings.Contains(got, `memo: requested none, answered "456"`) {
		t.Errorf("an unrequested memo is not a difference:\n%s", got)
	}
	// Absent fields are differences, not matches.
	bare := *ok
	bare.CryptoNetwork, bare.DestinationAddress, bare.RefID, bare.Metadata = nil, nil, nil, nil
	got = strings.Join(cryptoWithdrawalFlow.differences(req, &bare), "\n")
	for _, want := range []string{"crypto_network: requested \"BITCOIN\", answered none", "destination_address:", "ref_id:", "metadata:"} {
		if !strings.Contains(got, want) {
			t.Errorf("differences of a bare transfer lack %q:\n%s", want, got)
		}
	}
	bad := *ok
	bad.Amount, bad.Fee = "1e3", ""
	got = strings.Join(cryptoWithdrawalFlow.differences(req, &bad), "\n")
	if !strings.Contains(got, `amount: answered "1e3", not a non-negative decimal`) ||
		!strings.Contains(got, `fee: answered "", not a non-negative decimal`) {
		t.Errorf("invalid decimals not reported:\n%s", got)
	}
}

// An answer with a million-digit amount is refused without being parsed:
// the difference names the cap. Comparing it takes milliseconds; the bound
// is seconds, so that a busy machine does not fail it.
func TestWithdrawalDifferencesHugeAmount(t *testing.T) {
	req := client.CryptoWithdrawalRequest{ProfileID: "p", DestinationAddress: "d", Asset: "BTC", CryptoNetwork: "BITCOIN", Amount: "0.5"}
	network, dest, huge := "BITCOIN", "d", "1"+strings.Repeat("0", 1_000_000)
	answer := &client.Transfer{
		ID: "t", ProfileID: "p", Asset: "BTC", CryptoNetwork: &network, DestinationAddress: &dest,
		Amount: huge, Fee: huge, Total: huge + ".5", Direction: "DEBIT", Type: client.TransferTypeCryptoWithdr,
	}
	start := time.Now()
	d := strings.Join(cryptoWithdrawalFlow.differences(req, answer), "\n")
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("comparing took %v", took)
	}
	if !strings.Contains(d, "not a non-negative decimal of at most 64 characters") || !strings.Contains(d, "(1000001 characters)") {
		t.Errorf("differences do not name the cap:\n%.500s", d)
	}
	if len(d) > 4000 {
		t.Errorf("the differences are %d bytes long", len(d))
	}
}
