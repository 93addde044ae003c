#!/usr/bin/env bash
# bar_cli.sh - the Monmouth (BAR) scenarios as a user reaches them: listed
# and shown; the engine protocol driven through a few BAR actions by JSON
# lines (activate, move, undo, refusals that leave the game unchanged,
# record and replay); `musket play` in the terminal (the map window, the
# per-unit action list, the units table, actions typed as JSON), played
# to the end of scenario 1 from piped input, and against mcts.
# Usage: tests/bar_cli.sh path/to/musket
set -u
musket=${1:?usage: tests/bar_cli.sh path/to/musket}
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
lacks() {  # lacks FILE TEXT DESCRIPTION
  if grep -qF -- "$2" "$1"; then bad "$3: '$2' in output"; grep -m3 -F -- "$2" "$1" >&2; else ok; fi
}
has() {  # has TEXT PATTERN DESCRIPTION: a glob match on a reply
  # shellcheck disable=SC2053
  if [[ $1 == $2 ]]; then ok; else bad "$3: ${1:0:300}"; fi
}
hash_of() { local h=${1#*\"hash\":\"}; echo "${h%%\"*}"; }

# list and show.
expect 0 "musket list" -- "$musket" list
for id in bar/1-lees-repulse bar/2-washingtons-stand bar/3-grand-battle bar/4-general-engagement; do
  contains "$tmp/out" "$id" "musket list names $id"
done
expect 0 "musket show bar/1-lees-repulse" -- "$musket" show bar/1-lees-repulse
contains "$tmp/out" "Lee's Repulse" "show: the title"
contains "$tmp/out" "E1525" "show: a hex label of the two-sheet map"
contains "$tmp/out" "LBn/LAF" "show: a unit of the set-up"

# The engine over a pipe.
coproc ENG { "$musket" engine; }
eng_pid=$ENG_PID
send() {  # one request, its answer in $reply ("" once the engine has gone)
  reply=""
  [ -n "${ENG[1]:-}" ] || return 0
  echo "$1" >&"${ENG[1]}" 2>/dev/null && IFS= read -r reply <&"${ENG[0]}"
}
send '{"cmd":"new","scenario":"bar/1-lees-repulse","seed":3}'
has "$reply" '*"ok":true*"ruleset":"bar"*' "new bar/1-lees-repulse"
has "$reply" '*"phase":"activation"*' "new: the activation phase"
send '{"cmd":"legal"}'
has "$reply" '*"type":"activate","command":"*' "legal: activations"
# Activate the first Command listed (whichever side won the initiative).
first=$(grep -o '{"type":"activate","command":"[^"]*"' <<<"$reply" | head -1)
command=${first##*\"command\":\"}
command=${command%\"}
send "{\"cmd\":\"act\",\"action\":{\"type\":\"activate\",\"command\":\"$command\"}}"
has "$reply" '*"ok":true*"type":"activate"*' "act: activate $command, with its event"
send '{"cmd":"state"}'
has "$reply" '*"phase":"movement"*' "state after activate: movement"
has "$reply" "*\"command\":\"$command\"*" "state after activate: the Command"
before=$(hash_of "$reply")
has "$before" '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]*' "state: a hash"
# Refusals leave the game as it was.
send '{"cmd":"act","action":{"type":"activate","command":"ZZ"}}'
has "$reply" "*\"ok\":false*no Command 'ZZ'*" "act: an unknown Command"
send '{"cmd":"legal"}'
move=$(grep -o '{"type":"move","unit":"[^"]*","path":\["[A-Z0-9]*"\]' <<<"$reply" | head -1)
has "$move" '{"type":"move"*' "legal in movement: a move"
unit=${move#*\"unit\":\"}
unit=${unit%%\"*}
send "{\"cmd\":\"act\",\"action\":{\"type\":\"move\",\"unit\":\"$unit\",\"path\":[\"E9999\"]}}"
has "$reply" '*"ok":false*"bad_arg"*E9999*' "act: a hex off the map"
send "{\"cmd\":\"act\",\"action\":{\"type\":\"move\",\"unit\":\"$unit\",\"path\":[\"W0101\"]}}"
has "$reply" '*"ok":false*"illegal_action"*not next to*' "act: a move to a hex not adjacent"
send '{"cmd":"act","action":{"type":"move","unit":"nobody","path":["E1525"]}}'
has "$reply" "*\"ok\":false*no unit 'nobody'*" "act: an unknown unit"
send '{"cmd":"state"}'
has "$(hash_of "$reply")" "$before" "refusals left the game unchanged"
# A move, undone.
send "{\"cmd\":\"act\",\"action\":$move}}"
has "$reply" '*"ok":true*"type":"move"*' "act: $move"
send '{"cmd":"state"}'
moved=$(hash_of "$reply")
[ "$moved" != "$before" ] && ok || bad "the move changed nothing"
send '{"cmd":"undo"}'
has "$reply" '*"ok":true*' "undo of a move"
has "$(hash_of "$reply")" "$before" "undo: the position before the move"
send "{\"cmd\":\"act\",\"action\":$move}}"
send '{"cmd":"act","action":{"type":"next"}}'
has "$reply" '*"ok":true*"phase":"fire"*' "next: to the fire phase"
send '{"cmd":"state"}'
at_end=$(hash_of "$reply")
# Record and replay reach the same position.
send '{"cmd":"record"}'
has "$reply" '*"ok":true*"record":{*"ruleset":"bar"*' "record"
record=${reply#\{\"ok\":true,\"record\":}
record=${record%\}}
echo "$record" >"$tmp/game.json"
send "{\"cmd\":\"replay\",\"record\":$record}"
has "$reply" '*"ok":true*' "replay of the record"
has "$(hash_of "$reply")" "$at_end" "replay: the same position"
send '{"cmd":"quit"}'
wait "$eng_pid" 2>/dev/null; ok
expect 0 "musket replay of the engine's record" -- "$musket" replay "$tmp/game.json"
contains "$tmp/out" "matches the record" "musket replay"

# Terminal play: the first prompt, a Command activated, then the commands
# of a big map. Hotseat, so that the first side to move is a person.
printf '%s\n' 1 move t 'm o' 'm E1525' 'm n' 'm auto' 'l' \
  '{"type":"activate","command":"ZZ"}' '{"type":"move","unit":"nobody","path":["E1525"]}' \
  'xyzzy' 999 q |
  COLUMNS=120 LINES=60 "$musket" play bar/1-lees-repulse --hotseat --seed 3 --no-color >"$tmp/play.out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok || bad "play by hand: exit $rc"
contains "$tmp/play.out" "Activate" "play: the activations listed"
contains "$tmp/play.out" "Window E" "play: a window on the 78 x 51 map"
contains "$tmp/play.out" "|-------|" "play: the window drawn upright, a rule over each hex"
contains "$tmp/play.out" "then SP" "play: unit markers show SP"
contains "$tmp/play.out" "activation phase" "play: the phase"
contains "$tmp/play.out" "movement phase" "play: movement after the activation"
contains "$tmp/play.out" "Move E" "play: a move listed"
contains "$tmp/play.out" "SP  FORMATION" "play: the units table with SP and formation"
contains "$tmp/play.out" "STATUS" "play: the units table with status"
contains "$tmp/play.out" "The window is shown" "play: the overview (m o)"
contains "$tmp/play.out" "placed by you" "play: m HEX places the window"
contains "$tmp/play.out" "The game refused it: action.command: no Command 'ZZ'" "play: an unknown Command"
contains "$tmp/play.out" "The game refused it: action.unit: no unit 'nobody'" "play: an unknown unit"
contains "$tmp/play.out" "'xyzzy' is not a command" "play: an unknown word"
contains "$tmp/play.out" "There is no action 999" "play: a number out of range"
# No line of the window drawing is wider than the terminal it was sized for.
wide=$(awk '/^ \|/ && length($0) > 120' "$tmp/play.out" | wc -l)
[ "$wide" -eq 0 ] && ok || bad "play: $wide map lines wider than COLUMNS=120"

# A long list of actions is shown one line per unit, and a unit's id lists
# its actions. Activations are tried in turn until one lists more than 40.
for n in 1 3 5 7 9 11; do
  printf '%s\n' "$n" q | COLUMNS=120 "$musket" play bar/1-lees-repulse --hotseat --seed 3 \
    --no-color --map off >"$tmp/big.out" 2>&1
  grep -q "), by unit:" "$tmp/big.out" && break
done
contains "$tmp/big.out" "), by unit:" "play: a long action list summarised per unit"
unit=$(awk '/\), by unit:/ {getline; print; exit}' "$tmp/big.out" | sed 's/^  //; s/ (.*//')
printf '%s\n' "$n" "$unit" q | COLUMNS=120 "$musket" play bar/1-lees-repulse --hotseat --seed 3 \
  --no-color --map off >"$tmp/unit.out" 2>&1
contains "$tmp/unit.out" "> $unit" "play: the unit's id typed"
sed -n "/> $unit\$/,/> q/p" "$tmp/unit.out" >"$tmp/unit.list"
contains "$tmp/unit.list" "$unit (" "play: the unit's actions under its heading"
lacks "$tmp/unit.list" "), by unit:" "play: only that unit's actions"

# Whole games from piped input: a person answering 1 to every prompt
# against the computer, and the computer against itself.
yes 1 | "$musket" play bar/1-lees-repulse --ai random --seed 3 --no-color --map off \
  >"$tmp/game1.out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok || bad "play to the end of scenario 1: exit $rc"
contains "$tmp/game1.out" "Game over:" "play: scenario 1 reaches the victory determination"
contains "$tmp/game1.out" "(Monmouth 7.1d)" "play: scenario 1's victory rule"
contains "$tmp/game1.out" "actions played." "play: the count of actions"
lacks "$tmp/game1.out" "musket play:" "play: no error on the way"
"$musket" play bar/2-washingtons-stand --watch --ai random --seed 3 --no-color --map off \
  </dev/null >"$tmp/game2.out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok || bad "watch scenario 2: exit $rc"
contains "$tmp/game2.out" "The computer (random) plays both sides." "watch: both sides"
contains "$tmp/game2.out" "Game over:" "watch: scenario 2 reaches the victory determination"
contains "$tmp/game2.out" "(Monmouth 7.2d)" "watch: scenario 2's victory rule"
# a reaction declined names who declined and against whom
contains "$tmp/game2.out" "decline: american against Fld/5th" "watch: a declined opportunity fire names its side"
expect 2 "--watch with --hotseat" -- "$musket" play bar/1-lees-repulse --watch --hotseat
expect 2 "--map with a bad mode" -- "$musket" play bar/1-lees-repulse --map sideways

# Against the computer's mcts (easy), the person taking the first action
# listed, 300 times: every computer action is followed by an event citing
# its rule, as a person's is; passing on too (ending a segment or the
# activation: an `end` event; an opportunity charge not made: `decline`).
yes 1 | head -300 | "$musket" play bar/1-lees-repulse --ai easy --seed 5 --no-color --map off \
  >"$tmp/vs.out" 2>&1
rc=$?
moves=$(grep -c '^british (computer): ' "$tmp/vs.out")
passes=$(grep -A1 '^british (computer): End ' "$tmp/vs.out" | grep -c '^    end: ')
unexplained=$(awk '/^british \(computer\): /{ if (want) n++; want = 1; next }
  want { if ($0 !~ /\((Monmouth|Series) /) { n++; print > "/dev/stderr" }; want = 0 }
  END { print n + 0 }' "$tmp/vs.out")
[ "$passes" -ge 5 ] && ok || bad "play against mcts: $passes of the computer's ends of a segment logged as such"

if [ $rc -eq 0 ] && [ "$moves" -ge 20 ] && [ "$unexplained" -eq 0 ]; then
  ok; else bad "play against mcts: exit $rc, $moves computer actions, $unexplained without a rule"; fi

# sim runs BAR games computer against computer.
expect 0 "musket sim bar/1-lees-repulse" -- "$musket" sim bar/1-lees-repulse -n 2 --a random \
  --b random --quiet
contains "$tmp/out" "2 of 2 games" "sim: both games played"

echo "bar_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
