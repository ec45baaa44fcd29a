package provider

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// payrollOf is a configuration of n crypto withdrawals, each with a
// ref_id derived from its arguments.
func payrollOf(n int) string { return payrollTo(n, payoutAddress, "e") }

// payrollTo is a configuration of n crypto withdrawals to address, the
// metadata of each naming its employee, employee-<index>.
func payrollTo(n int, address, employee string) string {
	return fmt.Sprintf(`
resource "platform_crypto_withdrawal" "pay" {
  count               = %d
  profile_id          = "prof-1"
  destination_address = %q
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = "0.0001"
  metadata            = { employee = "%s-${count.index}" }
}
`, n, address, employee)
}

// requestsSince is the requests of each "METHOD /path" counter since
// before, the reads of single transfers summed under getTransferByID.
func requestsSince(emu *emulator.Server, before map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range emu.Counters.AllRequests() {
		if d := v - before[k]; d > 0 {
			if strings.HasPrefix(k, "GET /v2"+client.PathTransfers+"/") {
				k = getTransferByID
			}
			out[k] += d
		}
	}
	return out
}

// logRequests logs each counter of got, by name.
func logRequests(t *testing.T, step string, got map[string]int) {
	t.Helper()
	for _, k := range slices.Sorted(maps.Keys(got)) {
		t.Logf("%s: %d %s", step, got[k], k)
	}
}

const getTransferByID = "GET /v2/transfer/transfers/{id}"

// TestAccCryptoWithdrawal_payrollInFewRequests: against the emulator
// enforcing the published limits (window and throttle scaled to 30 s, a
// quarter of each rate left to the provider) at rate_budget 0.25, a
// payroll's plan looks its ref_ids up in list requests of many, its saved
// plan applies at -parallelism=30 sending each withdrawal exactly once,
// and the plans with the payroll in state read it in list requests too
// (the emulator answering in 100 ms, as a service across a network does),
// the withdrawals in a final state not at all; nothing draws a 429.
func TestAccCryptoWithdrawal_payrollInFewRequests(t *testing.T) {
	t.Parallel()
	const n = 120
	opts := emulator.Options{RateLimits: &emulator.RateLimits{Window: 30 * time.Second, Throttle: 30 * time.Second, Share: 0.25}}
	checkContract(t, &opts)
	emu := emulator.StartTest(t, opts)
	// The service answers across a network: a tenth of a second, while
	// which the lookups and reads of other objects gather. (On this
	// host's loopback a request is gone in a fraction of a millisecond,
	// and few would gather.) How many gather depends on how fast
	// Terraform plans on a busy machine too, so the bounds leave room:
	// at least three objects a request on average.
	emu.Faults.SetLatency(100 * time.Millisecond)
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, fmt.Sprintf("  rate_budget    = 0.25\n  rate_state_dir = %q\n", t.TempDir())), payrollOf(n))
	check := func(step string, got map[string]int, want map[string]func(int) bool) {
		t.Helper()
		if b := emu.RateLimitsState().Breaches; b != 0 {
			t.Fatalf("%s: %d breaches of the limits, want none", step, b)
		}
		for k, ok := range want {
			if !ok(got[k]) {
				t.Errorf("%s: %d %s", step, got[k], k)
			}
		}
		logRequests(t, step, got)
	}
	atMost := func(m int) func(int) bool { return func(v int) bool { return v <= m } }
	exactly := func(m int) func(int) bool { return func(v int) bool { return v == m } }
	const lists = "GET /v2" + client.PathTransfers

	before := emu.Counters.AllRequests()
	w.mustRun(0, "plan", "-parallelism=30", "-out=payroll.tfplan")
	check("plan", requestsSince(emu, before), map[string]func(int) bool{
		lists: atMost(n / 3), cwPostKey: exactly(0), getTransferByID: exactly(0),
	})

	before = emu.Counters.AllRequests()
	w.mustRun(0, "apply", "-parallelism=30", "payroll.tfplan")
	check("apply", requestsSince(emu, before), map[string]func(int) bool{cwPostKey: exactly(n)})
	if got := len(emu.Transfers()); got != n {
		t.Fatalf("%d transfers at the emulator, want %d", got, n)
	}

	// A third of the payroll completes; the next refresh reads it once
	// more (the state says PENDING), and then no more.
	for i, tr := range emu.Transfers() {
		if i%3 == 0 {
			emu.SetTransferStatus(tr.ID, client.TransferStatusCompleted, "")
		}
	}
	for i := range 2 {
		before = emu.Counters.AllRequests()
		w.mustRun(0, "apply", "-auto-approve", "-parallelism=30")
		check(fmt.Sprintf("refresh %d", i+1), requestsSince(emu, before), map[string]func(int) bool{
			lists: atMost(n / 4), cwPostKey: exactly(0), getTransferByID: atMost(n / 4),
		})
	}
	completed := 0
	st := statesOf(t, w)
	for i := range n {
		if st[fmt.Sprintf("platform_crypto_withdrawal.pay[%d]", i)]["status"] == client.TransferStatusCompleted {
			completed++
		}
	}
	if want := (n + 2) / 3; completed != want {
		t.Errorf("%d withdrawals COMPLETED in state, want %d", completed, want)
	}

	// Two plans in a row read only the PENDING ones, in lists of many.
	for i := range 2 {
		before = emu.Counters.AllRequests()
		w.mustRun(0, "plan", "-detailed-exitcode", "-parallelism=30")
		check(fmt.Sprintf("plan in state %d", i+1), requestsSince(emu, before), map[string]func(int) bool{
			lists: atMost(n / 4), cwPostKey: exactly(0), getTransferByID: atMost(n / 4),
		})
	}
	if got := len(emu.Transfers()); got != n {
		t.Errorf("%d transfers at the emulator, want %d", got, n)
	}
}

