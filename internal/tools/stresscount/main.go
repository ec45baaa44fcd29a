// Command stresscount reads the output of go test -json -count=N on its
// standard input and says, for each package, how many of the N runs of its
// tests passed (make stress). go test -count=N runs the whole list of a
// package's tests N times over; a run passed when every test of it ended
// and none failed. The output of each failed test is printed as it comes.
// The exit status is 1 when a run of a package failed or never ended.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
)

func main() {
	count := flag.Int("count", 20, "the -count given to go test")
	flag.Parse()
	if !tally(os.Stdin, os.Stdout, *count) {
		os.Exit(1)
	}
}

// event is a line of go test -json (test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

// pkgRuns is what one package's events tell so far.
type pkgRuns struct {
	// runs and ends count, per top-level test, the times it started and
	// the times it ended (passed, failed or was skipped).
	runs, ends map[string]int
	// failed holds, per top-level test, the runs (1-based) it failed in.
	failed map[string][]int
	// output holds the output of each top-level test (its subtests'
	// included) in its current run, and of the package outside any test.
	output map[string][]string
	// summary is the package's line once it ended.
	summary string
}

func newPkgRuns() *pkgRuns {
	return &pkgRuns{runs: map[string]int{}, ends: map[string]int{}, failed: map[string][]int{}, output: map[string][]string{}}
}

// tally reads the events from r, writes the failures and one line per
// package to w, and reports whether every run of every package passed.
func tally(r io.Reader, w io.Writer, count int) bool {
	pkgs := map[string]*pkgRuns{}
	var order []string
	allPassed := true
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		switch {
		case json.Unmarshal(sc.Bytes(), &e) != nil:
			// Not an event: go test's own output.
			fmt.Fprintln(w, sc.Text())
			continue
		case e.Action == "build-output":
			fmt.Fprint(w, e.Output)
			continue
		case e.Package == "":
			continue
		}
		p := pkgs[e.Package]
		if p == nil {
			p = newPkgRuns()
			pkgs[e.Package] = p
			order = append(order, e.Package)
		}
		top, _, _ := strings.Cut(e.Test, "/")
		switch {
		case e.Action == "output":
			p.output[top] = append(p.output[top], e.Output)
		case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
			// The package ended (pass, fail or skip: no test files).
			if !p.report(w, e, count) {
				allPassed = false
			}
		case e.Action == "run" && top == e.Test:
			p.runs[top]++
			p.output[top] = nil
		case (e.Action == "pass" || e.Action == "fail" || e.Action == "skip") && top == e.Test:
			p.ends[top]++
			if e.Action == "fail" {
				p.failed[top] = append(p.failed[top], p.runs[top])
				fmt.Fprintf(w, "--- FAIL: %s (%s, run %d of %d)\n%s", top, e.Package, p.runs[top], count,
					strings.Join(p.output[top], ""))
			}
			p.output[top] = nil
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(w, "reading go test -json: %v\n", err)
		return false
	}
	fmt.Fprintln(w, "\nRuns that passed, by package:")
	for _, name := range order {
		if s := pkgs[name].summary; s != "" {
			fmt.Fprintln(w, s)
		}
	}
	return allPassed
}

// report writes the line of a package that ended, keeps it for the final
// summary, and reports whether all its runs passed.
func (p *pkgRuns) report(w io.Writer, e event, count int) bool {
	if len(p.runs) == 0 {
		if e.Action == "fail" {
			fmt.Fprint(w, strings.Join(p.output[""], ""))
			p.summary = fmt.Sprintf("FAIL %s: 0 of %d runs passed (no test ran)", e.Package, count)
			fmt.Fprintln(w, p.summary)
			return false
		}
		return true // no test files
	}
	passed := 0
	for run := 1; run <= count; run++ {
		if p.passed(run) {
			passed++
		}
	}
	var failing []string
	for _, t := range slices.Sorted(maps.Keys(p.failed)) {
		failing = append(failing, fmt.Sprintf("%s (runs %s)", t, joinInts(p.failed[t])))
	}
	status := "ok  "
	if passed < count {
		status = "FAIL"
		if e.Action == "fail" && len(failing) == 0 {
			// The binary ended without a test failing: a panic or the
			// -timeout, whose text is the package's own output.
			fmt.Fprint(w, strings.Join(p.output[""], ""))
		}
	}
	p.summary = fmt.Sprintf("%s %s: %d of %d runs passed (%.0fs)", status, e.Package, passed, count, e.Elapsed)
	if len(failing) > 0 {
		p.summary += "; failed: " + strings.Join(failing, ", ")
	}
	fmt.Fprintln(w, p.summary)
	return passed == count
}

// passed reports whether run (1-based) ended for every test and no test
// failed in it.
func (p *pkgRuns) passed(run int) bool {
	for t := range p.runs {
		if p.ends[t] < run || slices.Contains(p.failed[t], run) {
			return false
		}
	}
	return true
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}
