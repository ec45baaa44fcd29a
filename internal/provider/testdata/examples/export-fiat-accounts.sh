#!/bin/sh
# Stands in for the export script of the platform_access_token example in
# TestAccExamples: it records the token the provisioner gave it in the file
# named by its argument, for the test to check.
set -eu
if [ -z "${PLATFORM_TOKEN:-}" ]; then
	echo "PLATFORM_TOKEN is not set" >&2
	exit 1
fi
umask 077
printf '%s' "$PLATFORM_TOKEN" >"$1"