// uuidSegment is a path segment that is an object's id.
var uuidSegment = regexp.MustCompile(`/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// gatheredType is a resource type whose refresh reads, and whose creates'
// lookups, are gathered into list requests: a configuration of n of them,
// and the request counter of its create.
type gatheredType struct {
	name string
	// body is the argument lines of each of the n (count.index tells
	// them apart); config, where set, is the whole configuration instead.
	body   string
	config func(n int) string
	post   string
	// refreshOnly: the creates' lookups are not by ref_id, and only the
	// refresh is counted (otherwise the apply of n makes at most n + n/5
	// requests: its creates and a fifth more).
	refreshOnly bool
	// createOnly: the refresh reads each object alone, and only the apply
	// is counted.
	createOnly bool
}

// configOf is the configuration of n objects of g, named "many".
func (g gatheredType) configOf(n int) string {
	if g.config != nil {
		return g.config(n)
	}
	return fmt.Sprintf("\nresource %q \"many\" {\n  count = %d\n%s}\n", g.name, n, strings.TrimPrefix(g.body, "\n"))
}

// gatheredTypes are the types TestAccGathered counts.
var gatheredTypes = []gatheredType{
	{name: "platform_fiat_deposit_instructions", post: fdiPostKey, body: `
  profile_id   = "profile-1"
  fiat_network = "WIRE"
  metadata     = { branch = "b-${count.index}" }
`},
	{name: "platform_deposit_address", post: daPostKey, body: `
  profile_id     = "profile-1"
  crypto_network = "ETHEREUM"
  metadata       = { customer = "c-${count.index}" }
`},
	// The address book has no ref_ids: a create looks its address up
	// alone, by network and address.
	{name: "platform_orchestration_rule", post: orPostKey, body: `
  profile_id        = "profile-1"
  nickname          = "route-${count.index}"
  source_asset      = "USDC"
  destination_asset = "USDG"
  source            = { crypto = { network = "ETHEREUM" } }
  destination       = { crypto = { address = format("0x%040x", count.index + 1), network = "ETHEREUM" } }
`},
	// The list of fiat accounts masks their account numbers: the refresh
	// reads each by id.
	{name: "platform_fiat_account", post: faPostKey, createOnly: true, config: func(n int) string {
		return strings.Replace(strings.Replace(faConfig(faPerson, "Bank", ""), `"test" {`, fmt.Sprintf(`"many" {
  count = %d`, n), 1), `bank_name           = "Bank"`, `bank_name           = "Bank ${count.index}"`, 1)
	}},
	// A profile has no ref_id: a create looks its nickname up alone.
	{name: "platform_profile", post: profilePostKey, refreshOnly: true, body: `
  nickname = "team-${count.index}"
`},
	{name: "platform_crypto_destination_address", post: cdaPutKey, refreshOnly: true, body: `
  crypto_network = "ETHEREUM"
  address        = format("0x%040x", count.index + 1)
  travelrule_metadata = {
    custodian_type = "VASP"
    vasp           = { custom_vasp_name = "Example Exchange", custom_vasp_website = "https://exchange.example" }
    beneficiary    = { person_details = { first_name = "Ada", last_name = "Lovelace", physical_address = { country = "GBR" } } }
  }
`},
}

// TestAccGathered: for each type whose list takes ids or ref_ids, the
// apply of 200 objects at -parallelism=30 (the emulator answering in
// 100 ms, as a service across a network does) sends each create once and,
// where the lookups are by ref_id, makes at most a fifth of a request more
// per object (its plan's and its create's lookups gathered into lists);
// the plans with them in state read them in at most 20 requests.
func TestAccGathered(t *testing.T) {
	t.Parallel()
	// One type after the other: how many gather depends on how fast
	// Terraform plans, so the types do not slow each other down.
	for _, typ := range gatheredTypes {
		t.Run(typ.name, func(t *testing.T) {
			const n = 200
			opts := emulator.Options{}
			checkContract(t, &opts)
			emu := emulator.StartTest(t, opts)
			emu.Faults.SetLatency(100 * time.Millisecond)
			w := newCLIWorkdir(t)
			w.write(emulatorProviderBlock(emu, ""), typ.configOf(n))
			report := func(step string, got map[string]int) int {
				t.Helper()
				byPath := map[string]int{}
				total := 0
				for k, v := range got {
					byPath[uuidSegment.ReplaceAllString(k, "/{id}")] += v
					if strings.Contains(k, " /v2/") {
						total += v
					}
				}
				logRequests(t, step, byPath)
				return total
			}

			before := emu.Counters.AllRequests()
			w.mustRun(0, "apply", "-auto-approve", "-parallelism=30")
			got := requestsSince(emu, before)
			total := report("apply", got)
			if got[typ.post] != n {
				t.Errorf("apply: %d %s, want %d", got[typ.post], typ.post, n)
			}
			if most := n + n/5; !typ.refreshOnly && total > most {
				t.Errorf("apply: %d API requests for %d objects, want at most %d", total, n, most)
			}

			for i := range 2 {
				if typ.createOnly {
					break
				}
				before = emu.Counters.AllRequests()
				w.mustRun(0, "plan", "-detailed-exitcode", "-parallelism=30")
				step := fmt.Sprintf("plan in state %d", i+1)
				if total := report(step, requestsSince(emu, before)); total > n/10 {
					t.Errorf("%s: %d API requests for %d objects, want at most %d", step, total, n, n/10)
				}
			}
		})
	}
}
