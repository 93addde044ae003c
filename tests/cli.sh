#!/usr/bin/env bash
# cli.sh - the musket command as a user runs it: help texts, list, show,
# validate with good and bad files, the engine protocol over a pipe (a Hold
# the Line game played to the end by the `ai` command), record and replay.
# Usage: tests/cli.sh path/to/musket
set -u
musket=${1:?usage: tests/cli.sh path/to/musket}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAILED: $*" >&2; }
# expect CODE DESCRIPTION -- COMMAND...: runs it, checks the exit status.
expect() {
  local want=$1 what=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ "$rc" -eq "$want" ]; then ok; else bad "$what: exit $rc, wanted $want"; cat "$tmp/err" >&2; fi
}
contains() {  # contains FILE TEXT DESCRIPTION
  if grep -qF -- "$2" "$1"; then ok; else bad "$3: '$2' not in output"; head -20 "$1" >&2; fi
}

# Help everywhere, and clear refusals.
expect 0 "musket --help" -- "$musket" --help
contains "$tmp/out" "commands:" "musket --help"
for c in play list show validate replay engine; do
  expect 0 "musket $c --help" -- "$musket" "$c" --help
  contains "$tmp/out" "usage: musket $c" "musket $c --help"
done
expect 0 "musket help replay" -- "$musket" help replay
contains "$tmp/out" "usage: musket replay" "musket help replay"
expect 2 "musket without a command" -- "$musket"
expect 2 "unknown command" -- "$musket" conquer
contains "$tmp/err" "unknown command 'conquer'" "unknown command"

# list, show, validate.
expect 0 "musket list" -- "$musket" list
contains "$tmp/out" "htl/tutorial" "musket list"
expect 0 "musket show htl/tutorial" -- "$musket" show htl/tutorial
expect 2 "show of an unknown scenario" -- "$musket" show htl/atlantis
contains "$tmp/err" "unknown scenario 'htl/atlantis'" "show of an unknown scenario"
# 21 ids do not fit the message: it says how many more, not a list that looks whole.
contains "$tmp/err" " more: musket list; or give a .json file" "unknown scenario: the list's end"
# An id is loaded straight from its file (core/catalog.c), but only a
# listed id's shape: no way out of the scenario folder.
for id in htl/../htl/tutorial ../scenarios/htl/tutorial /htl/tutorial htl/ htl/.tutorial; do
  expect 2 "show $id" -- "$musket" show "$id"
  contains "$tmp/err" "unknown scenario '$id'" "show $id: unknown"
