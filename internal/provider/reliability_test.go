package provider

// Reliability under a bad network and a bad server: 429 and 5xx bursts
// while paging, withdrawals whose POST fails or hangs after the service
// accepted it, tokens that expire in the middle of an apply and a stream
// that drops before its first message. The faults come from the emulator's
// switches; a small front handler arms them at the exact request a case
// needs (for example the second page of a list) so that every run takes
// the same path.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"go.uber.org/goleak"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// ---------------------------------------------------------------------------
// Driving the provider through its protocol server, as Terraform does.

// protoProvider is one instance of the test provider's protocol 6 server.
type protoProvider struct {
	srv    tfprotov6.ProviderServer
	schema *tfprotov6.GetProviderSchemaResponse
}

// newProtoProvider starts a provider server from the acceptance tests'
// factory (so it is the very server Terraform talks to in those tests).
func newProtoProvider(tb testing.TB) *protoProvider {
	tb.Helper()
	srv, err := testAccProtoV6ProviderFactories["platform"]()
	if err != nil {
		tb.Fatalf("provider server: %v", err)
	}
	resp, err := srv.GetProviderSchema(tb.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		tb.Fatalf("GetProviderSchema: %v", err)
	}
	failOnErrorDiags(tb, "GetProviderSchema", resp.Diagnostics)
	return &protoProvider{srv: srv, schema: resp}
}

// protoObject builds a value of the object type typ with the attributes in
// set and every other attribute null.
func protoObject(tb testing.TB, typ tftypes.Type, set map[string]tftypes.Value) tftypes.Value {
	tb.Helper()
	obj, ok := typ.(tftypes.Object)
	if !ok {
		tb.Fatalf("schema type %s is not an object", typ)
	}
	vals := make(map[string]tftypes.Value, len(obj.AttributeTypes))
	for name, at := range obj.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
	}
	for name, v := range set {
		if _, ok := obj.AttributeTypes[name]; !ok {
			tb.Fatalf("attribute %q is not in the schema", name)
		}
		vals[name] = v
	}
	return tftypes.NewValue(obj, vals)
}

// protoDynamic encodes v as a protocol value.
func protoDynamic(tb testing.TB, typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	tb.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		tb.Fatalf("encoding %s: %v", typ, err)
	}
	return &dv
}

// configure validates and configures the provider with the arguments in set.
func (p *protoProvider) configure(tb testing.TB, set map[string]tftypes.Value) []*tfprotov6.Diagnostic {
	tb.Helper()
	typ := p.schema.Provider.ValueType()
	cfg := protoDynamic(tb, typ, protoObject(tb, typ, set))
	vresp, err := p.srv.ValidateProviderConfig(tb.Context(), &tfprotov6.ValidateProviderConfigRequest{Config: cfg})
	if err != nil {
		tb.Fatalf("ValidateProviderConfig: %v", err)
	}
	if hasErrorDiagnostic(vresp.Diagnostics) {
		return vresp.Diagnostics
	}
	resp, err := p.srv.ConfigureProvider(tb.Context(), &tfprotov6.ConfigureProviderRequest{
		TerraformVersion: "1.11.4",
		Config:           cfg,
	})
	if err != nil {
		tb.Fatalf("ConfigureProvider: %v", err)
	}
	return resp.Diagnostics
}

// mustConfigure configures the provider and fails on an error diagnostic.
func (p *protoProvider) mustConfigure(tb testing.TB, set map[string]tftypes.Value) {
	tb.Helper()
	failOnErrorDiags(tb, "ConfigureProvider", p.configure(tb, set))
}

