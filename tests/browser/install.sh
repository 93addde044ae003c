#!/usr/bin/env bash
# install.sh - installs the browser tests' npm packages, pinned in
# package.json and package-lock.json, into tests/browser/node_modules:
# playwright-core (drives Chromium) and puppeteer-core (drives Firefox over
# WebDriver BiDi). The browsers themselves are Debian's chromium and
# firefox-esr (scripts/setup --test installs them). Safe to run again; does
# nothing when they are already there or when npm is missing.
set -euo pipefail
cd "$(dirname "$0")"
if [ -d node_modules/playwright-core ] && [ -d node_modules/puppeteer-core ]; then exit 0; fi
if ! command -v npm >/dev/null; then
  echo "tests/browser/install.sh: npm is missing; the browser tests will be skipped" >&2
  exit 0
fi
# The lock file pins every package; `npm ci` installs exactly that.
npm ci --no-audit --no-fund --silent
echo "tests/browser/install.sh: installed playwright-core and puppeteer-core"
