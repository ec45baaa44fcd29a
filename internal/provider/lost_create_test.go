package provider

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// TestLostCreateEvidence: an object found after a lost create is the
// attempt's only when it holds what the attempt sent, was made after the
// attempt started, and has no rival; a state without the attempt's start
// is no evidence.
func TestLostCreateEvidence(t *testing.T) {
	started := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	attempt := newLostCreate(started.Add(300*time.Millisecond), nil, map[string]string{"nickname": "Treasury", "description": "desk"})
	if !attempt.Started.Equal(started) || !attempt.ByService {
		t.Fatalf("attempt %+v, want started at %s by the service's clock", attempt, started)
	}
	str := func(s string) *string { return &s }
	own := foundObject{holds: map[string]*string{"nickname": str("Treasury"), "description": str("desk")}, madeSince: true}
	for _, tc := range []struct {
		name     string
		recorded bool
		found    func(f foundObject) foundObject
		want     string
	}{
		{"its own", true, func(f foundObject) foundObject { return f }, ""},
		{"no start recorded", false, func(f foundObject) foundObject { return f }, "without the time it started"},
		{"another description", true, func(f foundObject) foundObject {
			f.holds = map[string]*string{"nickname": str("Treasury"), "description": str("Team B")}
			return f
		}, `description: the attempt sent "desk", the object holds "Team B"`},
		{"no description", true, func(f foundObject) foundObject {
			f.holds = map[string]*string{"nickname": str("Treasury")}
			return f
		}, `description: the attempt sent "desk", the object holds ""`},
		{"made before", true, func(f foundObject) foundObject {
			f.madeSince, f.made = false, "at 2026-03-01T11:00:00Z"
			return f
		}, "made at 2026-03-01T11:00:00Z, not after the attempt started (2026-03-01T12:00:00Z by the service's clock)"},
		{"a rival", true, func(f foundObject) foundObject { f.others = []string{"p-2"}; return f }, "1 other object(s)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := attempt.missing(tc.recorded, tc.found(own))
			if tc.want == "" {
				if len(got) != 0 {
					t.Errorf("missing %v, want none", got)
				}
				return
			}
			if !strings.Contains(strings.Join(got, "\n"), tc.want) {
				t.Errorf("missing %v, want %q", got, tc.want)
			}
		})
	}
	machine := newLostCreate(time.Time{}, func() time.Time { return started }, nil)
	if !machine.Started.Equal(started) || machine.ByService || !strings.Contains(machine.startedText(), "this machine's clock") {
		t.Errorf("without a Date: %+v", machine)
	}
}

// TestDestinationAddressAdoptsOnlyItsOwn: the address book shares the
// evidence of a lost create: an entry of the tuple is adopted only when
// it holds what the attempt sent and the service made it after the
// attempt started; the state's attempt without a start adopts nothing.
func TestDestinationAddressAdoptsOnlyItsOwn(t *testing.T) {
	started := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	args := cryptoDestinationAddressArgs{CryptoNetwork: types.StringValue("ETHEREUM"),
		Address: types.StringValue("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"), IdentityID: types.StringNull(),
		Nickname: types.StringValue("payouts"), Bookmarked: types.BoolValue(false),
		TravelruleMetadata: types.ObjectNull(travelruleType.AttrTypes)}
	req, err := args.request("")
	if err != nil {
		t.Fatal(err)
	}
	entry := func(nickname string, created time.Time) *client.CryptoDestinationAddress {
		f := false
		return &client.CryptoDestinationAddress{ID: "cda-1", CryptoNetwork: "ETHEREUM", Address: knownString(args.Address),
			Nickname: &nickname, Bookmarked: &f, CreatedAt: &created}
	}
	for _, tc := range []struct {
		name     string
		recorded bool
		entry    *client.CryptoDestinationAddress
		adopt    bool
		why      string
	}{
		{"its own", true, entry("payouts", started.Add(time.Second)), true, ""},
		{"made before the attempt", true, entry("payouts", started.Add(-time.Hour)), false, "not after the attempt started"},
		{"another nickname", true, entry("theirs", started.Add(time.Second)), false, `nickname: the attempt sent "payouts"`},
		{"no start recorded", false, entry("payouts", started.Add(time.Second)), false, "without the time it started"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &moneyCoreResource[cryptoDestinationAddressArgs, *client.CryptoDestinationAddress,
				client.PutCryptoDestinationAddressRequest]{t: &destinationAddressType, run: &moneyRun{}}
			r.run.attempts.recordLost(destinationWords.refNamespace, destinationKey.of(args),
				newLostCreate(started, nil, destinationKey.sent(req)), tc.recorded)
			attempt, recorded := r.run.attempts.lostCreate(destinationWords.refNamespace, destinationKey.of(args))
			_, missing, err := r.judgeLost(t.Context(), attempt, recorded, tc.entry)
			if err != nil {
				t.Fatal(err)
			}
			why := strings.Join(missing, "\n")
			if adopt := len(missing) == 0; adopt != tc.adopt || !strings.Contains(why, tc.why) {
				t.Errorf("adopt %t (%s), want %t with %q", adopt, why, tc.adopt, tc.why)
			}
			if d := destinationAddressType.create.differences(req, tc.entry); tc.adopt && len(d) > 0 {
				t.Errorf("its own entry differs from the request: %v", d)
			}
		})
	}
}