// readData validates and reads the data source typeName configured with
// set. The state is null when the read failed.
func (p *protoProvider) readData(tb testing.TB, typeName string, set map[string]tftypes.Value) (tftypes.Value, []*tfprotov6.Diagnostic) {
	tb.Helper()
	s, ok := p.schema.DataSourceSchemas[typeName]
	if !ok {
		tb.Fatalf("data source %s is not registered", typeName)
	}
	typ := s.ValueType()
	cfg := protoDynamic(tb, typ, protoObject(tb, typ, set))
	vresp, err := p.srv.ValidateDataResourceConfig(tb.Context(), &tfprotov6.ValidateDataResourceConfigRequest{TypeName: typeName, Config: cfg})
	if err != nil {
		tb.Fatalf("ValidateDataResourceConfig: %v", err)
	}
	if hasErrorDiagnostic(vresp.Diagnostics) {
		return tftypes.NewValue(typ, nil), vresp.Diagnostics
	}
	resp, err := p.srv.ReadDataSource(tb.Context(), &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: cfg})
	if err != nil {
		tb.Fatalf("ReadDataSource: %v", err)
	}
	if resp.State == nil || hasErrorDiagnostic(resp.Diagnostics) {
		return tftypes.NewValue(typ, nil), resp.Diagnostics
	}
	v, err := resp.State.Unmarshal(typ)
	if err != nil {
		tb.Fatalf("decoding the state of %s: %v", typeName, err)
	}
	return v, resp.Diagnostics
}

// create plans and applies the creation of the resource typeName
// configured with set, as Terraform does for a new resource. It returns
// the new state (null when nothing was saved) and every diagnostic.
func (p *protoProvider) create(tb testing.TB, typeName string, set map[string]tftypes.Value) (tftypes.Value, []*tfprotov6.Diagnostic) {
	tb.Helper()
	ctx := tb.Context()
	s, ok := p.schema.ResourceSchemas[typeName]
	if !ok {
		tb.Fatalf("resource %s is not registered", typeName)
	}
	typ := s.ValueType()
	config := protoObject(tb, typ, set)
	cfg := protoDynamic(tb, typ, config)
	null := protoDynamic(tb, typ, tftypes.NewValue(typ, nil))
	vresp, err := p.srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: typeName, Config: cfg})
	if err != nil {
		tb.Fatalf("ValidateResourceConfig: %v", err)
	}
	if hasErrorDiagnostic(vresp.Diagnostics) {
		return tftypes.NewValue(typ, nil), vresp.Diagnostics
	}
	plan, err := p.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName:         typeName,
		PriorState:       null,
		ProposedNewState: cfg,
		Config:           cfg,
	})
	if err != nil {
		tb.Fatalf("PlanResourceChange: %v", err)
	}
	diags := plan.Diagnostics
	if hasErrorDiagnostic(diags) {
		return tftypes.NewValue(typ, nil), diags
	}
	applied, err := p.srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName:       typeName,
		PriorState:     null,
		PlannedState:   plan.PlannedState,
		Config:         cfg,
		PlannedPrivate: plan.PlannedPrivate,
	})
	if err != nil {
		tb.Fatalf("ApplyResourceChange: %v", err)
	}
	diags = append(diags, applied.Diagnostics...)
	if applied.NewState == nil {
		return tftypes.NewValue(typ, nil), diags
	}
	v, err := applied.NewState.Unmarshal(typ)
	if err != nil {
		tb.Fatalf("decoding the new state of %s: %v", typeName, err)
	}
	return v, diags
}

// hasErrorDiagnostic reports whether diags holds an error.
func hasErrorDiagnostic(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// diagText renders diagnostics as Terraform would print them, for
// matching and for failure messages.
func diagText(diags []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "%s: %s\n%s\n", d.Severity, d.Summary, d.Detail)
	}
	return b.String()
}

func failOnErrorDiags(tb testing.TB, what string, diags []*tfprotov6.Diagnostic) {
	tb.Helper()
	if hasErrorDiagnostic(diags) {
		tb.Fatalf("%s: unexpected error diagnostics:\n%s", what, diagText(diags))
	}
}

