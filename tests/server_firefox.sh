#!/usr/bin/env bash
# server_firefox.sh - the web page in headless Firefox (tests/browser/
# firefox.test.mjs: Debian's firefox-esr driven by puppeteer-core over
# WebDriver BiDi): the same tests as server_browser.sh runs in Chromium (a
# game against the computer played by clicking, the log, two browsers live,
# a decision, a flat map of sheets, facing markers, a Monmouth (BAR) game,
# screenshots).
# Skips, saying why, when node, Firefox or puppeteer-core is missing.
# Usage: tests/server_firefox.sh path/to/musket [screenshot.png]
set -u
musket=${1:?usage: tests/server_firefox.sh path/to/musket [screenshot.png]}
cd "$(dirname "$0")/browser"
if ! command -v node >/dev/null; then echo "server_firefox.sh: SKIPPED: node is not installed"; exit 0; fi
case $musket in /*) ;; *) musket=$OLDPWD/$musket ;; esac
shot=${2:-${TMPDIR:-/tmp}/musket-firefox-screenshot.png}
timeout 330 node firefox.test.mjs "$musket" "$shot"
