#!/usr/bin/env bash
# Runs a long command so that it is never silent for more than 10 seconds,
# without a line per package.
#
#   scripts/progress.sh build LABEL go build -v ...   (or go vet -v, go run -v)
#   scripts/progress.sh run LABEL go test ...
#
# build: the command's stderr is read: a line naming a package (what -v
# prints as a package is compiled) is counted, not printed; the modules Go
# downloads from the module proxy are counted too (the first one says so);
# every other line (an error, a warning) is printed as it comes. Its
# stdout is left as it is (go run ... > file).
# run: the command's stdout and stderr are printed as they come.
# Either way, after 8 seconds without a line (PROGRESS_QUIET seconds, when
# set) a line says how far LABEL has got. The exit status is the command's.
set -euo pipefail

mode=${1:?usage: progress.sh build|run LABEL command...}
label=${2:?usage: progress.sh build|run LABEL command...}
shift 2
[ $# -gt 0 ] || { echo "usage: progress.sh build|run LABEL command..." >&2; exit 2; }

# quiet is how long the filter waits, in seconds, before it says how far
# the command has got.
quiet=${PROGRESS_QUIET:-8}

filter() {
	local start last now line partial="" pkgs=0 mods=0 latest="" rc
	printf -v start '%(%s)T' -1
	last=$start
	while :; do
		if IFS= read -r -t 1 line; then
			line=$partial$line
			partial=""
			case "$mode:$line" in
			"build:go: downloading "*)
				mods=$((mods + 1))
				latest="downloading ${line#go: downloading }"
				if [ "$mods" -eq 1 ]; then
					echo "   $label: downloading the Go modules not yet in the module cache from the module proxy (GOPROXY)"
					printf -v last '%(%s)T' -1
				fi
				;;
			build:*" "* | build:*:* | build:)
				echo "$line"
				printf -v last '%(%s)T' -1
				;;
			build:*)
				pkgs=$((pkgs + 1))
				latest="compiling $line"
				;;
			*)
				echo "$line"
				printf -v last '%(%s)T' -1
				;;
			esac
		else
			rc=$?
			if [ "$rc" -le 128 ]; then
				# The end of the output; a last line without a newline is
				# still printed.
				line=$partial$line
				[ -n "$line" ] && echo "$line"
				break
			fi
			# A timeout: what was read of a line so far is kept.
			partial=$partial$line
		fi
		printf -v now '%(%s)T' -1
		if [ $((now - last)) -ge "$quiet" ]; then
			if [ "$mode" = build ]; then
				msg="$pkgs packages compiled"
				[ "$pkgs" -eq 1 ] && msg="1 package compiled"
				[ "$pkgs" -eq 0 ] && msg="still running, no package compiled so far"
				[ "$mods" -eq 1 ] && msg="1 module downloaded, $msg"
				[ "$mods" -gt 1 ] && msg="$mods modules downloaded, $msg"
				[ -n "$latest" ] && msg="$msg, $latest"
			else
				msg="still running"
			fi
			echo "   $label: $msg ($((now - start)) s)"
			last=$now
		fi
	done
	return 0
}

if [ "$mode" = build ]; then
	# stdout goes to fd 3 (the script's stdout), stderr through the filter,
	# whose lines go to stderr.
	{ "$@" 2>&1 1>&3 3>&- | filter >&2; } 3>&1
elif [ "$mode" = run ]; then
	"$@" 2>&1 | filter
else
	echo "progress.sh: mode $mode is not build or run" >&2
	exit 2
fi