// tfStr is a string value.
func tfStr(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

// tfInt is a number value.
func tfInt(n int64) tftypes.Value { return tftypes.NewValue(tftypes.Number, n) }

// attrOf returns the attribute name of the object v.
func attrOf(tb testing.TB, v tftypes.Value, name string) tftypes.Value {
	tb.Helper()
	var m map[string]tftypes.Value
	if err := v.As(&m); err != nil {
		tb.Fatalf("not an object: %v", err)
	}
	a, ok := m[name]
	if !ok {
		tb.Fatalf("no attribute %q", name)
	}
	return a
}

// stringOf returns the string value v ("" when null).
func stringOf(tb testing.TB, v tftypes.Value) string {
	tb.Helper()
	var s *string
	if err := v.As(&s); err != nil {
		tb.Fatalf("not a string: %v", err)
	}
	if s == nil {
		return ""
	}
	return *s
}

// elementsOf returns the elements of the list v.
func elementsOf(tb testing.TB, v tftypes.Value) []tftypes.Value {
	tb.Helper()
	var l []tftypes.Value
	if err := v.As(&l); err != nil {
		tb.Fatalf("not a list: %v", err)
	}
	return l
}

// providerArgs are the provider arguments of the default emulator client
// for the server at url (an emulator handler behind a front, or an
// httptest stand-in), with extra arguments.
func providerArgs(url string, extra map[string]tftypes.Value) map[string]tftypes.Value {
	set := map[string]tftypes.Value{
		"client_id":     tfStr(emulator.DefaultClientID),
		"client_secret": tfStr(emulator.DefaultClientSecret),
		"base_url":      tfStr(url + "/v2"),
		"auth_url":      tfStr(url),
		"ws_url":        tfStr("ws" + strings.TrimPrefix(url, "http") + "/ws"),
	}
	for k, v := range extra {
		set[k] = v
	}
	return set
}

// ---------------------------------------------------------------------------
// An emulator behind a front handler that can arm its fault switches at an
// exact request.

// frontedEmulator is an emulator served on 127.0.0.1:0 behind front.
type frontedEmulator struct {
	emu *emulator.Server
	srv *httptest.Server
}

// startFrontedEmulator serves emu's handler behind front, which gets each
// request first and passes it on by calling next.
func startFrontedEmulator(tb testing.TB, opts emulator.Options, front func(w http.ResponseWriter, r *http.Request, next http.Handler)) *frontedEmulator {
	tb.Helper()
	checkContract(tb, &opts)
	emu := emulator.New(opts)
	h := emu.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { front(w, r, h) }))
	tb.Cleanup(func() {
		emu.Close()
		srv.Close()
	})
	return &frontedEmulator{emu: emu, srv: srv}
}

// providerBlock is an HCL provider block for the fronted emulator.
func (f *frontedEmulator) providerBlock(extra string) string {
	u := f.srv.URL
	return providerBlockAt(emulator.DefaultClientID, emulator.DefaultClientSecret, u+"/v2", u, "ws"+strings.TrimPrefix(u, "http")+"/ws", extra)
}

// peekRefID returns the ref_id of a JSON request body and leaves the body
// readable again.
func peekRefID(tb testing.TB, r *http.Request) string {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		tb.Errorf("reading a request body: %v", err)
		return ""
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var probe struct {
		RefID string `json:"ref_id"`
	}
	_ = json.Unmarshal(body, &probe)
	return probe.RefID
}

// ---------------------------------------------------------------------------
// 429 and 5xx bursts while paging.

const fiatAccountsPath = "/v2/transfer/fiat-accounts"

// pagingFaults arms the emulator's switches at given pages of the fiat
// accounts list: arm[n] runs before the first attempt of page n (1-based)
// is served, so that the burst it arms answers that attempt and the
// following ones. It records each attempt.
type pagingFaults struct {
	emu *emulator.Server
	arm map[int]func(*emulator.Faults)

	mu       sync.Mutex
	pages    []string       // cursors in the order first seen ("" for page 1)
	attempts map[string]int // attempts by cursor
	times    map[string][]time.Time
}

func (p *pagingFaults) front(w http.ResponseWriter, r *http.Request, next http.Handler) {
	if r.Method == http.MethodGet && r.URL.Path == fiatAccountsPath {
		cursor := r.URL.Query().Get("page_cursor")
		p.mu.Lock()
		if _, seen := p.attempts[cursor]; !seen {
			p.pages = append(p.pages, cursor)
			if arm := p.arm[len(p.pages)]; arm != nil {
				arm(p.emu.Faults)
			}
		}
		p.attempts[cursor]++
		p.times[cursor] = append(p.times[cursor], time.Now())
		p.mu.Unlock()
	}
	next.ServeHTTP(w, r)
}

// attemptsByPage returns the number of attempts of each page, in order.
func (p *pagingFaults) attemptsByPage() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]int, len(p.pages))
	for i, c := range p.pages {
		out[i] = p.attempts[c]
	}
	return out
}

