package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// An object of the money core is an intent: the state records only what
// the service confirmed for this resource. An earlier object under a
// derived ref_id is this resource's only with evidence (an attempt this
// state recorded, or one made within the recovery window); an import that
// cannot read its object, or reads something else, records nothing and
// sends nothing. The scenarios that apply to every resource on the money
// core run for each row of intentRows; the withdrawal's own (its apply
// without the lookup scope, a memo or type answered otherwise, server
// text, an unread state) drive platform_crypto_withdrawal.

// intentRow is what the intent suite needs to know of a resource on the
// money core, besides its row of moneyResources.
type intentRow struct {
	// readScope is the OAuth scope that reads (and imports) its objects.
	readScope string
	// notFound and unreadable are what the import of id fails with when
	// the service does not know id, and when the credentials lack
	// readScope.
	notFound, unreadable func(id string) []string
	// imports are more imports of its own that must fail, in an emulator
	// started with intentOptions.
	imports func(t *testing.T, emu *emulator.Server) []importCase
}

// importCase is an import that must fail: of id, with the provider block
// of block (nil: the default client's), naming want.
type importCase struct {
	name, id string
	block    func(emu *emulator.Server) string
	want     []string
}

// intentOptions are the options of the emulators of the intent suite: a
// few seeded transfers of every type.
var intentOptions = emulator.Options{Transfers: 40}

// cannotImportWith is the error of an import the core refuses
// (cannotImport) for noun, with what it says of the cause.
func cannotImportWith(noun, cause string) func(id string) []string {
	return func(id string) []string { return []string{"Cannot import " + noun + " " + id, cause} }
}

// intentRows are the rows of the intent suite, by resource type: every
// resource on the money core (registry.MoneyCore), each from its fixture.
func intentRows() map[string]intentRow {
	return rowsOf(func(f moneyFixture) (intentRow, bool) { return f.intent, true })
}

// forEachIntentRow runs f as a parallel subtest for each row of intentRows.
func forEachIntentRow(t *testing.T, f func(t *testing.T, res moneyResource, row intentRow)) {
	rows := intentRows()
	for _, typ := range mapKeys(rows) {
		res, row := moneyRow(t, typ), rows[typ]
		t.Run(res.name, func(t *testing.T) {
			t.Parallel()
			f(t, res, row)
		})
	}
}

// monthlyPayout is a payout declared once per month, without a ref_id.
func monthlyPayout(months ...string) string {
	keys := make([]string, len(months))
	for i, m := range months {
		keys[i] = fmt.Sprintf("%q = true", m)
	}
	return `
resource "platform_crypto_withdrawal" "monthly" {
  for_each            = { ` + strings.Join(keys, ", ") + ` }
  profile_id          = "prof-1"
  destination_address = "` + payoutAddress + `"
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = "0.5"
}
`
}

// oneLine collapses the white space of Terraform's wrapped output.
func oneLine(s string) string { return regexp.MustCompile(`\s+`).ReplaceAllString(s, " ") }

// mustContain fails for each of want that out (collapsed) lacks.
func mustContain(t *testing.T, what, out string, want ...string) {
	t.Helper()
	flat := oneLine(out)
	for _, w := range want {
		if !strings.Contains(flat, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, out)
		}
	}
}

// readOnlyTransfersClient is a client of the emulator that may send
// withdrawals but not read transfers.
const readOnlyTransfersClient = "no-transfer-read"

// intentEmulator starts an emulator with the default client and one that
// cannot read transfers.
func intentEmulator(t *testing.T, opts emulator.Options) *emulator.Server {
	t.Helper()
	return emulatorWithout(t, opts, client.ScopeReadTransfer)
}

// emulatorWithout starts an emulator with the default client and
// readOnlyTransfersClient (secret s3), which has every scope but scope.
func emulatorWithout(t *testing.T, opts emulator.Options, scope string) *emulator.Server {
	t.Helper()
	var scopes []string
	for _, s := range emulator.AllScopes {
		if s != scope {
			scopes = append(scopes, s)
		}
	}
	opts.Clients = map[string]emulator.ClientCredentials{
		emulator.DefaultClientID: {Secret: emulator.DefaultClientSecret},
		readOnlyTransfersClient:  {Secret: "s3", Scopes: scopes},
	}
	return startCore(t, opts)
}

