// Package emulatorcli is the command platform-emulator (cmd/platform-emulator,
// and its former name cmd/emulator): the service emulator standalone, with
// the token endpoint, the HTTP API under /v2, the WebSocket stream and the
// admin API, on a loopback address by default.
package emulatorcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// Name is the command's name.
const Name = "platform-emulator"

// version is the release build's version (-X main.version=..., handed to
// Main); a build by go install reports the module's version instead.
var version string

// versionString is the emulator's version: the release's, the module
// version go install built, or "dev".
func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// Main runs the command with the process's arguments and exits on an
// error; releaseVersion is the version the release build set, or "".
func Main(releaseVersion string) {
	version = releaseVersion
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case errors.Is(err, flag.ErrHelp):
	case err != nil:
		fmt.Fprintln(os.Stderr, Name+":", err)
		os.Exit(1)
	}
}

// config is what the flags set.
type config struct {
	profile                                                   string
	addr                                                      string
	allowRemote                                               bool
	seed                                                      int64
	fiatAccounts, depositAddresses, rewardClaims, conversions int
	tokenTTL                                                  time.Duration
	envFile                                                   string
	replay                                                    string
	subEvery                                                  time.Duration
	rateLimits                                                string
	logLevel                                                  string
	version                                                   bool
	clientID, clientSecret                                    string
}

// usageHeader opens the -h text; every flag follows with its default.
const usageHeader = `Usage: platform-emulator [flags]

Runs an emulator of the platform service on your machine: the OAuth token
endpoint, the HTTP API under /v2, the WebSocket stream at /ws and an admin
API under /admin for rehearsals (faults, settling transfers, fees, the
clock, counters). Point the provider at it with the PLATFORM_* settings it
prints (and writes to -env-file); it moves no money and needs no network.

The admin API has no authentication: the emulator listens on loopback only
unless -allow-non-loopback is given. Guide: docs/guides/testing-with-the-emulator.md
in the provider's repository (the registry's "Testing with the emulator").

Flags:
`

