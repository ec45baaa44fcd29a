package emulator

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shopspring/decimal"
)

// Default credentials of the emulator's built-in client.
const (
	DefaultClientID     = "emulator-client"
	DefaultClientSecret = "emulator-secret"
)

// AllScopes is every scope the service names.
var AllScopes = []string{
	"transfer:write_crypto_withdrawal",
	"transfer:write_fiat_deposit_instructions",
	"transfer:read_fiat_account",
	"transfer:write_fiat_account",
	"transfer:read_fiat_deposit_instructions",
	"transfer:read_deposit_address",
	"transfer:write_deposit_address",
	"rewards:read_claims",
	"conversion:read_conversion_stablecoin",
	"exchange:read_aggregated_marketdata_stream",
	"transfer:read_transfer",
	"transfer:read_transfer_limit",
	"fee:write_crypto_withdrawal_fee",
	"transfer:write_crypto_destination_address",
	"transfer:read_crypto_destination_address",
	"transfer:write_fiat_withdrawal",
	"transfer:write_internal_transfer",
	"conversion:write_conversion_stablecoin",
	"funding:read_profile",
	"funding:write_profile",
	"transfer:write_sandbox_fiat_deposit",
}

// ClientCredentials is one OAuth client known to the emulator.
type ClientCredentials struct {
	Secret string
	// Scopes the client may be granted. Empty means every scope.
	Scopes []string
}

// Options configure an emulator. The zero value is usable: one default
// client with every scope, seed 1 and no seeded list data.
type Options struct {
	Seed int64
	// Sizes of the seeded data sets.
	FiatAccounts          int
	DepositAddresses      int
	RewardClaims          int
	StablecoinConversions int
	// TransferLimits is the number of seeded transfer limits (see
	// SetTransferLimits; none by default).
	TransferLimits int
	// Transfers is the number of seeded transfers, listed before the
	// withdrawals made through the API.
	Transfers int
	// CryptoDestinationAddresses is the number of seeded entries of the
	// withdrawal address book, listed before those added through the API.
	CryptoDestinationAddresses int
	// CryptoDestinationAddressStatus is the status of an address the PUT
	// adds to the book: PENDING (the default) until
	// SetCryptoDestinationAddressStatus moves it, or APPROVED or REJECTED
	// for a service whose review decides at once.
	CryptoDestinationAddressStatus string
	// Clients by client_id; nil means {DefaultClientID: {DefaultClientSecret, all scopes}}.
	Clients map[string]ClientCredentials
	// TokenTTL is the lifetime of issued tokens (expires_in); default 1h.
	TokenTTL time.Duration
	// Markets served on the stream; default BTCUSD, ETHUSD, SOLUSD.
	Markets []string
	// HeartbeatInterval of the heartbeat channel; default 1s.
	HeartbeatInterval time.Duration
	// BookInterval is how often the order book moves; default 100ms.
	BookInterval time.Duration
	// WSPingInterval is how often the stream server pings each connection;
	// default 5s. A connection that stays silent (no pong, no frame) for two
	// intervals plus 500ms is closed.
	WSPingInterval time.Duration
	// SubscriptionInterval is the published limit of one stream
	// subscription per second per IP address: a subscribe that comes
	// sooner after the previous one from the same address waits silently,
	// its reply and first messages coming when its turn is due. Each
	// channel of a subscribe counts as one subscription. Default 1s, as
	// published; negative means no limit.
	SubscriptionInterval time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
	// FiatAccountStatusNested serves the status and metadata of fiat
	// accounts under fiat_network_instructions.wire, as the API reference's
	// example shows them, instead of at the top level of the item, as its
	// schema has them (the default).
	FiatAccountStatusNested bool
	// SnapshotBeforeReply sends a subscription's first messages (for
	// market_data an UPDATE, then the SNAPSHOT) before the subscribe reply,
	// which the service may do.
	SnapshotBeforeReply bool
	// RepliesWithoutParams leaves params out of the entries of subscribe
	// and unsubscribe replies, as an older page of the service's docs shows
	// them.
	RepliesWithoutParams bool
	// ChannelErrorObject answers a failed channel of a subscribe or
	// unsubscribe with "error":{"code":...,"message":...} instead of the
	// bare code string the API reference shows.
	ChannelErrorObject bool
	// ErrorBodyCodeMessage answers errors under /v2 with the body
	// {"code": ..., "message": ..., "field": ...} (Content-Type
	// application/json) instead of the RFC 7807 problem the API reference
	// publishes (the spec shows no error body).
	ErrorBodyCodeMessage bool
	// WithdrawalReplay is the answer to a crypto withdrawal whose ref_id
	// is already used; default ReplayConflict, as the API reference
	// publishes it.
	WithdrawalReplay ReplayAnswer
	// Profile is the service the emulator stands for: ProfileReference
	// (the default), the operations of the published reference it has
	// (Routes(false)), or ProfileSeed, only those the seed's api-spec.md
	// describes (Routes(true)); any other path under /v2 is a 404, and a
	// path it serves with another method a 405.
	Profile string
	// Observe, when set, sees every request under /v2 and the emulator's
	// own answer to it (before any answer fault changes it), once it is
	// answered: the contract tests hold both against the published
	// reference.
	Observe func(Exchange)
	// LogLevel is how much is written to Log; default LogOff (an emulator
	// started in process is quiet). cmd/platform-emulator logs at LogInfo.
	LogLevel LogLevel
	// Log receives one line per request (see LogLevel); nil logs nothing.
	Log io.Writer
	// RateLimits, when set, enforces the published rate limits (see
	// rate_limits.go; SetRateLimits changes them); nil does not count.
	RateLimits *RateLimits
}

