package main

import (
	"fmt"
	"strings"
	"testing"
)

// events renders go test -json lines: each of "pkg action test [output]".
func events(lines ...string) string {
	var b strings.Builder
	for _, l := range lines {
		f := strings.SplitN(l, " ", 4)
		for len(f) < 4 {
			f = append(f, "")
		}
		fmt.Fprintf(&b, `{"Action":%q,"Package":%q,"Test":%q,"Output":%q}`+"\n", f[1], f[0], f[2], f[3])
	}
	return b.String()
}

func TestTally(t *testing.T) {
	in := events(
		"a start",
		"a run TestX", "a pass TestX",
		"a run TestY", "a run TestY/sub", "a output TestY/sub first", "a pass TestY/sub", "a pass TestY",
		"a run TestX", "a pass TestX",
		"a run TestY", "a run TestY/sub", "a output TestY/sub broken", "a fail TestY/sub", "a fail TestY",
		"a run TestX", "a pass TestX",
		"a run TestY", "a pass TestY",
		"a fail",
		// b panics in its second run: TestZ never ends.
		"b run TestZ", "b pass TestZ",
		"b run TestZ", "b output  panic: boom", "b fail",
		"c skip",
		"d run TestW", "d skip TestW", "d run TestW", "d skip TestW", "d run TestW", "d skip TestW", "d pass",
	)
	var out strings.Builder
	if tally(strings.NewReader(in), &out, 3) {
		t.Error("tally reported every run passed")
	}
	got := out.String()
	for _, want := range []string{
		"--- FAIL: TestY (a, run 2 of 3)\nbroken",
		"FAIL a: 2 of 3 runs passed (0s); failed: TestY (runs 2)",
		"panic: boom",
		"FAIL b: 1 of 3 runs passed (0s)",
		"ok   d: 3 of 3 runs passed (0s)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "first") || strings.Contains(got, " c:") {
		t.Errorf("output holds a passing test's output or a package without tests:\n%s", got)
	}

	out.Reset()
	if !tally(strings.NewReader(events("d run TestW", "d pass TestW", "d pass")), &out, 1) {
		t.Errorf("one passing run of one: %s", out.String())
	}
}