func startPagingFaults(tb testing.TB, accounts int, arm map[int]func(*emulator.Faults)) (*pagingFaults, *frontedEmulator) {
	tb.Helper()
	p := &pagingFaults{arm: arm, attempts: map[string]int{}, times: map[string][]time.Time{}}
	fe := startFrontedEmulator(tb, emulator.Options{Seed: 7, FiatAccounts: accounts}, p.front)
	p.emu = fe.emu
	fe.emu.Faults.OnlyPath(fiatAccountsPath)
	return p, fe
}

// TestReliability_listPagingUnderFaults reads 2,500 fiat accounts (three
// pages of 1,000) while the service answers a 5xx burst on the first
// page, a 429 with Retry-After: 1 on the second and a longer 5xx burst on
// the third. Every account must come back exactly once, in the service's
// order, and the wait asked by Retry-After must be honoured.
func TestReliability_listPagingUnderFaults(t *testing.T) {
	t.Parallel()
	pf, fe := startPagingFaults(t, 2500, map[int]func(*emulator.Faults){
		1: func(f *emulator.Faults) { f.ServerErrors(2, http.StatusInternalServerError) },
		2: func(f *emulator.Faults) { f.TooManyRequests(1, 1) },
		3: func(f *emulator.Faults) { f.ServerErrors(3, http.StatusBadGateway) },
	})
	p := newProtoProvider(t)
	p.mustConfigure(t, providerArgs(fe.srv.URL, nil)) // default max_retries = 4

	state, diags := p.readData(t, "platform_fiat_accounts", map[string]tftypes.Value{
		"include_deleted": tftypes.NewValue(tftypes.Bool, true),
	})
	failOnErrorDiags(t, "reading platform_fiat_accounts", diags)

	// The service's accounts, newest first (the default order).
	all := fe.emu.FiatAccounts()
	want := make([]string, 0, len(all))
	for i := len(all) - 1; i >= 0; i-- {
		want = append(want, all[i].ID)
	}
	items := elementsOf(t, attrOf(t, state, "items"))
	if len(items) != len(want) {
		t.Fatalf("read %d accounts, the service holds %d", len(items), len(want))
	}
	seen := make(map[string]int, len(items))
	for i, it := range items {
		id := stringOf(t, attrOf(t, it, "id"))
		if prev, dup := seen[id]; dup {
			t.Fatalf("account %s is listed twice (items %d and %d)", id, prev, i)
		}
		seen[id] = i
		if id != want[i] {
			t.Fatalf("items[%d] is %s, the service's account at that position is %s", i, id, want[i])
		}
	}

	if got, wantAttempts := fmt.Sprint(pf.attemptsByPage()), "[3 2 4]"; got != wantAttempts {
		t.Errorf("attempts by page = %s, want %s (2 x 500 then ok; 429 then ok; 3 x 502 then ok)", got, wantAttempts)
	}
	if n := fe.emu.Counters.Requests("GET " + fiatAccountsPath); n != 9 {
		t.Errorf("the emulator received %d list requests, want 9", n)
	}
	pf.mu.Lock()
	page2 := pf.times[pf.pages[1]]
	pf.mu.Unlock()
	if wait := page2[1].Sub(page2[0]); wait < time.Second {
		t.Errorf("page 2 was retried %s after its 429 with Retry-After: 1; the client must wait at least 1s", wait)
	}
}