// The services an emulator can stand for (Options.Profile).
const (
	ProfileReference = "reference"
	ProfileSeed      = "seed"
)

// ReplayAnswer is how a create whose ref_id is already used is answered.
type ReplayAnswer int

const (
	// ReplayConflict answers 409 with an application/problem+json body
	// whose meta.existing is the object made with that ref_id, whatever the
	// new request's body (the API reference's Create Crypto Withdrawal).
	ReplayConflict ReplayAnswer = iota
	// ReplayOriginal answers 200 with the original object when the body is
	// the same, and 409 without it when the body differs (the reading of
	// the spec, and of servers that replay the original answer).
	ReplayOriginal
)

// String is the name of the answer, as -withdrawal-replay takes it.
func (a ReplayAnswer) String() string {
	if a == ReplayOriginal {
		return "original"
	}
	return "conflict"
}

// ParseReplayAnswer parses "conflict" or "original".
func ParseReplayAnswer(s string) (ReplayAnswer, error) {
	switch s {
	case "conflict", "":
		return ReplayConflict, nil
	case "original":
		return ReplayOriginal, nil
	}
	return 0, fmt.Errorf("unknown replay answer %q: want conflict or original", s)
}

type tokenInfo struct {
	clientID string
	scopes   map[string]bool
	expires  time.Time
}

// Server is an in-process emulator of the whole service: token endpoint,
// HTTP API under /v2, WebSocket stream at /ws and an admin API at /admin.
type Server struct {
	opts Options

	// answers are the answer faults (answer_faults.go).
	answers answerFaults

	mu     sync.Mutex
	tokens map[string]*tokenInfo

	// Faults are the fault switches; safe for concurrent use.
	Faults *Faults
	// Counters count requests, tokens and connections; safe for concurrent use.
	Counters *Counters

	data *store
	ws   *wsHub

	listener net.Listener
	httpSrv  *http.Server
	closed   atomic.Bool
	// clockOffset is added to Options.Now (see Advance).
	clockOffset atomic.Int64
	// log is the request logger; nil logs nothing.
	log *slog.Logger
	// fees are the withdrawal fees set through SetWithdrawalFee, by asset
	// in upper case; guarded by mu.
	fees map[string]decimal.Decimal
	// defaultFee, when set, replaces defaultWithdrawalFee; guarded by mu.
	defaultFee *decimal.Decimal
	// rules are the transfer limits and the guaranteed fees (limits.go).
	rules moneyRules
	// rates enforce the published rate limits (rate_limits.go).
	rates rateLimiter
}

// New builds an emulator; call Start or use Handler.
func New(opts Options) *Server {
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	if opts.Clients == nil {
		opts.Clients = map[string]ClientCredentials{DefaultClientID: {Secret: DefaultClientSecret}}
	}
	if opts.TokenTTL <= 0 {
		opts.TokenTTL = time.Hour
	}
	if len(opts.Markets) == 0 {
		opts.Markets = []string{"BTCUSD", "ETHUSD", "SOLUSD"}
	}
	if opts.HeartbeatInterval <= 0 {
		opts.HeartbeatInterval = time.Second
	}
	if opts.BookInterval <= 0 {
		opts.BookInterval = 100 * time.Millisecond
	}
	if opts.SubscriptionInterval == 0 {
		opts.SubscriptionInterval = time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if !slices.Contains(DestinationAddressStatuses, opts.CryptoDestinationAddressStatus) {
		opts.CryptoDestinationAddressStatus = "PENDING"
	}
	s := &Server{
		opts:     opts,
		tokens:   map[string]*tokenInfo{},
		Faults:   &Faults{},
		Counters: newCounters(),
		log:      newLogger(opts),
		fees:     map[string]decimal.Decimal{},
	}
	s.data = newStore(opts)
	s.ws = newWSHub(s)
	s.SetRateLimits(opts.RateLimits)
	if opts.TransferLimits > 0 {
		_ = s.SetTransferLimits(seedLimits(opts.TransferLimits))
	}
	return s
}

// Handler returns the emulator's whole HTTP surface.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oauth2/token", s.handleToken)
	s.registerHTTP(mux)  // http.go: /v2/...
	s.registerWS(mux)    // ws.go: /ws
	s.registerAdmin(mux) // admin.go: /admin/...
	return s.logRequests(s.countRequests(withRequestID(s.withDate(s.withRateLimits(s.withAnswerFaults(mux))))))
}

