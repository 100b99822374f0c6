#!/usr/bin/env bash
# build.sh rebuilds LandTitle from source: the pinned solc-js and OpenZeppelin (npm ci from
# package-lock.json), compile.mjs, then go-ethereum's abigen generator at the version in go.mod.
#
#   build.sh           writes parcel/landtitle/LandTitle.{abi,bin,bin-runtime} and landtitle_binding.go
#   build.sh --check   rebuilds into a temporary directory and exits 1, with a diff summary, if any
#                      byte differs from the committed files (what CI runs)
#
# The binding comes from go-ethereum's abigen generator (accounts/abi/abigen.Bind, what
# `abigen --abi --bin --pkg --type` runs), called by ../internal/bindgen inside this module: the
# generator is the go-ethereum of go.mod, the output byte-identical to the abigen command's, and
# no build of cmd/abigen's own dependency graph (minutes on a cold cache) is needed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pkg=$(dirname "$here")
root=$(cd "$pkg/../.." && pwd)
files=(LandTitle.abi LandTitle.bin LandTitle.bin-runtime landtitle_binding.go)

check=false
case "${1:-}" in
"") ;;
--check) check=true ;;
*)
	echo "usage: $0 [--check]" >&2
	exit 2
	;;
esac

cd "$here"
# --ignore-scripts: neither package needs an install script (solc-js ships its soljson.js).
timeout 300 npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2

out=$pkg
if $check; then
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi
node compile.mjs "$out"

cd "$root"
version=$(go list -m -f '{{.Version}}' github.com/ethereum/go-ethereum)
timeout 900 go run ./parcel/landtitle/internal/bindgen \
	-abi "$out/LandTitle.abi" -bin "$out/LandTitle.bin" \
	-pkg landtitle -type LandTitle -out "$out/landtitle_binding.go"
chmod 0644 "$out/landtitle_binding.go"

if ! $check; then
	echo "build.sh: wrote ${files[*]} in ${pkg#"$root"/} (abigen $version)"
	exit 0
fi

status=0
for f in "${files[@]}"; do
	if ! cmp -s "$out/$f" "$pkg/$f"; then
		status=1
		echo "build.sh --check: parcel/landtitle/$f differs from a rebuild of the source:"
		if [ -f "$pkg/$f" ]; then
			diff -u "$pkg/$f" "$out/$f" | head -n 20 | cut -c 1-200 || true
		else
			echo "  (not committed)"
		fi
	fi
done
if [ "$status" -ne 0 ]; then
	echo "build.sh --check: FAILED; run parcel/landtitle/contracts/build.sh and commit the result" >&2
	exit 1
fi
echo "build.sh --check: ${files[*]} match a rebuild (solc $(node -p 'require("./parcel/landtitle/contracts/package.json").devDependencies.solc'), abigen $version)"