// monthly is the body of res declared once per month, without a ref_id.
func monthly(res moneyResource, months ...string) string {
	keys := make([]string, len(months))
	for i, m := range months {
		keys[i] = fmt.Sprintf("%q = true", m)
	}
	return withFirst(res.body, "  for_each = { "+strings.Join(keys, ", ")+" }\n")
}

// An object declared again with the same arguments, outside the recovery
// window, is refused at plan (at apply, by the replay answer of its create,
// where the service publishes no lookup), naming the earlier object and
// both ways on;
// a ref_id of its own makes it a new one.
func TestAccIntent_earlierObjectRefusedAtPlan(t *testing.T) {
	t.Parallel()
	forEachIntentRow(t, func(t *testing.T, res moneyResource, row intentRow) {
		emu := startCore(t, intentOptions)
		w := newCLIWorkdir(t)
		w.write(emulatorProviderBlock(emu, ""), monthly(res, "2026-10"))
		w.mustRun(0, "apply", "-auto-approve")
		october := onlyObject(t, emu, res)

		// A month later the map holds only November's entry, with the same
		// arguments: the plan names October's object and both ways on.
		emu.Advance(30 * 24 * time.Hour)
		w.write(emulatorProviderBlock(emu, ""), monthly(res, "2026-11"))
		posts := emu.Counters.Requests(res.post)
		// A service without a lookup of its objects is asked by the
		// apply's create, which its replay answer refuses: nothing is made.
		refusedCreates := 0
		if !res.noPlanLookup {
			r := w.mustRun(1, "plan")
			mustContain(t, "plan", r.output(),
				res.made,
				res.words.noun+" "+october.ID+" ("+october.Summary+")",
				"30 days ago by the service's clock",
				"to = "+res.typ+".<name>", `id = "`+october.ID+`"`,
				"give it a ref_id of its own",
			)
		} else {
			refusedCreates = 1
		}
		r := w.mustRun(1, "apply", "-auto-approve")
		mustContain(t, "apply", r.output(), res.made, res.words.noun+" "+october.ID+" ("+october.Summary+")",
			"give it a ref_id of its own")
		if n := emu.Counters.Requests(res.post) - posts; n != refusedCreates {
			t.Fatalf("plan and apply sent %d creates, want %d", n, refusedCreates)
		}
		if got := onlyObject(t, emu, res); got.ID != october.ID {
			t.Fatalf("the emulator holds %s, want only October's %s", got.ID, october.ID)
		}

		// With the old entry still in the map, the plan refuses the new one
		// beside it.
		w.write(emulatorProviderBlock(emu, ""), monthly(res, "2026-10", "2026-11"))
		r = w.mustRun(1, "plan")
		// The plan of the object in state claims its ref_id: the new one
		// is a second object with the same key.
		mustContain(t, "plan", r.output(), "Two "+res.words.plural+" with the same ref_id")

		// A ref_id of its own makes November's a new object, beside
		// October's.
		name := res.addr[strings.LastIndex(res.addr, ".")+1:]
		november := withLast(strings.Replace(res.body, `"`+name+`" {`, `"november" {`, 1), "  ref_id = \"payout-2026-11\"\n")
		w.write(emulatorProviderBlock(emu, ""), monthly(res, "2026-10")+november)
		if res.noPlanLookup {
			// The apply that refused November's went on to forget
			// October's, which the map no longer held: it is imported
			// again, as the refusal says.
			w.mustRun(0, "import", res.addr+`["2026-10"]`, october.ID)
		}
		w.mustRun(0, "apply", "-auto-approve")
		w.mustRun(0, "plan", "-detailed-exitcode")
		objs := checkObjects(t, emu, res, 2)
		if objs[0] != october || objs[1].RefID != "payout-2026-11" {
			t.Fatalf("the emulator holds %+v, want October's %+v and one with ref_id payout-2026-11", objs, october)
		}
		if n := emu.Counters.Requests(res.post) - posts - refusedCreates; n != 1 {
			t.Fatalf("%d creates sent since October's, want November's only", n)
		}

		// Another configuration, a day later, with the same arguments: its
		// plan names October's object too.
		emu.Advance(24 * time.Hour)
		other := newCLIWorkdir(t)
		other.write(emulatorProviderBlock(emu, ""), monthly(res, "2026-10"))
		r = other.mustRun(1, "apply", "-auto-approve")
		mustContain(t, "another configuration's apply", r.output(), res.made, october.ID)
		checkObjects(t, emu, res, 2)
		if r := other.run("state", "list"); strings.Contains(r.stdout, res.typ) {
			t.Errorf("the refused object is in the state:\n%s", r.stdout)
		}
	})
}