// withDate dates every answer by the emulator's clock (Options.Now), as
// the service dates its answers by its own: a test that moves the clock
// moves the Date the provider judges the age of objects by.
func (s *Server) withDate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", s.now().UTC().Format(http.TimeFormat))
		next.ServeHTTP(w, r)
	})
}

// Start listens on addr (for example "127.0.0.1:0") and serves in the
// background until Close.
func (s *Server) Start(addr string) error {
	var lc net.ListenConfig
	l, err := lc.Listen(context.Background(), "tcp", addr)
	if err != nil {
		return err
	}
	s.listener = l
	s.httpSrv = &http.Server{
		Handler:           guardHostAndOrigin(s.Handler(), l.Addr()),
		ReadHeaderTimeout: 10 * time.Second,
		ConnState: func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				s.Counters.newConn()
			}
		},
	}
	go func() { _ = s.httpSrv.Serve(l) }()
	return nil
}

// Close stops the server and every stream connection.
func (s *Server) Close() {
	if s.closed.Swap(true) {
		return
	}
	s.ws.close()
	s.data.close()
	if s.httpSrv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = s.httpSrv.Shutdown(ctx)
		_ = s.httpSrv.Close()
	}
}

// Addr is host:port of the listener.
func (s *Server) Addr() string { return s.listener.Addr().String() }

// AuthURL is the provider's auth_url; the token endpoint is AuthURL+"/oauth2/token".
func (s *Server) AuthURL() string { return "http://" + s.Addr() }

// BaseURL is the provider's base_url, including /v2.
func (s *Server) BaseURL() string { return "http://" + s.Addr() + "/v2" }

// WSURL is the provider's ws_url.
func (s *Server) WSURL() string { return "ws://" + s.Addr() + "/ws" }

func (s *Server) now() time.Time { return s.opts.Now().Add(time.Duration(s.clockOffset.Load())) }

// Advance moves the emulator's clock forward by d: objects made from then
// on, and the Date of every answer, are that much later, as if the service
// had run for d more. Tests use it to rehearse a run a month after another.
func (s *Server) Advance(d time.Duration) {
	if d > 0 {
		s.clockOffset.Add(int64(d))
	}
}

// Now is the emulator's current time (Options.Now plus every Advance).
func (s *Server) Now() time.Time { return s.now() }

// handleToken implements POST /oauth2/token (client credentials grant).
func (s *Server) handleToken(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeOAuthError(w, http.StatusBadRequest, "invalid_request", "form body cannot be parsed")
		return
	}
	if gt := r.PostForm.Get("grant_type"); gt != "client_credentials" {
		writeOAuthError(w, http.StatusBadRequest, "unsupported_grant_type", "grant_type must be client_credentials")
		return
	}
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	cred, known := s.opts.Clients[id]
	if !known || cred.Secret != secret {
		writeOAuthError(w, http.StatusUnauthorized, "invalid_client", "client authentication failed")
		return
	}
	requested := strings.Fields(r.PostForm.Get("scope"))
	allowed := map[string]bool{}
	if len(cred.Scopes) == 0 {
		for _, sc := range AllScopes {
			allowed[sc] = true
		}
	} else {
		for _, sc := range cred.Scopes {
			allowed[sc] = true
		}
	}
	granted := map[string]bool{}
	for _, sc := range requested {
		if !allowed[sc] {
			writeOAuthError(w, http.StatusBadRequest, "invalid_scope", "scope not allowed for this client: "+sc)
			return
		}
		granted[sc] = true
	}
	if len(requested) == 0 {
		granted = allowed
	}
	tok := randomHex(24)
	s.mu.Lock()
	s.tokens[tok] = &tokenInfo{clientID: id, scopes: granted, expires: s.now().Add(s.opts.TokenTTL)}
	s.mu.Unlock()
	scopeList := make([]string, 0, len(granted))
	for _, sc := range AllScopes {
		if granted[sc] {
			scopeList = append(scopeList, sc)
		}
	}
	s.Counters.tokenIssued(strings.Join(requested, " "))
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"access_token": tok,
		"expires_in":   int(s.opts.TokenTTL / time.Second),
		"token_type":   "Bearer",
		"scope":        strings.Join(scopeList, " "),
	})
}

// errUnauthenticated and errForbidden are returned by authorize.
var (
	errUnauthenticated = errors.New("missing, unknown or expired bearer token")
	errForbidden       = errors.New("token lacks the required scope")
)

// authorize checks the bearer token of r for scope.
func (s *Server) authorize(r *http.Request, scope string) error {
	h := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || tok == "" {
		return errUnauthenticated
	}
	s.mu.Lock()
	info := s.tokens[tok]
	s.mu.Unlock()
	if info == nil || !s.now().Before(info.expires) {
		return errUnauthenticated
	}
	if !info.scopes[scope] {
		return errForbidden
	}
	return nil
}

// ExpireTokens makes every token issued so far invalid, as if it had expired.
func (s *Server) ExpireTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tokens {
		t.expires = time.Time{}
	}
}

// IssuedTokens returns every access token issued so far (for leak tests).
func (s *Server) IssuedTokens() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.tokens))
	for t := range s.tokens {
		out = append(out, t)
	}
	return out
}

func writeOAuthError(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": desc})
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