// TestReliability_listPagingRetriesExhausted: with max_retries = 1 a
// burst longer than two attempts on the second page fails the read with an
// error that names the endpoint, the status and the attempts.
func TestReliability_listPagingRetriesExhausted(t *testing.T) {
	cases := []struct {
		name string
		arm  func(*emulator.Faults)
		want string
	}{
		{"5xx", func(f *emulator.Faults) { f.ServerErrors(5, http.StatusServiceUnavailable) },
			`(?s)Unable to list fiat accounts.*after 1000 items.*GET /transfer/fiat-accounts: gave up after 2 attempts: 503 Service Unavailable`},
		{"429", func(f *emulator.Faults) { f.TooManyRequests(5, 0) },
			`(?s)Unable to list fiat accounts.*after 1000 items.*GET /transfer/fiat-accounts: gave up after 2 attempts: 429 Too Many Requests`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pf, fe := startPagingFaults(t, 1500, map[int]func(*emulator.Faults){2: tc.arm})
			p := newProtoProvider(t)
			p.mustConfigure(t, providerArgs(fe.srv.URL, map[string]tftypes.Value{"max_retries": tfInt(1)}))
			_, diags := p.readData(t, "platform_fiat_accounts", nil)
			if !hasErrorDiagnostic(diags) {
				t.Fatal("the read succeeded despite a burst longer than max_retries")
			}
			if re := regexp.MustCompile(tc.want); !re.MatchString(diagText(diags)) {
				t.Errorf("diagnostics do not match %s:\n%s", re, diagText(diags))
			}
			if got := fmt.Sprint(pf.attemptsByPage()); got != "[1 2]" {
				t.Errorf("attempts by page = %s, want [1 2] (max_retries = 1)", got)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Withdrawals whose POST fails or hangs after the service accepted it.

const withdrawalsPath = "/v2/transfer/crypto-withdrawals"

// acceptFaults makes the first POST of every withdrawal (recognised by its
// ref_id) fail after the emulator has processed and stored it: alternately
// answered 500 (AcceptThenFail) and held past the client's
// request_timeout (AcceptThenHang). Later POSTs of the same ref_id pass
// untouched. Withdrawal POSTs are serialised while a switch is armed, so
// that each switch is consumed by the POST it was armed for even though
// Terraform creates several withdrawals at once.
type acceptFaults struct {
	tb  testing.TB
	emu *emulator.Server

	// armed is held from arming a switch until the POST consumed it.
	armed sync.Mutex

	mu       sync.Mutex
	order    []string       // ref_ids in the order of their first POST
	attempts map[string]int // POSTs by ref_id
	hung     map[string]bool
}

func (a *acceptFaults) front(w http.ResponseWriter, r *http.Request, next http.Handler) {
	if r.Method != http.MethodPost || r.URL.Path != withdrawalsPath {
		next.ServeHTTP(w, r)
		return
	}
	ref := peekRefID(a.tb, r)
	a.armed.Lock()
	a.mu.Lock()
	a.attempts[ref]++
	first := a.attempts[ref] == 1
	hang := first && len(a.order)%2 == 1
	if first {
		a.order = append(a.order, ref)
		a.hung[ref] = hang
	}
	a.mu.Unlock()
	switch {
	case !first:
		defer a.armed.Unlock()
	case !hang:
		a.emu.Faults.AcceptThenFail(1)
		defer a.armed.Unlock() // the switch is consumed before the 500 is written
	default:
		a.emu.Faults.AcceptThenHang(1, time.Minute)
		// The POST is held until the client gives up; let the others
		// through as soon as it has consumed the switch.
		go a.unlockWhenConsumed()
	}
	next.ServeHTTP(w, r)
}

// unlockWhenConsumed releases armed once the accept-then-hang switch is used.
func (a *acceptFaults) unlockWhenConsumed() {
	defer a.armed.Unlock()
	deadline := time.Now().Add(30 * time.Second)
	for a.emu.Faults.Get().AcceptThenHang > 0 {
		if time.Now().After(deadline) {
			a.tb.Errorf("the accept-then-hang switch was not consumed within 30s")
			return
		}
		time.Sleep(time.Millisecond) // polling a condition, with a deadline
	}
}

// TestAccReliability_withdrawalsAcceptedThenFailed applies one
// configuration of 50 withdrawals. The first POST of each is processed by
// the service and then answered 500 (25 of them) or held past
// request_timeout = "1s" (the other 25). The provider must retry each with
// the same ref_id, and the service must end with exactly 50 transfers,
// each the one recorded in state; planning again must change nothing.
func TestAccReliability_withdrawalsAcceptedThenFailed(t *testing.T) {
	t.Parallel()
	const n = 50
	a := &acceptFaults{tb: t, attempts: map[string]int{}, hung: map[string]bool{}}
	fe := startFrontedEmulator(t, emulator.Options{}, a.front)
	a.emu = fe.emu
	fe.emu.Faults.OnlyPath(withdrawalsPath)

	cfg := fe.providerBlock("  request_timeout = \"1s\"\n") + fmt.Sprintf(`
resource "platform_crypto_withdrawal" "w" {
  count               = %d
  profile_id          = "profile-1"
  destination_address = %q
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = format("%%d.5", count.index + 1)
}
`, n, cwDestination)

	checkOnePerRefID := func(s *terraform.State) error {
		transfers := fe.emu.Transfers()
		if len(transfers) != n {
			return fmt.Errorf("the emulator holds %d transfers, want %d", len(transfers), n)
		}
		byRef := map[string]string{}
		for _, tr := range transfers {
			if tr.RefID == nil {
				return fmt.Errorf("transfer %s has no ref_id", tr.ID)
			}
			if _, dup := byRef[*tr.RefID]; dup {
				return fmt.Errorf("two transfers carry ref_id %s", *tr.RefID)
			}
			byRef[*tr.RefID] = tr.ID
		}
		for i := range n {
			addr := fmt.Sprintf("platform_crypto_withdrawal.w.%d", i)
			attrs, err := stateAttrs(s, addr, "ref_id", "id")
			if err != nil {
				return err
			}
			ref, id := attrs[0], attrs[1]
			if byRef[ref] != id {
				return fmt.Errorf("%s: state id %s, the emulator's transfer with ref_id %s is %q", addr, id, ref, byRef[ref])
			}
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		hung, posts := 0, 0
		for _, ref := range a.order {
			// The faulted POST and at least one retry with the same ref_id
			// (normally exactly one; a machine too slow to answer within
			// request_timeout may cause more, all with that ref_id).
			if a.attempts[ref] < 2 {
				return fmt.Errorf("ref_id %s was POSTed %d times, want the faulted POST and a retry with the same ref_id", ref, a.attempts[ref])
			}
			posts += a.attempts[ref]
			if a.hung[ref] {
				hung++
			}
		}
		if len(a.order) != n || hung != n/2 {
			return fmt.Errorf("%d ref_ids POSTed, %d of them held; want %d and %d", len(a.order), hung, n, n/2)
		}
		if got := fe.emu.Counters.Requests("POST " + withdrawalsPath); got != posts {
			return fmt.Errorf("the emulator received %d withdrawal POSTs, %d with the %d ref_ids", got, posts, n)
		}
		return nil
	}

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: cfg, Check: checkOnePerRefID},
			// Nothing left to do: no new withdrawal.
			{Config: cfg, PlanOnly: true},
		},
		CheckDestroy: func(*terraform.State) error {
			if got := len(fe.emu.Transfers()); got != n {
				return fmt.Errorf("the emulator holds %d transfers after destroy, want %d (never %d)", got, n, n+1)
			}
			return nil
		},
	})
}

// ---------------------------------------------------------------------------
// Tokens that expire in the middle of an apply.

// statusRecorder remembers the status written by a handler.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// expiringTokens expires every token just before the 5th withdrawal POST,
// the 5th instructions POST and the 1st instructions GET reach the
// emulator, so that each of them is answered 401 while the provider still
// holds a token it believes valid.
type expiringTokens struct {
	emu *emulator.Server

	mu           sync.Mutex
	counts       map[string]int // requests by "METHOD path-kind"
	unauthorized map[string]int // 401 answers by "METHOD path-kind"
}

func (e *expiringTokens) front(w http.ResponseWriter, r *http.Request, next http.Handler) {
	kind := ""
	switch {
	case r.Method == http.MethodPost && r.URL.Path == withdrawalsPath:
		kind = "POST withdrawal"
	case r.Method == http.MethodPost && r.URL.Path == "/v2/transfer/fiat-deposit-instructions":
		kind = "POST instructions"
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v2/transfer/fiat-deposit-instructions/"):
		kind = "GET instructions"
	}
	if kind == "" {
		next.ServeHTTP(w, r)
		return
	}
	e.mu.Lock()
	e.counts[kind]++
	if c := e.counts[kind]; (kind == "GET instructions" && c == 1) || (kind != "GET instructions" && c == 5) {
		e.emu.ExpireTokens()
	}
	e.mu.Unlock()
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	next.ServeHTTP(rec, r)
	if rec.status == http.StatusUnauthorized {
		e.mu.Lock()
		e.unauthorized[kind]++
		e.mu.Unlock()
	}
}

// TestAccReliability_tokenExpiryMidApply applies 10 withdrawals, then 10
// sets of deposit instructions, then 10 data sources reading those sets
// back, and revokes every token once in each of the three phases. The
// provider must renew its tokens and finish with every object created
// exactly once. (The phases are ordered with depends_on so that no request
// sees two revocations: the client renews a rejected token and repeats the
// request once.)
func TestAccReliability_tokenExpiryMidApply(t *testing.T) {
	t.Parallel()
	const n = 10
	e := &expiringTokens{counts: map[string]int{}, unauthorized: map[string]int{}}
	fe := startFrontedEmulator(t, emulator.Options{}, e.front)
	e.emu = fe.emu

	cfg := fe.providerBlock("") + fmt.Sprintf(`
resource "platform_crypto_withdrawal" "w" {
  count               = %[1]d
  profile_id          = "profile-1"
  destination_address = "0x4f3a6e1b2c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f"
  asset               = "ETH"
  crypto_network      = "ETHEREUM"
  amount              = "1"
  metadata            = { batch = "expiry-${count.index}" }
}

resource "platform_fiat_deposit_instructions" "f" {
  count        = %[1]d
  profile_id   = "profile-${count.index}"
  fiat_network = "WIRE"
  depends_on   = [platform_crypto_withdrawal.w]
}

data "platform_fiat_deposit_instructions" "f" {
  count      = %[1]d
  id         = platform_fiat_deposit_instructions.f[count.index].id
  depends_on = [platform_fiat_deposit_instructions.f]
}
`, n)

	check := func(s *terraform.State) error {
		if got := len(fe.emu.Transfers()); got != n {
			return fmt.Errorf("the emulator holds %d transfers, want %d", got, n)
		}
		if got := len(fe.emu.FiatDepositInstructions()); got != n {
			return fmt.Errorf("the emulator holds %d instruction sets, want %d", got, n)
		}
		for i := range n {
			want, err := stateAttr(s, fmt.Sprintf("platform_fiat_deposit_instructions.f.%d", i), "memo_id")
			if err != nil {
				return err
			}
			got, err := stateAttr(s, fmt.Sprintf("data.platform_fiat_deposit_instructions.f.%d", i), "memo_id")
			if err != nil {
				return err
			}
			if got != want || got == "" {
				return fmt.Errorf("data source %d read memo_id %q, the resource has %q", i, got, want)
			}
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		for _, kind := range []string{"POST withdrawal", "POST instructions", "GET instructions"} {
			if e.unauthorized[kind] == 0 {
				return fmt.Errorf("no %s was answered 401: the tokens did not expire mid-apply", kind)
			}
		}
		for _, scope := range []string{
			"transfer:write_crypto_withdrawal",
			"transfer:write_fiat_deposit_instructions",
			"transfer:read_fiat_deposit_instructions",
		} {
			if got := fe.emu.Counters.Tokens(scope); got < 2 {
				return fmt.Errorf("%d tokens issued for %s, want at least 2 (the first and its renewal)", got, scope)
			}
		}
		return nil
	}

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    []resource.TestStep{{Config: cfg, Check: check}},
	})
}