// Without the scope to look ref_ids up, the plan warns once and the apply
// judges the service's replay answer by the same rule.
func TestAccIntent_recurringPaymentRefusedAtApply(t *testing.T) {
	t.Parallel()
	forEachReplayAnswer(t, func(t *testing.T, replay emulator.ReplayAnswer) {
		emu := intentEmulator(t, emulator.Options{WithdrawalReplay: replay})
		block := emulatorProviderBlockFor(emu, readOnlyTransfersClient, "s3", "")
		w := newCLIWorkdir(t)
		w.write(block, monthlyPayout("2026-10"))
		r := w.mustRun(0, "apply", "-auto-approve")
		if n := strings.Count(r.output(), "Crypto withdrawal not checked at plan"); n != 1 {
			t.Errorf("the warning about the lookup appears %d times, want once:\n%s", n, r.output())
		}
		october := onlyTransfer(t, emu)

		emu.Advance(30 * 24 * time.Hour)
		w.write(block, monthlyPayout("2026-11"))
		r = w.mustRun(1, "apply", "-auto-approve")
		mustContain(t, "apply", r.output(), "An earlier crypto withdrawal has the same arguments",
			"crypto withdrawal "+october.ID, `id = "`+october.ID+`"`, "Nothing was sent and nothing was recorded")
		onlyTransfer(t, emu)
		if r := w.run("state", "list"); strings.Contains(r.stdout, `monthly["2026-11"]`) {
			t.Errorf("November's withdrawal is in the state although nothing was sent:\n%s", r.stdout)
		}

		// Imported, it is this resource's: nothing is sent.
		w.write(block, monthlyPayout("2026-11")+fmt.Sprintf(`
import {
  to = platform_crypto_withdrawal.monthly["2026-11"]
  id = %q
}
`, october.ID))
		// Importing needs the read scope.
		r = w.mustRun(1, "apply", "-auto-approve")
		mustContain(t, "import without the read scope", r.output(), "Cannot import crypto withdrawal "+october.ID,
			"transfer:read_transfer")
		w.write(emulatorProviderBlock(emu, ""), monthlyPayout("2026-11")+fmt.Sprintf(`
import {
  to = platform_crypto_withdrawal.monthly["2026-11"]
  id = %q
}
`, october.ID))
		w.mustRun(0, "apply", "-auto-approve")
		onlyTransfer(t, emu)
		w.mustRun(0, "plan", "-detailed-exitcode")
	})
}

// An unconfirmed create that this state records is recognised at any age:
// its retry, hours later, records the transfer the attempt made.
func TestAccIntent_recordedAttemptAdoptedAfterTheWindow(t *testing.T) {
	t.Parallel()
	forEachReplayAnswer(t, func(t *testing.T, replay emulator.ReplayAnswer) {
		emu := intentEmulator(t, emulator.Options{WithdrawalReplay: replay})
		w := newCLIWorkdir(t)
		w.write(emulatorProviderBlock(emu, "  max_retries = 0\n"), payoutWithdrawal)
		emu.Faults.AcceptThenFail(1)
		w.mustRun(1, "apply", "-auto-approve")
		sent := onlyTransfer(t, emu)

		emu.Advance(6 * time.Hour)
		r := w.mustRun(0, "plan")
		mustContain(t, "plan", r.output(), "Crypto withdrawal already sent at", "as "+sent.ID,
			"this state recorded the attempt that made it", "Applying records it and sends nothing")
		w.mustRun(0, "apply", "-auto-approve")
		checkStateHolds(t, w, onlyTransfer(t, emu))
		w.mustRun(0, "plan", "-detailed-exitcode")
	})
}

// seededOfType returns the id of a seeded transfer of type typ.
func seededOfType(t *testing.T, emu *emulator.Server, typ string) string {
	t.Helper()
	for _, tr := range emu.SeededTransfers() {
		if tr.Type == typ {
			return tr.ID
		}
	}
	t.Fatalf("no seeded transfer of type %s", typ)
	return ""
}