// newFlags defines every flag of the command.
func newFlags(out io.Writer) (*flag.FlagSet, *config) {
	c := &config{}
	fs := flag.NewFlagSet(Name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "listen address, host:port; port 0 picks a free one (see -env-file)")
	fs.BoolVar(&c.allowRemote, "allow-non-loopback", false, "allow an -addr beyond loopback; the admin API has no authentication, so only on a network you trust")
	fs.Int64Var(&c.seed, "seed", 1, "seed of the generated data: the same seed gives the same seeded objects and ids")
	fs.IntVar(&c.fiatAccounts, "fiat-accounts", 25, "number of seeded fiat accounts")
	fs.IntVar(&c.depositAddresses, "deposit-addresses", 40, "number of seeded deposit addresses")
	fs.IntVar(&c.rewardClaims, "reward-claims", 30, "number of seeded reward claims")
	fs.IntVar(&c.conversions, "stablecoin-conversions", 5, "number of seeded stablecoin conversions")
	fs.DurationVar(&c.tokenTTL, "token-ttl", time.Hour, "lifetime of issued access tokens")
	fs.StringVar(&c.envFile, "env-file", "", "once listening, write the PLATFORM_* settings to this file (KEY=value lines); empty: none")
	fs.StringVar(&c.replay, "withdrawal-replay", "conflict", "answer to a withdrawal whose ref_id is already used: "+
		"conflict (409 with meta.existing, as published) or original (the original transfer with 200)")
	fs.DurationVar(&c.subEvery, "subscription-interval", time.Second, "least time between two stream subscriptions "+
		"from one IP address, as published (one per second); excess ones wait; 0 or less: no limit")
	fs.StringVar(&c.rateLimits, "rate-limits", "off", "enforce the published rate limits: off, published (per endpoint and address, "+
		"averaged over 5m; a breach throttles the address for 5m), or window=<duration>,throttle=<duration>,share=<0..1> "+
		"scaled for tests (share: the part of each rate left to the client; the rest stands for the address's other traffic)")
	fs.StringVar(&c.logLevel, "log-level", "info", "what is logged on stderr: off, error (5xx answers and dropped connections), "+
		"info (one line per request: method, path, status, ref_id, fault) or debug (also the query, remote address and request id); "+
		"never a header, a token or a secret")
	fs.StringVar(&c.profile, "profile", emulator.ProfileReference, "the service to stand for: reference (the operations of the published API reference the emulator has) "+
		"or seed (only those of the seed's interface; every other path is a 404)")
	fs.StringVar(&c.clientID, "client-id", emulator.DefaultClientID, "client_id the token endpoint accepts")
	fs.StringVar(&c.clientSecret, "client-secret", emulator.DefaultClientSecret, "client_secret the token endpoint "+
		"accepts with -client-id; another value than the default is written to -env-file and never printed")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	fs.Usage = func() {
		_, _ = io.WriteString(out, usageHeader)
		fs.VisitAll(func(f *flag.Flag) {
			typ, usage := flag.UnquoteUsage(f)
			line := "  -" + f.Name
			if typ != "" {
				line += " " + typ
			}
			def := f.DefValue
			if typ == "string" {
				def = strconv.Quote(def)
			}
			_, _ = fmt.Fprintf(out, "%s\n    \t%s (default: %s)\n", line, usage, def)
		})
	}
	return fs, c
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, c := newFlags(stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (see -h)", fs.Arg(0))
	}
	if c.version {
		_, _ = fmt.Fprintln(stdout, Name+" "+versionString())
		return nil
	}
	replay, err := emulator.ParseReplayAnswer(c.replay)
	if err != nil {
		return fmt.Errorf("-withdrawal-replay: %w", err)
	}
	level, err := emulator.ParseLogLevel(c.logLevel)
	if err != nil {
		return fmt.Errorf("-log-level: %w", err)
	}
	remote := checkLoopback(c.addr)
	if remote != nil && !c.allowRemote {
		return remote
	}
	if c.clientID == "" || c.clientSecret == "" {
		return errors.New("-client-id and -client-secret must not be empty")
	}
	for name, v := range map[string]int{"fiat-accounts": c.fiatAccounts, "deposit-addresses": c.depositAddresses, "reward-claims": c.rewardClaims, "stablecoin-conversions": c.conversions} {
		if v < 0 {
			return fmt.Errorf("-%s must not be negative", name)
		}
	}

	if c.profile != emulator.ProfileReference && c.profile != emulator.ProfileSeed {
		return fmt.Errorf("-profile %q: want %s or %s", c.profile, emulator.ProfileReference, emulator.ProfileSeed)
	}
	rateLimits, err := emulator.ParseRateLimits(c.rateLimits)
	if err != nil {
		return fmt.Errorf("-rate-limits: %w", err)
	}
	opts := c.options()
	opts.RateLimits, opts.WithdrawalReplay, opts.LogLevel, opts.Log = rateLimits, replay, level, stderr
	s := emulator.New(opts)
	if err := s.Start(c.addr); err != nil {
		return err
	}
	defer s.Close()
	if remote != nil {
		warnNoAuthentication(stderr, s.Addr())
	}

	env := settings(s, c.clientID, c.clientSecret)
	_, _ = fmt.Fprintln(stdout, Name+" "+versionString()+" listening on "+s.Addr())
	for _, kv := range env {
		if kv[0] == "PLATFORM_CLIENT_SECRET" && kv[1] != emulator.DefaultClientSecret {
			kv[1] = "(set by -client-secret, written to -env-file only)"
		}
		_, _ = fmt.Fprintln(stdout, "  "+kv[0]+"="+kv[1])
	}
	_, _ = fmt.Fprintln(stdout, "  admin API (no authentication; see the guide \"Testing with the emulator\"):")
	for _, route := range emulator.AdminRoutes() {
		method, p, _ := strings.Cut(route, " ")
		_, _ = fmt.Fprintf(stdout, "    %-6s http://%s%s\n", method, s.Addr(), p)
	}
	if c.envFile != "" {
		if err := writeEnvFile(c.envFile, env); err != nil {
			return err
		}
	}

	<-ctx.Done()
	_, _ = fmt.Fprintln(stdout, Name+" stopping")
	return nil
}