done
expect 0 "validate every built-in scenario" -- "$musket" validate scenarios/*/*.json

printf '{"ruleset": "htl", "id": "x",\n  "title": }\n' >"$tmp/syntax.json"
expect 1 "validate: not JSON" -- "$musket" validate "$tmp/syntax.json"
contains "$tmp/err" "syntax.json:2:" "validate: not JSON gives line:column"
sed '0,/"hex": *"[A-Z0-9]*"/s//"hex": "Z9"/' scenarios/htl/tutorial.json >"$tmp/offmap.json"
expect 1 "validate: a unit off the map" -- "$musket" validate "$tmp/offmap.json"
contains "$tmp/err" "units[" "validate: off-map unit names its JSON path"
contains "$tmp/err" "'Z9' is off the map" "validate: off-map unit names the label"
sed 's/"turns"/"turnz"/' scenarios/htl/tutorial.json >"$tmp/noturns.json"
expect 1 "validate: a missing field" -- "$musket" validate "$tmp/noturns.json"
contains "$tmp/err" "turns" "validate: missing field named"
expect 1 "validate: a missing file" -- "$musket" validate "$tmp/nothere.json"

# The engine over a pipe: errors keep it alive and the game unchanged.
coproc ENG { "$musket" engine; }
eng_pid=$ENG_PID   # bash unsets ENG_PID once the engine has ended
send() { echo "$1" >&"${ENG[1]}"; IFS= read -r reply <&"${ENG[0]}"; }
send '{"cmd":"hello","id":1}'
case $reply in *'"protocol":1'*'"id":1'*|*'"id":1'*'"protocol":1'*) ok ;; *) bad "hello: $reply" ;; esac
send 'this is not json'
case $reply in *'"bad_json"'*) ok ;; *) bad "bad line: $reply" ;; esac
send '{"cmd":"state"}'
case $reply in *'"no_game"'*) ok ;; *) bad "state before new: $reply" ;; esac
send '{"cmd":"new","scenario":"htl/tutorial","seed":11}'
case $reply in *'"ok":true'*'"hash"'*) ok ;; *) bad "new: $reply" ;; esac
send '{"cmd":"act","action":{"type":"fire","unit":"nobody","target":"A1"}}'
case $reply in *'"ok":false'*) ok ;; *) bad "act with an unknown unit: $reply" ;; esac
steps=0
while [ $steps -lt 3000 ]; do
  send '{"cmd":"ai","engine":"random"}'
  case $reply in *'"ok":true'*) ;; *) break ;; esac
  action=${reply#\{\"ok\":true,\"action\":}
  action=${action%\}}
  send "{\"cmd\":\"act\",\"action\":$action}"
  case $reply in *'"ok":true'*) steps=$((steps + 1)) ;; *) bad "act of the ai's action: $reply"; break ;; esac
done
send '{"cmd":"state"}'
case $reply in *'"over":true'*) ok ;; *) bad "game not over after $steps actions" ;; esac
send '{"cmd":"record"}'
record=${reply#\{\"ok\":true,\"record\":}
record=${record%\}}
echo "$record" >"$tmp/game.json"
send '{"cmd":"quit"}'
wait "$eng_pid" 2>/dev/null; ok

expect 0 "replay of the engine's record" -- "$musket" replay "$tmp/game.json"
contains "$tmp/out" "matches the record" "replay"
sed 's/"hash": *"[0-9a-f]*"/"hash": "0000000000000000"/' "$tmp/game.json" >"$tmp/tampered.json"
expect 1 "replay of a record with a wrong hash" -- "$musket" replay "$tmp/tampered.json"
contains "$tmp/err" "record.hash" "replay mismatch names the hash"

# musket sim: outputs, a bad path refused before any game, Ctrl-C, and a
# study killed outright keeping its finished games in the CSV.
expect 2 "sim with a CSV path that cannot be written" -- \
  "$musket" sim htl/tutorial -n 2 --a greedy --b random --csv "$tmp/no/such/dir/s.csv"
contains "$tmp/err" "--csv: cannot write $tmp/no/such/dir/s.csv" "sim bad --csv"
expect 0 "sim with every output" -- "$musket" sim htl/tutorial -n 6 --a greedy --b random \
  --threads 2 --quiet --csv "$tmp/s.csv" --json "$tmp/s.json" --svg "$tmp/s.svg"
contains "$tmp/out" "htl/tutorial: 6 of 6 games" "sim report"
if [ "$(cut -d, -f1 "$tmp/s.csv" | tr '\n' ' ')" = "number 0 1 2 3 4 5 " ] && [ ! -e "$tmp/s.csv.part" ]
then ok; else bad "sim CSV: not the 6 games in game order"; cat "$tmp/s.csv" >&2; fi
contains "$tmp/s.json" '"games_played": 6' "sim JSON"
contains "$tmp/s.svg" "<svg" "sim SVG"
# lines_of FILE: game lines in a CSV (0 when there is none).
lines_of() { local l=1; [ -f "$1" ] && l=$(wc -l <"$1"); echo $((l - 1)); }
# start_study NAME: a long study in the background (pid in $sim_pid); waits
# for 3 finished games in its CSV.
start_study() {
  "$musket" sim htl/trenton -n 100000 --a greedy --b greedy --samples 4 --seed 5 --threads 2 \
    --csv "$tmp/$1.csv" >"$tmp/$1.out" 2>"$tmp/$1.err" &
  sim_pid=$!
  local i
  for ((i = 0; i < 600; i++)); do [ "$(lines_of "$tmp/$1.csv")" -ge 3 ] && return 0; sleep 0.1; done
  bad "$1: no game in the CSV within 60 s"
}
start_study ctrlc
kill -INT "$sim_pid"
wait "$sim_pid"; rc=$?
rows=$(lines_of "$tmp/ctrlc.csv")
if [ "$rc" -eq 130 ] && grep -q "htl/trenton: $rows of 100000 games (interrupted)" "$tmp/ctrlc.out" &&
   [ "$rows" -ge 3 ] && [ "$rows" -lt 100000 ]; then ok; else
  bad "sim Ctrl-C: exit $rc, $rows games in the CSV, report: $(head -1 "$tmp/ctrlc.out")"; fi
contains "$tmp/ctrlc.err" "interrupted: reporting the $rows games that finished" "sim Ctrl-C"
# A second Ctrl-C stops at once: the games in progress (some 10 s each
# here) are left out, and what finished is reported and written.
"$musket" sim htl/tutorial -n 4 --a mcts --b mcts --budget-ms 200 --threads 2 \
  --json "$tmp/abandon.json" >"$tmp/abandon.out" 2>"$tmp/abandon.err" &
sim_pid=$!
sleep 1.5; kill -INT "$sim_pid"; sleep 0.5; kill -INT "$sim_pid"
wait "$sim_pid"; rc=$?
if [ "$rc" -eq 130 ] && grep -q "htl/tutorial: 0 of 4 games (interrupted)" "$tmp/abandon.out" &&
   grep -q '"games_played": 0' "$tmp/abandon.json"; then ok; else
  bad "sim second Ctrl-C: exit $rc, report: $(head -1 "$tmp/abandon.out")"; fi
contains "$tmp/abandon.err" "reporting the 0 games that finished (those in progress left out)" \
  "sim second Ctrl-C"
# The second Ctrl-C is acknowledged though every game ends before the
# ticker's next second.
contains "$tmp/abandon.err" "musket sim: stopping now: the games in progress are left out" \
  "sim second Ctrl-C acknowledged"
# Off a terminal, a line as soon as the study starts (a game can take minutes).
contains "$tmp/ctrlc.err" "sim: 0/100000 games, A 0, B 0, draws 0, 0s elapsed, ETA ?" "sim start line"
# On a terminal (script(1) gives one), the bar is redrawn every second while
# the first game is still under way, its ETA unknown until a game ends, and
# Ctrl-C is answered at once though the game (some 10 s) plays on.
if command -v script >/dev/null; then
  script -qfec "'$musket' sim htl/tutorial -n 1 --a mcts --b mcts --budget-ms 200 &
    sleep 1.3; kill -INT \$!; sleep 1.3; kill -KILL \$!" /dev/null >"$tmp/tty.out" 2>&1
  contains "$tmp/tty.out" "0/1 games  A 0  B 0  draws 0  2s elapsed  ETA ?" "sim bar redrawn while a game runs"
  contains "$tmp/tty.out" "musket sim: stopping after the games in progress (Ctrl-C again stops now, leaving them out)" \
    "sim Ctrl-C heard during a long game"
  # The finished bar is drawn once, then the line ends.
  script -qfec "'$musket' sim htl/tutorial -n 4 --a random --b random" /dev/null >"$tmp/tty2.out" 2>&1
  full=$(grep -o "4/4 games" "$tmp/tty2.out" | wc -l)
  if [ "$full" -eq 1 ] && grep -q "4/4 games.*ETA 0s" "$tmp/tty2.out"; then ok; else
    bad "sim on a terminal: the finished bar drawn $full times"; fi
fi
start_study killed
kill -KILL "$sim_pid"
wait "$sim_pid" 2>/dev/null
rows=$(lines_of "$tmp/killed.csv")
# Whole lines only, and a game that both studies finished (the same seed)
# is the same game in both.
whole=$(tail -n +2 "$tmp/killed.csv" |
  grep -cE '^[0-9]+,[0-9]+,greedy samples 4,greedy samples 4,[a-z]*,[a-z]*,[0-9]+,[0-9]+,[0-9]+,[0-9]+,[0-9.]+,htl/trenton,$')
differ=$(join -t, <(tail -n +2 "$tmp/killed.csv" | cut -d, -f1-10 | sort -t, -k1,1) \
  <(tail -n +2 "$tmp/ctrlc.csv" | cut -d, -f1-10 | sort -t, -k1,1) |
  awk -F, '{ for (i = 2; i <= 10; i++) if ($i != $(i + 9)) { print; break } }' | wc -l)
if [ "$rows" -ge 3 ] && [ "$whole" -eq "$rows" ] && [ "$differ" -eq 0 ]; then ok; else
  bad "sim killed: $rows games in the CSV, $whole whole, $differ differ"; cat "$tmp/killed.csv" >&2; fi
# --resume: the killed study goes on in its CSV, its games not played
# again, and ends with exactly the games of a study never stopped (greedy
# is deterministic; all but the seconds compared). -n: 2 games past the
# last one the killed study finished, so the gaps its two threads left are
# played too.
last=$(tail -n +2 "$tmp/killed.csv" | cut -d, -f1 | sort -n | tail -1)
n=$((last + 3))
resume_cmd=("$musket" sim htl/trenton -n "$n" --a greedy --b greedy --samples 4 --seed 5)
expect 0 "sim --resume" -- "${resume_cmd[@]}" --resume "$tmp/killed.csv" --json "$tmp/resumed.json"
contains "$tmp/err" "resuming: $rows of the $n games read from $tmp/killed.csv, $((n - rows)) to play" \
  "sim --resume says what it read"
contains "$tmp/out" "htl/trenton: $n of $n games" "sim --resume report"
contains "$tmp/resumed.json" "\"games_resumed\": $rows" "sim --resume JSON"
expect 0 "sim never stopped" -- "${resume_cmd[@]}" --csv "$tmp/whole.csv" --quiet
if diff <(cut -d, -f1-10,12-13 "$tmp/killed.csv") <(cut -d, -f1-10,12-13 "$tmp/whole.csv") >/dev/null &&
   [ "$(lines_of "$tmp/whole.csv")" -eq "$n" ]; then ok; else
  bad "sim --resume: the resumed study's games differ from a whole study's"; fi
# Another study's CSV is refused, and left as it was.
before=$(md5sum <"$tmp/whole.csv")
expect 2 "sim --resume of another seed" -- "${resume_cmd[@]:0:12}" 6 --resume "$tmp/whole.csv"
contains "$tmp/err" "is not that of game 0 of --seed 6 (the CSV is of another study)" "sim --resume seed"
expect 2 "sim --resume of another scenario" -- "$musket" sim htl/tutorial -n "$n" --a greedy --b greedy \
  --samples 4 --seed 5 --resume "$tmp/whole.csv"
contains "$tmp/err" "game 0 is of htl/trenton, this study of htl/tutorial" "sim --resume scenario"
expect 2 "sim --resume with other engines" -- "${resume_cmd[@]}" --b random --resume "$tmp/whole.csv"
contains "$tmp/err" "not by this study's engines (greedy samples 4 against random)" "sim --resume engines"
expect 2 "sim --resume with other samples" -- "${resume_cmd[@]}" --samples 8 --resume "$tmp/whole.csv"
contains "$tmp/err" "was played by greedy samples 4 against greedy samples 4, not by this study's engines (greedy against greedy)" \
  "sim --resume samples"
expect 2 "sim --resume with fewer --max-actions" -- "${resume_cmd[@]}" --max-actions 10 \
  --resume "$tmp/whole.csv"
contains "$tmp/err" "line 2: game 0 ended after" "sim --resume max-actions"
contains "$tmp/err" "actions, which --max-actions 10 would not give" "sim --resume max-actions"
expect 2 "sim --resume of no file" -- "${resume_cmd[@]}" --resume "$tmp/none.csv"
contains "$tmp/err" "--resume: cannot read $tmp/none.csv" "sim --resume no file"
if [ "$(md5sum <"$tmp/whole.csv")" = "$before" ]; then ok; else bad "sim --resume refused, and the CSV changed"; fi
# A last line cut short as the run was killed is left out and played again.
{ head -3 "$tmp/whole.csv"; sed -n 4p "$tmp/whole.csv" | cut -c1-12 | tr -d '\n'; } >"$tmp/cut.csv"
expect 0 "sim --resume of a cut line" -- "${resume_cmd[@]:0:4}" 4 "${resume_cmd[@]:5}" \
  --resume "$tmp/cut.csv" --quiet
contains "$tmp/err" "line 4 is cut short" "sim --resume cut line"
if diff <(cut -d, -f1-10 "$tmp/cut.csv") <(head -5 "$tmp/whole.csv" | cut -d, -f1-10) >/dev/null
then ok; else bad "sim --resume of a cut line: not the 4 games"; cat "$tmp/cut.csv" >&2; fi

# Terminal play with piped input ends cleanly at end of input.
printf '1\nq\n' | "$musket" play htl/tutorial --seed 3 --no-color >"$tmp/play.out" 2>&1
rc=$?
if [ $rc -eq 0 ]; then ok; else bad "play with piped input: exit $rc"; tail -5 "$tmp/play.out" >&2; fi

# The computer's search threads: refused where there is no search.
expect 2 "play --threads 0" -- "$musket" play htl/tutorial --threads 0
contains "$tmp/err" "--threads '0' is not a whole number from 1 to 64" "play --threads 0"
expect 2 "play --threads with greedy" -- "$musket" play htl/tutorial --ai greedy --threads 2
contains "$tmp/err" "--threads is for the computer's search (--ai easy, normal, hard or mcts), not greedy" \
  "play --threads with greedy"
expect 2 "play --threads in hotseat" -- "$musket" play htl/tutorial --hotseat --threads 2
contains "$tmp/err" "not --hotseat" "play --threads in hotseat"
expect 0 "sim --search-threads" -- "$musket" sim htl/tutorial -n 2 --a mcts --b greedy --iterations 50 \
  --search-threads 2 --quiet
contains "$tmp/out" "A mcts 50 it 2 threads" "sim --search-threads names the engine"
expect 2 "sim --search-threads 0" -- "$musket" sim htl/tutorial -n 2 --a mcts --b greedy --search-threads 0
contains "$tmp/err" "--search-threads: '0' is not a whole number from 1 to 64" "sim --search-threads 0"

# whole_game SCENARIO SIDE RULE [OPTION...]: a whole game against the
# computer's mcts (easy: 0.1 s a move) playing SIDE, the person always
# taking the first action listed: it ends, and each of the computer's
# actions is followed by an event citing a section of RULE (HtL, H&M), as
# a person's is.
whole_game() {
  local out="$tmp/whole-${1//\//-}${4:-}.out" rc moves unexplained
  yes 1 | "$musket" play "$1" --ai easy --seed 5 --no-color --map off "${@:4}" >"$out" 2>&1
  rc=$?
  moves=$(grep -c "^$2 (computer): " "$out")
  unexplained=$(awk -v who="^$2 \\(computer\\): " -v rule="\\($3 [0-9]" '
    $0 ~ who { if (want) n++; want = 1; next }
    want { if ($0 !~ rule) n++; want = 0 } END { print n + 0 }' "$out")
  if [ $rc -eq 0 ] && grep -q '^Game over: ' "$out" && [ "$moves" -ge 10 ] && [ "$unexplained" -eq 0 ]; then
    ok; else bad "whole game of $1 ${*:4} against mcts: exit $rc, $moves computer actions, $unexplained without a rule"
    tail -5 "$out" >&2; fi
}
whole_game htl/tutorial american HtL
whole_game htl/tutorial american HtL --threads 2
whole_game hm/fraustadt saxon 'H&M'

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
