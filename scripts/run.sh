#!/usr/bin/env bash
# Sets up everything Junction needs on a fresh machine, then runs one root script.
#   bash scripts/run.sh playground   # set up, then start the playground
#   bash scripts/run.sh test         # set up, then build, lint, type-check and run every test
# What it installs when missing: Node 24 and pnpm 10 from the npm registry (into
# ~/.cache/junction-toolchain, leaving the system Node alone), the workspace packages, and
# for the tests Debian's chromium for the playground's browser tests and Debian's postgresql
# for the DBOS tests (they start a throwaway cluster of their own on a loopback port).
set -euo pipefail
cd "$(dirname "$0")/.."

toolchain="${JUNCTION_TOOLCHAIN:-$HOME/.cache/junction-toolchain}"
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major)" -lt 22 ] || ! command -v pnpm >/dev/null 2>&1; then
  if [ ! -x "$toolchain/bin/node" ] || [ ! -x "$toolchain/bin/pnpm" ]; then
    echo "junction: installing Node 24 and pnpm 10 into $toolchain" >&2
    npm install --global --prefix "$toolchain" --no-fund --no-audit node@24 pnpm@10 >&2
  fi
  export PATH="$toolchain/bin:$PATH"
fi
if [ "$(node_major)" -lt 22 ]; then
  echo "junction: Node $(node --version) is too old and Node 24 could not be set up; install Node >= 22 and retry." >&2
  exit 1
fi

needs_browser=false
case "${1:-}" in test | ci | test:e2e) needs_browser=true ;; esac
if $needs_browser && [ -d apps/playground/src ] && ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "junction: installing Debian's chromium for the browser tests" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
  else
    echo "junction: the browser tests need Chromium: install Debian's 'chromium' package, or set CHROMIUM_PATH" >&2
  fi
fi

has_postgres() { command -v pg_ctl >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; }
if $needs_browser && [ -d packages/dbos/src ] && ! has_postgres; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "junction: installing Debian's postgresql for the DBOS tests" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
  else
    echo "junction: the DBOS tests need PostgreSQL: install Debian's 'postgresql' package" >&2
  fi
fi

pnpm install --frozen-lockfile --prefer-offline >&2
case "${1:-}" in
  test)
    shift
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    status=0
    pnpm run ci "$@" 2>&1 | tee "$log" || status=$?
    # One closing line for every suite: vitest's "Tests N passed | M failed" lines and the
    # conformance scenarios, added up. A file whose hooks or imports failed leaves its tests
    # "skipped", and an unhandled error fails a run whose tests all passed: both are named too.
    sed 's/\x1b\[[0-9;]*m//g' "$log" | awk '
      function count(word,   i, n) { n = 0; for (i = 1; i < NF; i++) if ($(i+1) ~ ("^" word)) n += $i; return n }
      /Tests +[0-9]/ { p += count("passed"); f += count("failed") }
      /Test Files +[0-9]/ { files += count("failed") }
      /Errors +[0-9]+ error/ { errors += $(NF-1) + 0 }
      /(^|: )conformance: [0-9]+ passed, [0-9]+ failed$/ { sub(/^.*conformance: /, ""); p += $1; f += $3 }
      END {
        printf "tests: %d passed, %d failed", p, f
        if (files) printf ", %d test files failed", files
        if (errors) printf ", %d unhandled errors", errors
        printf "\n"
      }'
    exit "$status"
    ;;
  "") echo "usage: bash scripts/run.sh <playground|test|script> [args…]" >&2; exit 2 ;;
  *) exec pnpm run "$@" ;;
esac
