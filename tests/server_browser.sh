#!/usr/bin/env bash
# server_browser.sh - the web page in headless Chromium (tests/browser/
# browser.test.mjs, the tests of suite.mjs): a game against the computer
# played by clicking, the log, two browsers live, a decision, a flat map of
# sheets, facing markers, a Monmouth (BAR) game against the computer,
# screenshots. server_firefox.sh runs the same in
# Firefox. Skips, saying why, when node, Chromium or playwright-core is
# missing.
# Usage: tests/server_browser.sh path/to/musket [screenshot.png]
set -u
musket=${1:?usage: tests/server_browser.sh path/to/musket [screenshot.png]}
cd "$(dirname "$0")/browser"
if ! command -v node >/dev/null; then echo "server_browser.sh: SKIPPED: node is not installed"; exit 0; fi
case $musket in /*) ;; *) musket=$OLDPWD/$musket ;; esac
shot=${2:-${TMPDIR:-/tmp}/musket-browser-screenshot.png}
timeout 330 node browser.test.mjs "$musket" "$shot"