// options are the emulator's options the flags set, but for those parsed
// on their own (rate limits, replay answer, log).
func (c *config) options() emulator.Options {
	return emulator.Options{
		Profile:               c.profile,
		Seed:                  c.seed,
		FiatAccounts:          c.fiatAccounts,
		DepositAddresses:      c.depositAddresses,
		RewardClaims:          c.rewardClaims,
		StablecoinConversions: c.conversions,
		TokenTTL:              c.tokenTTL,
		SubscriptionInterval:  subscriptionInterval(c.subEvery),
		Clients:               map[string]emulator.ClientCredentials{c.clientID: {Secret: c.clientSecret}},
	}
}

// DefaultOptions are the options of an emulator the command starts without
// flags (its seeded data, its client), for tests that stand an emulator in
// for the command.
func DefaultOptions() emulator.Options {
	_, c := newFlags(io.Discard)
	return c.options()
}

// warnNoAuthentication says loudly, on stderr, that the admin API of an
// emulator listening beyond loopback is open to anyone who can reach it.
func warnNoAuthentication(w io.Writer, addr string) {
	bar := strings.Repeat("!", 78)
	_, _ = fmt.Fprintf(w, "%s\n"+
		"!! WARNING: the emulator is listening on %s, beyond loopback.\n"+
		"!! Its admin API (http://%s/admin/) has NO AUTHENTICATION: anyone who can\n"+
		"!! reach this address can arm faults, settle transfers, change fees and\n"+
		"!! expire tokens. Use it only on a network you trust (a CI job's own\n"+
		"!! network), never on a shared or public one.\n"+
		"%s\n", bar, addr, addr, bar)
}

// checkLoopback refuses addresses that are not loopback.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return errors.New("-addr must be a loopback address (127.0.0.1, ::1 or localhost); use -allow-non-loopback to override")
}

// settings are the PLATFORM_* values printed and written to the env file,
// with the client credentials the emulator accepts.
func settings(s *emulator.Server, clientID, clientSecret string) [][2]string {
	env := [][2]string{
		{"PLATFORM_BASE_URL", s.BaseURL()},
		{"PLATFORM_AUTH_URL", s.AuthURL()},
		{"PLATFORM_WS_URL", s.WSURL()},
		{"PLATFORM_CLIENT_ID", clientID},
		{"PLATFORM_CLIENT_SECRET", clientSecret},
	}
	if c := s.StablecoinConversions(); len(c) > 0 {
		env = append(env, [2]string{"PLATFORM_DEMO_CONVERSION_ID", c[0].ID}, [2]string{"PLATFORM_DEMO_PROFILE_ID", c[0].ProfileID})
	}
	for _, a := range s.FiatAccounts() {
		if !a.Deleted {
			env = append(env, [2]string{"PLATFORM_DEMO_FIAT_ACCOUNT_ID", a.ID})
			break
		}
	}
	if d := s.DepositAddresses(); len(d) > 0 {
		env = append(env, [2]string{"PLATFORM_DEMO_DEPOSIT_PROFILE_ID", d[0].ProfileID})
	}
	if c := s.RewardClaims(); len(c) > 0 {
		env = append(env, [2]string{"PLATFORM_DEMO_PAYOUT_GROUP_ID", c[0].PayoutGroupID})
	}
	return env
}

// EnvFile is what -env-file holds for the emulator s, whose token endpoint
// accepts clientID and clientSecret: KEY=value lines of its PLATFORM_*
// settings and of the ids of some seeded objects (PLATFORM_DEMO_*). Tests
// that stand an emulator in for the command write it.
func EnvFile(s *emulator.Server, clientID, clientSecret string) string {
	var b strings.Builder
	for _, kv := range settings(s, clientID, clientSecret) {
		b.WriteString(kv[0] + "=" + kv[1] + "\n")
	}
	return b.String()
}

// writeEnvFile writes env to path atomically, so a script waiting for the
// file never reads it half-written.
func writeEnvFile(path string, env [][2]string) error {
	var b strings.Builder
	for _, kv := range env {
		b.WriteString(kv[0] + "=" + kv[1] + "\n")
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".emulator-env-*")
	if err != nil {
		return err
	}
	if _, err := tmp.WriteString(b.String()); err != nil {
		_ = tmp.Close()
		_ = os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// subscriptionInterval maps the -subscription-interval flag to
// Options.SubscriptionInterval, where only a negative value turns the
// limit off.
func subscriptionInterval(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}
