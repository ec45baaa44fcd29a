#!/usr/bin/env bash
# make demo: build the provider, start the emulator on loopback, apply the
# demo configuration (examples/demo) against it, print its outputs, stop the
# emulator and clean up. Needs only Go and Terraform or OpenTofu on PATH:
# TF names the CLI (TF=tofu make demo); by default terraform, or tofu when
# only tofu is on PATH.
set -euo pipefail
start=$(date +%s)
cd "$(dirname "$0")/.."
root=$(pwd)

tf="${TF:-}"
if [ -z "$tf" ]; then
	if command -v terraform >/dev/null 2>&1; then
		tf=terraform
	elif command -v tofu >/dev/null 2>&1; then
		tf=tofu
	else
		echo "make demo needs terraform or tofu on PATH (or TF=/path/to/either)"
		exit 1
	fi
fi
command -v "$tf" >/dev/null 2>&1 || { echo "TF=$tf: no such command"; exit 1; }
demo="$root/.demo"
rm -rf "$demo"
mkdir -p "$demo/bin" "$demo/work"

emu_pid=""
cleanup() {
	if [ -n "$emu_pid" ] && kill -0 "$emu_pid" 2>/dev/null; then
		kill "$emu_pid" 2>/dev/null || true
		wait "$emu_pid" 2>/dev/null || true
	fi
	rm -rf "$demo"
}
trap cleanup EXIT
trap "exit 130" INT TERM

echo "== make demo: build the provider and the emulator, start the emulator on loopback, apply examples/demo"
echo "   against it with $tf, print its outputs, stop the emulator and remove what it made"
echo "== building the provider and the emulator (the first build compiles every dependency, with a line"
echo "   every few seconds: 2 to 4 minutes on an idle 2-core machine, up to 13 on a loaded one; then seconds)"
# One invocation builds both in parallel; the provider's binary is named
# after the module (terraform-provider-platform), as dev_overrides expects.
# -v names each package as it is compiled: progress.sh counts them and says
# how far the build has got whenever it is silent for a few seconds; any
# other line (an error) is printed as it is.
./scripts/progress.sh build "go build" go build -v -o "$demo/bin/" . ./cmd/platform-emulator 2>&1

echo "== starting the emulator on 127.0.0.1"
"$demo/bin/platform-emulator" -addr 127.0.0.1:0 -env-file "$demo/emulator.env" >"$demo/emulator.log" 2>&1 &
emu_pid=$!
for _ in $(seq 1 100); do
	[ -s "$demo/emulator.env" ] && break
	kill -0 "$emu_pid" 2>/dev/null || { cat "$demo/emulator.log"; echo "emulator exited"; exit 1; }
	sleep 0.1
done
[ -s "$demo/emulator.env" ] || { cat "$demo/emulator.log"; echo "emulator did not start"; exit 1; }
set -a
# shellcheck disable=SC1091
. "$demo/emulator.env"
set +a
echo "   base_url=$PLATFORM_BASE_URL ws_url=$PLATFORM_WS_URL"

# source = "platform/platform" means registry.terraform.io/platform/platform
# to Terraform and registry.opentofu.org/platform/platform to OpenTofu.
cat >"$demo/terraformrc" <<RC
provider_installation {
  dev_overrides {
    "registry.terraform.io/platform/platform" = "$demo/bin"
    "registry.opentofu.org/platform/platform" = "$demo/bin"
  }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="$demo/terraformrc"
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
# Ids of objects the emulator seeded, for the data sources that read them.
export TF_VAR_conversion_id="${PLATFORM_DEMO_CONVERSION_ID:-}"
if [ -n "${PLATFORM_DEMO_DEPOSIT_PROFILE_ID:-}" ]; then
	export TF_VAR_deposit_profile_id="$PLATFORM_DEMO_DEPOSIT_PROFILE_ID"
fi
if [ -n "${PLATFORM_DEMO_PAYOUT_GROUP_ID:-}" ]; then
	export TF_VAR_payout_group_id="$PLATFORM_DEMO_PAYOUT_GROUP_ID"
fi

cp examples/demo/*.tf "$demo/work/"
cd "$demo/work"
tf_version=$("$tf" version)
echo "== ${tf_version%%$'\n'*}: apply"
# What happens is shown as it happens, not the whole plan (it is in the log,
# printed on failure); a line says how long it has run when it is silent.
# shellcheck disable=SC2016 # expanded by the inner bash
if ! "$root/scripts/progress.sh" run "$tf apply" bash -c '
	set -o pipefail
	"$1" apply -auto-approve -input=false -no-color 2>&1 | tee "$2" |
		{ grep --line-buffered -E "^(Plan:|Apply complete!)|: (Creation|Read|Opening) complete" || true; } |
		sed -u "s/^/   /"' _ "$tf" "$demo/apply.log"; then
	cat "$demo/apply.log"
	echo "$tf apply failed"
	exit 1
fi
echo "== outputs"
"$tf" output -no-color
echo "== done in $(($(date +%s) - start))s; stopping the emulator"
