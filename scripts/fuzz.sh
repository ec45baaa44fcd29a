#!/usr/bin/env bash
# Runs every Go fuzz target of the module for a short, fixed time each.
# Usage: scripts/fuzz.sh [duration]   (default 5s)
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-5s}
found=0
for pkg in $(go list ./...); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
	for t in $targets; do
		found=$((found + 1))
		echo "fuzz $pkg $t for $fuzztime"
		# The test binary is compiled with coverage first: a line every few
		# seconds until the fuzzing prints its own.
		./scripts/progress.sh run "fuzz $t" go test "$pkg" -run '^$' -fuzz "^${t}\$" -fuzztime "$fuzztime"
	done
done
echo "fuzz: $found targets run"
