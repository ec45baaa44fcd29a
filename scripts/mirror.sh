#!/usr/bin/env bash
# make mirror: lay the local build of the provider out as a filesystem
# mirror, under both registry addresses (registry.terraform.io for
# Terraform, registry.opentofu.org for OpenTofu), and print the CLI
# configuration that installs platform/platform from it. A configuration
# then installs the local build with `terraform init` (or `tofu init`) and
# its own version constraint, before any release exists, and init downloads
# nothing (the build fetches the Go modules it needs from the module proxy
# the first time).
#
#   MIRROR_DIR       where the mirror goes (default dist/mirror)
#   MIRROR_VERSION   the version it holds (default 0.2.0: make mirror passes
#                    the version of the CHANGELOG's unreleased section)
#   PROVIDER_BINARY  a binary already built to lay out, instead of building
#   GOOS, GOARCH     the platform of the build (default this machine's)
set -euo pipefail
cd "$(dirname "$0")/.."

go_cmd="${GO:-go}"
dir="${MIRROR_DIR:-dist/mirror}"
version="${MIRROR_VERSION:-0.2.0}"
case "$version" in
v*) version="${version#v}" ;;
esac
if ! printf '%s' "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'; then
	echo "MIRROR_VERSION=$version is not a version such as 0.2.0" >&2
	exit 1
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
platform="$("$go_cmd" env GOOS)_$("$go_cmd" env GOARCH)"

bin="${PROVIDER_BINARY:-}"
if [ -z "$bin" ]; then
	echo "== building the provider $version for $platform (the first build compiles every dependency:" >&2
	echo "   a few minutes, with a line every few seconds; then seconds)" >&2
	bin="$dir/.build/terraform-provider-platform"
	./scripts/progress.sh build "go build" "$go_cmd" build -v -ldflags "-X main.version=$version" -o "$bin" .
else
	echo "== laying out $bin (PROVIDER_BINARY) as platform/platform $version for $platform" >&2
fi
[ -x "$bin" ] || { echo "PROVIDER_BINARY=$bin: not an executable" >&2; exit 1; }

for host in registry.terraform.io registry.opentofu.org; do
	target="$dir/$host/platform/platform/$version/$platform"
	echo "== $host/platform/platform $version $platform" >&2
	mkdir -p "$target"
	cp "$bin" "$target/terraform-provider-platform_v$version"
	chmod 0755 "$target/terraform-provider-platform_v$version"
done
rm -rf "$dir/.build"

rc="$dir/platform.tfrc"
cat >"$rc" <<RC
provider_installation {
  filesystem_mirror {
    path    = "$dir"
    include = ["registry.terraform.io/platform/platform", "registry.opentofu.org/platform/platform"]
  }
  direct {
    exclude = ["registry.terraform.io/platform/platform", "registry.opentofu.org/platform/platform"]
  }
}
RC

echo "== platform/platform $version for $platform is in the filesystem mirror $dir" >&2
echo "== for registry.terraform.io (Terraform) and registry.opentofu.org (OpenTofu). To install it from" >&2
echo "== there, put this in your CLI configuration (~/.terraformrc, or terraform.rc on Windows)," >&2
echo "== or point TF_CLI_CONFIG_FILE at $rc:" >&2
cat "$rc"
