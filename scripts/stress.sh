#!/usr/bin/env bash
# make stress: the unit tests (never the acceptance tests: TF_ACC is unset),
# STRESS_COUNT times over (default 20), on one scheduler thread
# (GOMAXPROCS=1) while STRESS_LOAD busy loops (default: one per CPU) keep
# the machine busy. Prints, per package, how many of the runs passed.
#
#   STRESS_PKGS     packages (default ./...)
#   STRESS_ARGS     more go test flags, for example -run or -skip
#   STRESS_TIMEOUT  go test -timeout of each package (default 3h)
set -euo pipefail
cd "$(dirname "$0")/.."

count=${STRESS_COUNT:-20}
load=${STRESS_LOAD:-$(getconf _NPROCESSORS_ONLN)}
pkgs=${STRESS_PKGS:-./...}
timeout=${STRESS_TIMEOUT:-3h}
read -r -a args <<<"${STRESS_ARGS:-}"
read -r -a pkglist <<<"$pkgs"

tmp=$(mktemp -d)
loops=()
stop() {
	for pid in "${loops[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	wait "${loops[@]}" 2>/dev/null || true
	rm -rf "$tmp"
}
# The busy loops end with the script however it ends (Ctrl-C, a failure,
# the end), and by themselves once it is gone, even killed.
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Built before the load starts: the runs measure the tests, not the compiler.
go build -o "$tmp/stresscount" ./internal/tools/stresscount
env -u TF_ACC go test -count=1 -run '^$' "${pkglist[@]}" >/dev/null

self=$$
for ((i = 0; i < load; i++)); do
	(
		while kill -0 "$self" 2>/dev/null; do
			for ((j = 0; j < 20000; j++)); do :; done
		done
	) &
	loops+=($!)
done

echo "go test -count=$count${args[*]:+ ${args[*]}} $pkgs, with GOMAXPROCS=1 and $load busy loops"
env -u TF_ACC GOMAXPROCS=1 go test -count="$count" -timeout "$timeout" -json "${args[@]}" "${pkglist[@]}" |
	"$tmp/stresscount" -count "$count"
