#!/usr/bin/env bash
# web_geometry.sh - the web page's hex geometry (web/hexmap.js) under node,
# checked against the engine's through `musket serve`: labels (letters and
# the sheets of flat maps), centres, neighbours and shared edges on flat and
# pointy maps (tests/browser/geometry.test.mjs). Needs node only (no npm
# packages, no browser); skips, saying why, without it.
# Usage: tests/web_geometry.sh path/to/musket
set -u
musket=${1:?usage: tests/web_geometry.sh path/to/musket}
cd "$(dirname "$0")/browser"
if ! command -v node >/dev/null; then echo "web_geometry.sh: SKIPPED: node is not installed"; exit 0; fi
case $musket in /*) ;; *) musket=$OLDPWD/$musket ;; esac
timeout 120 node geometry.test.mjs "$musket"