// An import that cannot read its object (an id the service does not
// know, credentials without the read scope, an object of another kind)
// fails, records nothing and sends nothing.
func TestAccIntent_importNeverSends(t *testing.T) {
	t.Parallel()
	forEachIntentRow(t, func(t *testing.T, res moneyResource, row intentRow) {
		emu := emulatorWithout(t, intentOptions, row.readScope)
		// An object made by another configuration, to import.
		elsewhere := newCLIWorkdir(t)
		elsewhere.write(emulatorProviderBlock(emu, ""), res.body)
		elsewhere.mustRun(0, "apply", "-auto-approve")
		made := onlyObject(t, emu, res)

		const unknown = "00000000-0000-4000-8000-00000000dead"
		cases := []importCase{
			{name: "mistyped id", id: unknown, want: row.notFound(unknown)},
			{name: "unreadable", id: made.ID, want: row.unreadable(made.ID), block: func(emu *emulator.Server) string {
				return emulatorProviderBlockFor(emu, readOnlyTransfersClient, "s3", "")
			}},
		}
		if row.imports != nil {
			cases = append(cases, row.imports(t, emu)...)
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				block := emulatorProviderBlock(emu, "")
				if c.block != nil {
					block = c.block(emu)
				}
				w := newCLIWorkdir(t)
				w.write(block, res.body+fmt.Sprintf(`
import {
  to = %s
  id = %q
}
`, res.addr, c.id))
				posts := emu.Counters.Requests(res.post)
				r := w.mustRun(1, "apply", "-auto-approve")
				mustContain(t, "apply", r.output(), c.want...)
				if n := emu.Counters.Requests(res.post) - posts; n != 0 {
					t.Errorf("the import sent %d creates, want none", n)
				}
				if _, err := os.Stat(filepath.Join(w.dir, "terraform.tfstate")); err == nil {
					if r := w.run("state", "list"); strings.TrimSpace(r.stdout) != "" {
						t.Errorf("the failed import left %q in the state", r.stdout)
					}
				}
				if got := onlyObject(t, emu, res); got != made {
					t.Fatalf("the emulator holds %+v, want only %+v", got, made)
				}
			})
		}
	})
}

func TestAccIntent_answerWithAnotherMemoOrType(t *testing.T) {
	t.Parallel()
	stellar := `
resource "platform_crypto_withdrawal" "payout" {
  profile_id          = "prof-1"
  destination_address = "GAHK7EEG2WWHVKDNT4CEQFZGKF2LGDSW2IVM4S5DP42RBW3K6BTODB4A"
  asset               = "XLM"
  crypto_network      = "STELLAR"
  memo                = "1234"
  amount              = "10"
}
`
	for _, c := range []struct {
		field string
		value any
		want  string
	}{
		{"memo", "9999", `memo: requested "1234", answered "9999"`},
		{"type", "CRYPTO_DEPOSIT", `type: "CRYPTO_DEPOSIT", not CRYPTO_WITHDRAWAL`},
	} {
		t.Run(c.field, func(t *testing.T) {
			t.Parallel()
			var lieCreate, lieRead atomic.Bool
			lieCreate.Store(true)
			f := startFrontedEmulator(t, emulator.Options{}, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
				switch {
				case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/crypto-withdrawals") && lieCreate.Load(),
					r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v2/transfer/transfers/") && lieRead.Load():
					rewriteAnswer(t, w, r, next, c.field, c.value)
				default:
					next.ServeHTTP(w, r)
				}
			})
			w := newCLIWorkdir(t)
			w.write(f.providerBlock("  max_retries = 0\n"), stellar)
			r := w.mustRun(1, "apply", "-auto-approve")
			mustContain(t, "apply", r.output(), "Crypto withdrawal answered differently from the request", c.want)
			if r := w.run("state", "list"); strings.Contains(r.stdout, "platform_crypto_withdrawal") {
				t.Errorf("the untrusted answer is in the state:\n%s", r.stdout)
			}

			// The service's own answer, read again, is recorded.
			lieCreate.Store(false)
			w.mustRun(0, "apply", "-auto-approve")
			if n := len(f.emu.Transfers()); n != 1 {
				t.Fatalf("the emulator holds %d transfers, want 1", n)
			}
			st := stateOf(t, w, "platform_crypto_withdrawal.payout")
			if st["memo"] != "1234" || st["type"] != "CRYPTO_WITHDRAWAL" {
				t.Errorf("state holds memo %v type %v", st["memo"], st["type"])
			}

			// A refresh answered with another memo or type is an error, not
			// an update: the state keeps what was confirmed.
			lieRead.Store(true)
			r = w.mustRun(1, "plan")
			mustContain(t, "plan", r.output(), "The service answered with another crypto withdrawal than "+st["id"].(string), c.want)
			lieRead.Store(false)
			w.mustRun(0, "plan", "-detailed-exitcode")
			if st := stateOf(t, w, "platform_crypto_withdrawal.payout"); st["memo"] != "1234" || st["type"] != "CRYPTO_WITHDRAWAL" {
				t.Errorf("after the lying refresh the state holds memo %v type %v", st["memo"], st["type"])
			}
		})
	}
}

