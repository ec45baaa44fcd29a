#!/usr/bin/env bash
# What a CI job runs: start the emulator on a free loopback port, point the
# provider at it, run the example's `terraform test`, then the rehearsal of
# a failure (rehearse.sh), and stop the emulator.
#
# Needs on PATH: platform-emulator (go install
# github.com/platform/terraform-provider-platform/cmd/platform-emulator@<version>),
# curl, and terraform (TF names another CLI, for example TF=tofu). terraform
# init installs the provider as for any configuration: from the registry,
# or from the mirror that the CLI configuration (TF_CLI_CONFIG_FILE) names.
set -euo pipefail
tf="${TF:-terraform}"
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
emu_pid=""
cleanup() {
	if [ -n "$emu_pid" ]; then
		kill "$emu_pid" 2>/dev/null || true
		wait "$emu_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

# Port 0: a free port; the settings land in the env file once it listens.
platform-emulator -addr 127.0.0.1:0 -env-file "$tmp/emulator.env" \
	-log-level "${EMULATOR_LOG_LEVEL:-info}" >"$tmp/emulator.out" 2>"${EMULATOR_LOG:-$tmp/emulator.log}" &
emu_pid=$!
for _ in $(seq 1 100); do
	[ -s "$tmp/emulator.env" ] && break
	sleep 0.1
done
[ -s "$tmp/emulator.env" ] || { cat "$tmp/emulator.out"; echo "the emulator did not start"; exit 1; }
set -a
# shellcheck disable=SC1091
. "$tmp/emulator.env"
set +a

# A copy, so that the CLI writes nothing into the repository.
cp -R "$here"/*.tf "$here/tests" "$tmp/"
(cd "$tmp" && "$tf" init -input=false -no-color >/dev/null && "$tf" test -no-color)
TF="$tf" "$here/rehearse.sh"
