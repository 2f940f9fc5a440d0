#!/usr/bin/env bash
# Installs Debian's PostgreSQL server, the real database the PostgreSQL destination is tested
# against (scripts/lib/postgres.mjs starts a private server of it for each test run and bench).
# Idempotent and quick when present: apt is asked only when no initdb is installed, and its
# package lists are refreshed only when the package cannot be found without it.
set -euo pipefail

log() { printf '[install-postgres] %s\n' "$*" >&2; }

found() { compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; }

if found; then
  exit 0
fi
if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; then
  log "PostgreSQL is not installed (install it as root: apt-get install postgresql)"
  exit 1
fi
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
log "installing Debian's postgresql"
if ! apt-cache show postgresql >/dev/null 2>&1; then
  $SUDO apt-get update -qq
fi
# The package starts a cluster of its own on install; the tests never use it (they start their own).
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null \
  || { $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null; }
found || { log "no initdb under /usr/lib/postgresql after the install"; exit 1; }
log "done"
