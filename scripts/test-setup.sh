#!/usr/bin/env bash
# What the test suite needs beyond `npm ci`, provided or named (README, "Development"); run by
# `npm run test:setup` and .ci/run. Exits non-zero, saying what is missing, rather than let a
# test be skipped for want of it.
#   PostgreSQL: TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/test (trust auth).
#   Chromium:   CHROMIUM_PATH, else chromium / chromium-browser / google-chrome on the PATH
#               (__tests__/helpers/browser.ts looks the same way).
set -euo pipefail

say() { echo "test-setup: $*" >&2; }

# --- PostgreSQL -------------------------------------------------------------------------------
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  say "PostgreSQL: using TEST_DATABASE_URL as it is"
elif pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  say "PostgreSQL: a server answers on 127.0.0.1:5432"
elif command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ] && [ -n "$(ls /etc/postgresql)" ]; then
  version="$(ls /etc/postgresql | sort -V | tail -n 1)"
  say "PostgreSQL: starting the cluster $version/main"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
  pg_isready -h 127.0.0.1 -p 5432 -q || { say "PostgreSQL $version/main did not answer on 127.0.0.1:5432 within 30 s"; exit 1; }
else
  say "PostgreSQL: no server answers on 127.0.0.1:5432 and none is installed here."
  say "  Install one (Debian/Ubuntu: apt-get install postgresql), or point TEST_DATABASE_URL at a server"
  say "  where the tests may create schemas (they create their own and drop them)."
  exit 1
fi
if [ -z "${TEST_DATABASE_URL:-}" ] && command -v psql >/dev/null; then
  # the tests connect as postgres to the database "test", without a password
  if ! psql -h 127.0.0.1 -U postgres -d test -Atc 'SELECT 1' >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1; then
      say "PostgreSQL: creating the database test"
      su postgres -c "psql -h 127.0.0.1 -Atc 'CREATE DATABASE test'" >/dev/null 2>&1 || su postgres -c "createdb test"
    fi
    psql -h 127.0.0.1 -U postgres -d test -Atc 'SELECT 1' >/dev/null 2>&1 || {
      say "PostgreSQL: cannot connect as postgres to the database test on 127.0.0.1:5432 without a password."
      say "  Create it and allow local trust authentication, or set TEST_DATABASE_URL."
      exit 1
    }
  fi
fi

# --- Chromium ---------------------------------------------------------------------------------
find_chromium() {
  if [ -n "${CHROMIUM_PATH:-}" ]; then
    if [ -x "$CHROMIUM_PATH" ]; then echo "$CHROMIUM_PATH"; fi
    return 0
  fi
  command -v chromium || command -v chromium-browser || command -v google-chrome || true
}
chromium="$(find_chromium)"
if [ -z "$chromium" ] && [ -n "${CHROMIUM_PATH:-}" ]; then
  say "Chromium: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file"
  exit 1
fi
if [ -z "$chromium" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  say "Chromium: installing Debian's chromium for the page tests"
  apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
  chromium="$(find_chromium)"
fi
if [ -z "$chromium" ]; then
  say "Chromium: none found (CHROMIUM_PATH, chromium, chromium-browser, google-chrome); the report and"
  say "  dashboard page tests need one. Install it (Debian/Ubuntu, as root: apt-get install chromium;"
  say "  macOS: brew install --cask chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary."
  exit 1
fi
say "Chromium: $chromium"
