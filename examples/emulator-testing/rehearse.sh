#!/usr/bin/env bash
# Rehearsal of a run that dies after the service accepted the withdrawal,
# against an emulator whose PLATFORM_* settings are in the environment
# (platform-emulator -env-file emulator.env; set -a; . ./emulator.env; set +a).
#
#   1. arm the fault: the next withdrawal POST is processed, then answered 500;
#   2. apply without retries (PLATFORM_MAX_RETRIES=0): the apply fails, the
#      outcome unknown, the ref_id kept in the state;
#   3. apply again: the provider finds the transfer by its ref_id and
#      records it; nothing is sent again;
#   4. check at the emulator: exactly one transfer with that ref_id, a plan
#      with no change; settle the transfer and read its new status.
#
# TF names the CLI (terraform by default). Needs curl.
set -euo pipefail
tf="${TF:-terraform}"
here="$(cd "$(dirname "$0")" && pwd)"
admin="${PLATFORM_AUTH_URL:?set the PLATFORM_* variables of the emulator}/admin"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here"/*.tf "$work"/
cd "$work"
"$tf" init -input=false -no-color >/dev/null

echo "== 1. arm accept-then-fail on the withdrawal POST"
curl -fsS -X PUT "$admin/faults" -H 'Content-Type: application/json' \
	-d '{"accept_then_fail": 1, "path_prefix": "/v2/transfer/crypto-withdrawals"}'
echo

echo "== 2. the run that dies"
if PLATFORM_MAX_RETRIES=0 "$tf" apply -auto-approve -input=false -no-color -var ref_id=rehearsal-1 >apply1.log 2>&1; then
	cat apply1.log
	echo "FAIL: the apply should have failed"
	exit 1
fi
grep -q "rehearsal-1" apply1.log || { cat apply1.log; echo "FAIL: the error does not name the ref_id"; exit 1; }
echo "   failed as expected; the state keeps the ref_id"

echo "== 3. the re-apply that recovers"
"$tf" apply -auto-approve -input=false -no-color -var ref_id=rehearsal-1 >apply2.log 2>&1 || { cat apply2.log; echo "FAIL: the re-apply failed"; exit 1; }
grep -Eq "recorded, not sent|not sent again" apply2.log || { cat apply2.log; echo "FAIL: the re-apply did not record the earlier withdrawal"; exit 1; }
echo "   recorded the withdrawal sent by the run that died; sent nothing again"
id=$("$tf" output -raw transfer_id)

echo "== 4. checks"
transfers=$(curl -fsS "$admin/transfers?ref_id=rehearsal-1")
case "$transfers" in
*'"count":1,'*"\"id\":\"$id\""*) echo "   one withdrawal sent: $id" ;;
*) echo "FAIL: want exactly one transfer $id with ref_id rehearsal-1: $transfers"; exit 1 ;;
esac
"$tf" plan -detailed-exitcode -input=false -no-color -var ref_id=rehearsal-1 >/dev/null ||
	{ echo "FAIL: the plan after recovery is not empty"; exit 1; }
echo "   the next plan changes nothing"
curl -fsS -X POST "$admin/transfers/$id/status" -H 'Content-Type: application/json' \
	-d '{"status": "COMPLETED", "crypto_tx_hash": "0xrehearsal"}'
"$tf" apply -refresh-only -auto-approve -input=false -no-color -var ref_id=rehearsal-1 >/dev/null
status=$("$tf" output -raw status)
[ "$status" = COMPLETED ] || { echo "FAIL: status $status after settling, want COMPLETED"; exit 1; }
echo "   settled: $status"
echo "rehearsal passed"