// ---------------------------------------------------------------------------
// A stream that drops before its first message.

// TestReliability_streamDroppedBeforeTopOfBook reads platform_top_of_book
// from a stream that drops the connection before its first data message.
// The read must fail at once with a diagnostic that says the connection
// closed and names the market (the provider does not reconnect), long
// before its timeout, and leave no goroutine behind: not the stream's
// reader or pinger, not a timer, not an HTTP connection.
func TestReliability_streamDroppedBeforeTopOfBook(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	const timeout = 10 * time.Second
	func() {
		emu := emulator.New(emulator.Options{})
		if err := emu.Start("127.0.0.1:0"); err != nil {
			t.Fatalf("starting the emulator: %v", err)
		}
		defer emu.Close()
		emu.Faults.DropWS(3) // more than one, so that a reconnect would fail too

		p := newProtoProvider(t)
		p.mustConfigure(t, providerArgs(emu.AuthURL(), nil))
		start := time.Now()
		_, diags := p.readData(t, "platform_top_of_book", map[string]tftypes.Value{
			"market":  tfStr("ETHUSD"),
			"timeout": tfStr(timeout.String()),
		})
		elapsed := time.Since(start)
		if !hasErrorDiagnostic(diags) {
			t.Fatal("the read succeeded on a dropped connection")
		}
		text := diagText(diags)
		if !regexp.MustCompile(`(?s)Stream connection closed.*"ETHUSD"`).MatchString(text) {
			t.Errorf("the diagnostic does not say the connection closed for market ETHUSD:\n%s", text)
		}
		if strings.Contains(text, "within "+timeout.String()) {
			t.Errorf("a drop was reported as a timeout:\n%s", text)
		}
		if elapsed > timeout/2 {
			t.Errorf("the read took %s; a dropped connection must fail well within the %s timeout", elapsed, timeout)
		}
		if got := emu.Faults.Get().DropWS; got != 2 {
			t.Errorf("%d stream connections were opened, want 1 (no reconnect)", 3-got)
		}
	}()
	goleak.VerifyNone(t, ignore)
}