// A state that holds an id without arguments (an earlier version's import
// that could not read its transfer) never plans a replacement, which would
// send a new withdrawal beside the one the id names.
func TestAccIntent_unreadStateNeverReplaced(t *testing.T) {
	t.Parallel()
	emu := intentEmulator(t, emulator.Options{})
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, ""), eoWithdrawal)
	b, err := os.ReadFile(filepath.Join("testdata", "legacy", "confirmed.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	res := doc["resources"].([]any)[0].(map[string]any)                                  //nolint:forcetypeassert // A known file.
	attrs := res["instances"].([]any)[0].(map[string]any)["attributes"].(map[string]any) //nolint:forcetypeassert // A known file.
	res["provider"] = `provider["` + providerAddressFor(t, w) + `"]`
	for name := range attrs {
		if name != "id" {
			attrs[name] = nil
		}
	}
	b, _ = json.Marshal(doc)
	if err := os.WriteFile(filepath.Join(w.dir, "terraform.tfstate"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"plan", "-refresh=false"}, {"apply", "-auto-approve", "-refresh=false"}} {
		r := w.mustRun(1, args...)
		mustContain(t, strings.Join(args, " "), r.output(), "Crypto withdrawal "+attrs["id"].(string)+" was never read", //nolint:forcetypeassert // A known file.
			"terraform apply -refresh-only")
	}
	if n := emu.Counters.Requests(cwPostKey); n != 0 {
		t.Errorf("%d withdrawals sent, want none", n)
	}
}

// Server text never reaches the terminal raw: escape sequences in an
// answer (that erase lines, plant a hyperlink) are escaped in every
// diagnostic, through the real CLI with -no-color, and an id that holds
// them is not recorded.
func TestAccIntent_serverTextReachesNoTerminalRaw(t *testing.T) {
	t.Parallel()
	const evil = "\x1b[2K\x1b[1A\x1b]8;;https://evil.example\x07click me\x1b]8;;\x07\u202e"
	var lieID, lieRefresh atomic.Bool
	f := startFrontedEmulator(t, emulator.Options{}, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		switch {
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/crypto-withdrawals") && lieID.Load():
			rewriteAnswer(t, w, r, next, "id", "tr-"+evil)
		case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v2/transfer/transfers/") && lieRefresh.Load():
			rewriteAnswerFields(t, w, r, next, map[string]any{"status": "FAILED", "status_details": map[string]any{"reason": evil}})
		default:
			next.ServeHTTP(w, r)
		}
	})
	w := newCLIWorkdir(t)
	w.write(f.providerBlock("  max_retries = 0\n"), payoutWithdrawal)
	raw := func(what string, out string) {
		t.Helper()
		if i := strings.IndexAny(out, "\x1b\x07\u202e"); i >= 0 {
			t.Errorf("%s: raw control character in Terraform's output at %d: %q", what, i, out[max(0, i-40):min(len(out), i+40)])
		}
	}
	// An id with escape sequences is not recorded.
	lieID.Store(true)
	r := w.mustRun(1, "apply", "-auto-approve")
	raw("apply", r.output())
	mustContain(t, "apply", r.output(), "Crypto withdrawal answered differently from the request", `holds control or invisible characters`)
	// The service's own answer is recorded; a refresh that reports FAILED
	// with escape sequences in its details shows them escaped.
	lieID.Store(false)
	w.mustRun(0, "apply", "-auto-approve")
	lieRefresh.Store(true)
	r = w.mustRun(0, "plan")
	raw("plan", r.output())
	mustContain(t, "plan", r.output(), "Crypto withdrawal FAILED", `\u001b[2K`)
}
