#!/usr/bin/env bash
# install.sh - installs playwright-core (pinned in package.json) for the
# browser test, with npm, into tests/browser/node_modules. The browser itself
# is Debian's chromium (scripts/setup installs it). Safe to run again; does
# nothing when it is already there or when npm is missing.
set -euo pipefail
cd "$(dirname "$0")"
if [ -d node_modules/playwright-core ]; then exit 0; fi
if ! command -v npm >/dev/null; then
  echo "tests/browser/install.sh: npm is missing; the browser test will be skipped" >&2
  exit 0
fi
npm install --no-audit --no-fund --silent
echo "tests/browser/install.sh: installed playwright-core"
