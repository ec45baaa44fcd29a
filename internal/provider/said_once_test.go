package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// TestAccSaidOnce_rejectedSecret: a payroll of 300 planned with a secret
// the service rejects fails with the credentials error said once, not once
// per withdrawal; so does the refresh of withdrawals in the state, and an
// apply. Nothing is sent.
func TestAccSaidOnce_rejectedSecret(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	w := newCLIWorkdir(t)
	block, secret := secretFromEnvironment(w, emu)
	once := func(step string, r cliResult) {
		t.Helper()
		out := flatOutput(r.output())
		if n := strings.Count(out, credentialsRejected); n != 1 {
			t.Errorf("%s: %q said %d times, want once:\n%s", step, credentialsRejected, n, r.output())
		}
		if !strings.Contains(out, strings.Join(strings.Fields(saidOnce), " ")) {
			t.Errorf("%s: the error does not say it is said once:\n%s", step, r.output())
		}
	}

	secret("wrong-secret")
	w.write(block, payrollOf(300)+"data \"platform_transfer_limits\" \"all\" {}\n")
	once("plan of 300 new withdrawals and a data source", w.mustRun(1, "plan", "-parallelism=30"))
	once("apply of 300 new withdrawals", w.mustRun(1, "apply", "-auto-approve", "-parallelism=30"))

	// Five in the state, PENDING: each refresh reads them.
	secret(emulator.DefaultClientSecret)
	w.write(block, payrollOf(5))
	w.mustRun(0, "apply", "-auto-approve")
	secret("rotated-secret")
	once("refresh of 5 withdrawals", w.mustRun(1, "plan"))
	if n := emu.Counters.Requests(cwPostKey); n != 5 {
		t.Errorf("%d withdrawal POSTs, want the 5 applied with the right secret", n)
	}
}

// TestAccSaidOnce_pinnedScopesLack: scopes pinned without the scope a
// create needs fail the plan, once per scope lacking, instead of a green
// plan whose apply fails; nothing is sent.
func TestAccSaidOnce_pinnedScopesLack(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, "  scopes = [\"transfer:read_transfer\"]\n"), payrollOf(3)+depositAddressConfig)
	r := w.mustRun(1, "plan")
	out := flatOutput(r.output())
	for _, scope := range []string{"transfer:write_crypto_withdrawal", "transfer:write_deposit_address"} {
		if n := strings.Count(out, pinnedScopesLack+" "+scope); n != 1 {
			t.Errorf("%q said %d times, want once:\n%s", pinnedScopesLack+" "+scope, n, r.output())
		}
	}
	for _, want := range []string{"Add transfer:write_crypto_withdrawal to scopes", "Nothing was sent."} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan does not say %q:\n%s", want, r.output())
		}
	}
	if n := emu.Counters.Requests(cwPostKey); n != 0 {
		t.Errorf("%d withdrawal POSTs, want none", n)
	}
	// Pinned with it, the plan is green.
	w.write(emulatorProviderBlock(emu, "  scopes = [\"transfer:read_transfer\", \"transfer:write_crypto_withdrawal\"]\n"), payrollOf(3))
	w.mustRun(0, "plan")
}

// TestSayOnce: the first error of each configuration cause is kept and
// says so; a later one of the same cause is dropped, and the call answers
// as if it had not run only when no other error is left.
func TestSayOnce(t *testing.T) {
	s := &onceServer{}
	errOf := func(summary string) *tfprotov6.Diagnostic {
		return &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: summary, Detail: "d"}
	}
	first := []*tfprotov6.Diagnostic{errOf(credentialsRejected + ": Unable to read a")}
	if s.sayOnce(&first) || len(first) != 1 || !strings.HasSuffix(first[0].Detail, saidOnce) {
		t.Fatalf("first: %+v", first[0])
	}
	again := []*tfprotov6.Diagnostic{errOf(credentialsRejected + ": Unable to read b")}
	if !s.sayOnce(&again) || len(again) != 0 {
		t.Errorf("again: kept %d", len(again))
	}
	other := []*tfprotov6.Diagnostic{errOf(credentialsRejected + ": c"), errOf("Invalid amount")}
	if s.sayOnce(&other) || len(other) != 1 || other[0].Summary != "Invalid amount" {
		t.Errorf("with another error: %+v", other)
	}
	scopes := []*tfprotov6.Diagnostic{errOf(pinnedScopesLack + " a"), errOf(pinnedScopesLack + " b"), errOf(pinnedScopesLack + " a")}
	if s.sayOnce(&scopes) || len(scopes) != 2 {
		t.Errorf("two scopes lacking: kept %d, want one each", len(scopes))
	}
	warn := []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityWarning, Summary: credentialsRejected}}
	if s.sayOnce(&warn) || len(warn) != 1 {
		t.Errorf("a warning is not an error of a cause: %+v", warn)
	}
}
