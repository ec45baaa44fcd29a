// Command emulator runs the service emulator standalone: the token endpoint,
// the HTTP API under /v2, the WebSocket stream and the admin API, on a
// loopback address by default.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "emulator:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("emulator", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address (host:port; port 0 picks a free one)")
	allowRemote := fs.Bool("allow-non-loopback", false, "allow listening on a non-loopback address (the admin API has no authentication)")
	seed := fs.Int64("seed", 1, "seed of the generated data")
	fiatAccounts := fs.Int("fiat-accounts", 25, "number of seeded fiat accounts")
	depositAddresses := fs.Int("deposit-addresses", 40, "number of seeded deposit addresses")
	rewardClaims := fs.Int("reward-claims", 30, "number of seeded reward claims")
	conversions := fs.Int("stablecoin-conversions", 5, "number of seeded stablecoin conversions")
	tokenTTL := fs.Duration("token-ttl", time.Hour, "lifetime of issued access tokens")
	envFile := fs.String("env-file", "", "once listening, write PLATFORM_* settings to this file")
	replayFlag := fs.String("withdrawal-replay", "conflict", "answer to a withdrawal whose ref_id is already used: "+
		"conflict (409 with meta.existing, as published) or original (the original transfer with 200)")
	subEvery := fs.Duration("subscription-interval", time.Second, "least time between two stream subscriptions "+
		"from one IP address, as published (one per second); excess ones wait; 0 or less: no limit")
	if err := fs.Parse(args); err != nil {
		return err
	}
	replay, err := emulator.ParseReplayAnswer(*replayFlag)
	if err != nil {
		return fmt.Errorf("-withdrawal-replay: %w", err)
	}
	if !*allowRemote {
		if err := checkLoopback(*addr); err != nil {
			return err
		}
	}
	for name, v := range map[string]int{"fiat-accounts": *fiatAccounts, "deposit-addresses": *depositAddresses, "reward-claims": *rewardClaims, "stablecoin-conversions": *conversions} {
		if v < 0 {
			return fmt.Errorf("-%s must not be negative", name)
		}
	}

	s := emulator.New(emulator.Options{
		Seed:                  *seed,
		FiatAccounts:          *fiatAccounts,
		DepositAddresses:      *depositAddresses,
		RewardClaims:          *rewardClaims,
		StablecoinConversions: *conversions,
		TokenTTL:              *tokenTTL,
		WithdrawalReplay:      replay,
		SubscriptionInterval:  subscriptionInterval(*subEvery),
	})
	if err := s.Start(*addr); err != nil {
		return err
	}
	defer s.Close()

	env := settings(s)
	fmt.Println("emulator listening on " + s.Addr())
	for _, kv := range env {
		fmt.Println("  " + kv[0] + "=" + kv[1])
	}
	fmt.Println("  admin API: http://" + s.Addr() + "/admin/ (faults, counters, expire-tokens, instructions)")
	if *envFile != "" {
		if err := writeEnvFile(*envFile, env); err != nil {
			return err
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	fmt.Println("emulator stopping")
	return nil
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

// settings are the PLATFORM_* values printed and written to the env file.
func settings(s *emulator.Server) [][2]string {
	env := [][2]string{
		{"PLATFORM_BASE_URL", s.BaseURL()},
		{"PLATFORM_AUTH_URL", s.AuthURL()},
		{"PLATFORM_WS_URL", s.WSURL()},
		{"PLATFORM_CLIENT_ID", emulator.DefaultClientID},
		{"PLATFORM_CLIENT_SECRET", emulator.DefaultClientSecret},
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