// TestAccReliability_noSuchOperationKeepsState: a 404 that is not the
// service's not-found problem (a gateway or server without the route, here
// a plain-text 404) is an error naming the method and URL, on refresh and
// on destroy: a fiat account and deposit instructions in the state stay
// there, never taken for deleted, and no message speaks of a scope.
func TestAccReliability_noSuchOperationKeepsState(t *testing.T) {
	t.Parallel()
	var noRoute sync.Map // method -> true
	fe := startFrontedEmulator(t, emulator.Options{}, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if _, on := noRoute.Load(r.Method); on && strings.HasPrefix(r.URL.Path, "/v2/transfer/fiat-") {
			http.Error(w, "404 page not found", http.StatusNotFound)
			return
		}
		next.ServeHTTP(w, r)
	})
	w := newCLIWorkdir(t)
	w.write(fe.providerBlock(""), faBody+fdiConfig(""))
	w.mustRun(0, "apply", "-auto-approve")
	st := statesOf(t, w)
	account, instructions := st["platform_fiat_account.test"]["id"], st["platform_fiat_deposit_instructions.test"]["id"]
	addrs := []string{"platform_fiat_account.test", "platform_fiat_deposit_instructions.test"}
	kept := func(what string) {
		t.Helper()
		r := w.mustRun(0, "state", "list")
		for _, a := range addrs {
			if !strings.Contains(r.stdout, a) {
				t.Errorf("after %s, %s left the state:\n%s", what, a, r.stdout)
			}
		}
	}
	noWrongWords := func(what, out string) {
		t.Helper()
		for _, wrong := range []string{"no longer", "removed from the Terraform state", "deleted", "OAuth scope", "already gone"} {
			if strings.Contains(out, wrong) {
				t.Errorf("%s says %q:\n%s", what, wrong, out)
			}
		}
	}

	noRoute.Store(http.MethodGet, true)
	out := flatOutput(w.mustRun(1, "apply", "-refresh-only", "-auto-approve").output())
	for _, want := range []string{
		fmt.Sprintf("GET %s/v2/transfer/fiat-accounts/%s", fe.srv.URL, account),
		fmt.Sprintf("GET %s/v2/transfer/fiat-deposit-instructions/%s", fe.srv.URL, instructions),
		"404 Not Found", "the service has no operation", "check base_url",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the refresh does not say %q:\n%s", want, out)
		}
	}
	noWrongWords("the refresh", out)
	kept("a refresh answered 404 without the not-found problem")

	noRoute.Store(http.MethodDelete, true)
	out = flatOutput(w.mustRun(1, "destroy", "-refresh=false", "-target=platform_fiat_account.test", "-auto-approve").output())
	if want := fmt.Sprintf("DELETE %s/v2/transfer/fiat-accounts/%s", fe.srv.URL, account); !strings.Contains(out, want) {
		t.Errorf("the destroy does not say %q:\n%s", want, out)
	}
	noWrongWords("the destroy", out)
	if r := w.mustRun(0, "state", "list"); !strings.Contains(r.stdout, "platform_fiat_account.test") {
		t.Errorf("after a DELETE answered 404 without the not-found problem, the account left the state:\n%s", r.stdout)
	}

	noRoute.Clear()
	w.mustRun(0, "plan", "-detailed-exitcode")
}
