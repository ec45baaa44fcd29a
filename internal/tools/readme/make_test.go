package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// helpLine is a target's line that make help prints: the target, its
// prerequisites, and "## " before what it does.
var helpLine = regexp.MustCompile(`(?m)^([a-z][a-zA-Z0-9_-]*):[^=\n#]*## (\S.*)$`)

// helpless returns the .PHONY targets of a makefile that make help does
// not list (default excepted: it is build), and the targets it lists that
// are not .PHONY.
func helpless(makefile string) []string {
	var phony []string
	for line := range strings.Lines(makefile) {
		if rest, ok := strings.CutPrefix(line, ".PHONY:"); ok {
			phony = append(phony, strings.Fields(rest)...)
		}
	}
	listed := map[string]bool{}
	for _, m := range helpLine.FindAllStringSubmatch(makefile, -1) {
		listed[m[1]] = true
	}
	var out []string
	isPhony := map[string]bool{}
	for _, t := range phony {
		isPhony[t] = true
		if t != "default" && !listed[t] {
			out = append(out, "make help does not list "+t+": give its line \"## what it does\"")
		}
	}
	for t := range listed {
		if !isPhony[t] {
			out = append(out, "make help lists "+t+", which is not in .PHONY")
		}
	}
	return out
}

// TestMakeHelpListsEveryTarget: make help has a line for every target of
// GNUmakefile, and make alone is still make build.
func TestMakeHelpListsEveryTarget(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "GNUmakefile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range helpless(string(b)) {
		t.Error(m)
	}
	first := regexp.MustCompile(`(?m)^([a-z][a-zA-Z0-9_-]*):(.*)$`).FindStringSubmatch(string(b))
	if first == nil || first[1] != "default" || strings.TrimSpace(first[2]) != "build" {
		t.Errorf("the first target of GNUmakefile is %q, want default: build (make alone builds)", first)
	}
	if !strings.Contains(string(b), "\nhelp:") {
		t.Error("GNUmakefile has no target help")
	}
}

// TestMakeHelpCheckFails: a target without its line, and a line of a
// target that is not .PHONY, are found.
func TestMakeHelpCheckFails(t *testing.T) {
	m := helpless(".PHONY: default build vet\ndefault: build\nbuild: ## Build it\n\tgo build\nvet:\n\tgo vet\nold: ## gone\n")
	if len(m) != 2 || !strings.Contains(m[0], "does not list vet") || !strings.Contains(m[1], "lists old") {
		t.Errorf("helpless = %q", m)
	}
}
