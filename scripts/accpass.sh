#!/usr/bin/env bash
# One acceptance pass of make testacc, testacc-next, testacc-tofu and
# testacc-matrix: the acceptance tests matching RUN under the CLI at CLI_PATH,
# PARALLEL at a time, run by the test binary make acc-build built
# (ACC_TEST_BINARY), whose CLI tests run the provider it built beside it
# (PLATFORM_TEST_PROVIDER_DIR), so that no pass compiles anything.
#
#   scripts/accpass.sh CLI_PATH RUN WHAT PARALLEL
#
# It prints a header with its start time and timeout, the pass's output as
# it comes, a line after every PROGRESS_QUIET (9) seconds without output,
# and a last line with its duration. ACC_TAG prefixes every line (passes
# that run at once). ACC_RECORD, when set, is a file the pass appends one
# line to when it ends: WHAT, its seconds, its timeout in seconds and
# passed or failed, separated by tabs (.ci/run reads them). The exit status
# is the pass's.
set -euo pipefail
# A pass that stops before its header says so, and where.
trap 'echo "${ACC_TAG:-}== acceptance pass stopped at line $LINENO of scripts/accpass.sh (status $?)" >&2' ERR
cd "$(dirname "$0")/.."

cli=${1:?usage: accpass.sh CLI_PATH RUN WHAT PARALLEL}
run=${2:?usage: accpass.sh CLI_PATH RUN WHAT PARALLEL}
what=${3:?usage: accpass.sh CLI_PATH RUN WHAT PARALLEL}
parallel=${4:?usage: accpass.sh CLI_PATH RUN WHAT PARALLEL}
timeout=${ACC_TIMEOUT:-60m}
bin=${ACC_TEST_BINARY:?ACC_TEST_BINARY: the acceptance test binary (make acc-build)}
[ -x "$bin" ] || { echo "ACC_TEST_BINARY=$bin: not an executable (make acc-build builds it)" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tag=${ACC_TAG:-}

# The registry address depends on the CLI: OpenTofu reads source =
# "platform/platform" as registry.opentofu.org/platform/platform.
host=registry.terraform.io
case "$(basename "$cli")" in
*tofu*) host=registry.opentofu.org ;;
esac
# The first line of the version, read whole: under pipefail, head would
# close the pipe while OpenTofu writes its second line, and the pass would
# end there, without a word (SIGPIPE).
version=$(TF_CLI_CONFIG_FILE=/dev/null "$cli" version)
version=${version%%$'\n'*}

seconds() {
	case "$1" in
	*h) echo $((${1%h} * 3600)) ;;
	*m) echo $((${1%m} * 60)) ;;
	*s) echo "${1%s}" ;;
	*) echo "$1" ;;
	esac
}

echo "${tag}== acceptance tests, $what, with $version, $parallel at a time (started $(date -u +%H:%M:%SZ), timeout $timeout)"
start=$(date +%s)
rc=0
(
	cd internal/provider
	TF_ACC=1 TF_CLI_CONFIG_FILE=/dev/null CHECKPOINT_DISABLE=1 \
		TF_ACC_TERRAFORM_PATH="$cli" TF_ACC_PROVIDER_HOST="$host" PROGRESS_QUIET="${PROGRESS_QUIET:-9}" \
		../../scripts/progress.sh run "acceptance pass, $what" \
		"$bin" -test.count=1 -test.run "$run" -test.parallel "$parallel" -test.timeout "$timeout"
) 2>&1 | sed -u "s|^|$tag|" || rc=$?
took=$(($(date +%s) - start))
if [ "$rc" -eq 0 ]; then
	echo "${tag}== acceptance pass done in $took s, $what ($(date -u +%H:%M:%SZ))"
	status=passed
else
	echo "${tag}== acceptance pass FAILED after $took s, $what ($(date -u +%H:%M:%SZ))"
	status=failed
fi
if [ -n "${ACC_RECORD:-}" ]; then
	printf '%s\t%s\t%s\t%s\n' "$what" "$took" "$(seconds "$timeout")" "$status" >>"$ACC_RECORD"
fi
exit "$rc"
