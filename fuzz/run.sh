#!/usr/bin/env bash
# run.sh - runs one libFuzzer target for a bounded time on a copy of its
# seed corpus (fuzz/corpus/NAME/, so the tree is never changed), with the
# JSON dictionary. A crash's input is kept as fuzz-crashes/NAME-crash-*
# (in the current folder): copy it into fuzz/corpus/NAME/ and the
# replay_fuzz_NAME test replays it from then on.
# Usage: fuzz/run.sh build-fuzz/fuzz_NAME [SECONDS]   (from the source root)
# Prints "fuzz_NAME: ok|FAILED, N executions"; exits non-zero on a crash.
set -uo pipefail
f=${1:?usage: fuzz/run.sh path/to/fuzz_NAME [SECONDS]}
seconds=${2:-${MUSKET_FUZZ_SECONDS:-60}}
root=$(cd "$(dirname "$0")/.." && pwd)
name=$(basename "$f"); corpus=$root/fuzz/corpus/${name#fuzz_}
work=$(mktemp -d); log=$(mktemp)
trap 'rm -rf "$work" "$log"' EXIT
[ -d "$corpus" ] && cp -r "$corpus"/. "$work"/
mkdir -p fuzz-crashes
if "$f" -max_total_time="$seconds" -print_final_stats=1 -dict="$root/fuzz/json.dict" \
     -artifact_prefix="fuzz-crashes/$name-" "$work" 2>"$log"; then
  result=ok; rc=0
else
  result=FAILED; rc=1; tail -40 "$log"
fi
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
rmdir fuzz-crashes 2>/dev/null   # only kept when it holds a crash
echo "$name: $result, ${runs:-0} executions in ${seconds} s"
exit $rc
