#!/usr/bin/env bash
# server.sh - `musket serve` over HTTP on loopback: a whole game, seats and
# tokens (out of turn, stolen, missing, spectator), garbage and oversized
# bodies, forced dice refused, two clients at once, live updates (SSE), the
# SIGKILL crash test (restart: same hash, play goes on), AI seats playing a
# game by themselves, a load test of 50 games with parallel moves, and
# finished and idle games leaving memory and coming back from the database.
# Usage: tests/server.sh path/to/musket   (needs curl and jq)
set -u
musket=${1:?usage: tests/server.sh path/to/musket}
for tool in curl jq; do
  if ! command -v $tool >/dev/null; then echo "server.sh: SKIPPED: $tool is not installed"; exit 0; fi
done
passed=0
failed=0
tmp=$(mktemp -d)
pid=""
stop_server() { if [ -n "$pid" ]; then kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=""; fi; }
trap 'stop_server; rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAILED: $*" >&2; }
check() {  # check DESCRIPTION WANT GOT
  if [ "$2" = "$3" ]; then ok; else bad "$1: got '$3', wanted '$2'"; fi
}

# start_server DB [OPTION...]: starts musket serve on a free port, waits
# until it answers. Its messages go on into $tmp/start.log.
start_server() {
  local db=$1 try
  for try in 1 2 3 4 5; do
    port=$((18000 + ($$ + try * 131) % 1000))
    : >"$tmp/start.log"
    "$musket" serve --port "$port" --db "$db" --ai-delay 0 "${@:2}" 2>"$tmp/start.log" &
    pid=$!
    # Ours is up once it says where it listens (not just any server on the port).
    for _ in $(seq 100); do
      if grep -q "musket serve: http://" "$tmp/start.log" &&
         curl -s -o /dev/null "http://127.0.0.1:$port/api/hello"; then
        base="http://127.0.0.1:$port"; cat "$tmp/start.log" >>"$tmp/server.log"; return 0
      fi
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    cat "$tmp/start.log" >>"$tmp/server.log"
    stop_server
  done
  echo "server.sh: could not start the server" >&2; cat "$tmp/server.log" >&2; exit 1
}

# api METHOD PATH [BODY] [TOKEN]: prints the HTTP status; the body is in $tmp/out.
api() {
  local args=(-s -o "$tmp/out" -w '%{http_code}' -X "$1" "$base$2")
  [ $# -ge 3 ] && [ -n "$3" ] && args+=(-H 'Content-Type: application/json' --data-binary "$3")
  [ $# -ge 4 ] && [ -n "$4" ] && args+=(-H "Authorization: Bearer $4")
  curl "${args[@]}"
}
out() { jq -r "$1" "$tmp/out"; }

# A small Hold the Line scenario of our own, so the test does not depend on
# the built-in ones changing.
scenario='{"ruleset":"htl","id":"test/skirmish","title":"Server test skirmish",
 "map":{"orientation":"pointy","shifted":"even","cols":7,"rows":6,"terrain":{"D3":"forest","C4":"hill"}},
 "sides":[{"id":"american","cap":4,"home":"south"},{"id":"british","cap":4,"home":"north"}],
 "first":"british","turns":4,
 "units":[{"id":"A-1","side":"american","kind":"regular","mp":4,"hex":"C5"},
          {"id":"A-2","side":"american","kind":"light","mp":3,"hex":"E5"},
          {"id":"A-L","side":"american","kind":"leader","name":"Greene","hex":"C5"},
          {"id":"B-1","side":"british","kind":"regular","mp":4,"hex":"C2"},
          {"id":"B-2","side":"british","kind":"elite","mp":4,"hex":"E2"},
          {"id":"B-A","side":"british","kind":"artillery","mp":3,"hex":"D1"}]}'

# new_game SEATS [SEED]: creates a game; sets game, tok_a, tok_b, spec.
new_game() {
  local seed=${2:-}
  local body="{\"scenario\": $scenario, \"seats\": $1${seed:+, \"seed\": $seed}}"
  check "POST /api/games" 201 "$(api POST /api/games "$body")"
  game=$(out .game); tok_a=$(out '.seats[0].token'); tok_b=$(out '.seats[1].token'); spec=$(out .spectator)
}
# token_to_move: the token of the seat that decides now.
token_to_move() {
  api GET "/api/games/$game/state" "" "$tok_a" >/dev/null
  if [ "$(out .state.to_move)" = american ]; then echo "$tok_a"; else echo "$tok_b"; fi
}
# play_one TOKEN: plays a random legal action (end_turn one time in five).
play_one() {
  api GET "/api/games/$game/legal" "" "$1" >/dev/null
  local a
  a=$(jq -c --argjson r $RANDOM '.actions as $all | ($all | map(select(.type != "end_turn"))) as $m
        | if ($m | length) > 0 and ($r % 5) != 0 then $m[$r % ($m | length)] else $all[0] end' "$tmp/out")
  api POST "/api/games/$game/act" "{\"action\": $a}" "$1"
}
hash_now() { api GET "/api/games/$game/state" "" "$tok_a" >/dev/null; out .state.hash; }

# A watchdog: whatever happens, the test ends within 150 s.
( trap 'kill $sp 2>/dev/null; exit 0' TERM; sleep 150 >/dev/null 2>&1 & sp=$!; wait $sp
  echo "server.sh: FAILED: timed out" >&2; kill -TERM $$ ) &
watchdog=$!
trap 'stop_server; kill $watchdog 2>/dev/null; rm -rf "$tmp"' EXIT

start_server "$tmp/a.db"

# --- the basics ---------------------------------------------------------------
check "GET /api/hello" 200 "$(api GET /api/hello)"
check "hello names the engine" musket "$(out .engine)"
check "GET /api/scenarios" 200 "$(api GET /api/scenarios)"
check "scenarios list htl/tutorial" true "$(out '[.scenarios[].id] | index("htl/tutorial") != null')"
check "scenarios list the ruleset's optional rules" true "$(out '.rulesets[0].options | length > 0')"
check "GET / serves the page" 200 "$(api GET /)"
check "path outside the web folder" 404 "$(api GET /../CMakeLists.txt)"
check "unknown API route" 404 "$(api GET /api/nothing)"

new_game '{"american": "human", "british": "human"}' 7
check "seat tokens are 32 hex digits" true "$(out '[.seats[].token, .spectator] | all(test("^[0-9a-f]{32}$"))')"
check "seat tokens differ" 3 "$(out '[.seats[].token, .spectator] | unique | length')"
check "invite links" "/?game=$game&token=$tok_a" "$(out '.seats[0].link')"
check "the seed is not shown" null "$(out .seed)"
check "GET state with a seat token" 200 "$(api GET "/api/games/$game/state" "" "$tok_a")"
check "state is the protocol's STATE" british "$(out .state.to_move)"
check "GET state with ?token=" 200 "$(api GET "/api/games/$game/state?token=$spec")"
check "spectator reads" spectator "$(out .you)"
check "GET game info" 200 "$(api GET "/api/games/$game" "" "$spec")"
check "game info carries the scenario" test/skirmish "$(out .scenario.id)"
h0=$(hash_now)

# --- seats and trust ------------------------------------------------------------
check "missing token" 401 "$(api GET "/api/games/$game/state")"
check "missing token: JSON error" unauthorized "$(out .error.code)"
check "bogus token" 403 "$(api GET "/api/games/$game/state" "" 0123456789abcdef0123456789abcdef)"
check "legal for the seat not to move is empty" 0 "$(api GET "/api/games/$game/legal" "" "$tok_a" >/dev/null; out '.actions | length')"
check "out of turn: refused" 403 "$(api POST "/api/games/$game/act" '{"action": {"type": "end_turn"}}' "$tok_a")"
check "out of turn: error code" not_your_turn "$(out .error.code)"
check "spectator cannot act" 403 "$(api POST "/api/games/$game/act" '{"action": {"type": "end_turn"}}' "$spec")"
check "spectator has no legal actions" 403 "$(api GET "/api/games/$game/legal" "" "$spec")"
g1=$game; a1=$tok_a; b1=$tok_b; s1=$spec
new_game '["human", "human"]'
check "a token stolen from another game" 403 "$(api POST "/api/games/$g1/act" '{"action": {"type": "end_turn"}}' "$tok_b")"
game=$g1; tok_a=$a1; tok_b=$b1; spec=$s1
check "garbage JSON" 400 "$(api POST "/api/games/$game/act" '{"action": {"type": "end_turn"' "$tok_b")"
check "garbage JSON: error code" bad_json "$(out .error.code)"
check "not an object" 400 "$(api POST "/api/games/$game/act" '[1, 2]' "$tok_b")"
head -c 100000 /dev/zero | tr '\0' 'x' >"$tmp/big"
check "oversized body" 413 "$(curl -s -o "$tmp/out" -w '%{http_code}' -X POST -H "Authorization: Bearer $tok_b" --data-binary @"$tmp/big" "$base/api/games/$game/act")"
check "oversized body: JSON error" too_large "$(out .error.code)"
check "oversized new game" 413 "$(curl -s -o "$tmp/out" -w '%{http_code}' -X POST --data-binary @"$tmp/big" "$base/api/games")"
check "unknown action type" 400 "$(api POST "/api/games/$game/act" '{"action": {"type": "teleport"}}' "$tok_b")"
check "illegal move" 409 "$(api POST "/api/games/$game/act" '{"action": {"type": "move", "unit": "B-1", "path": ["C6"]}}' "$tok_b")"
check "forced dice refused over the network" 403 "$(api POST "/api/games/$game/dice" '{"values": [6, 6, 6]}' "$tok_b")"
check "forced dice: error code" dice_refused "$(out .error.code)"
check "wrong method" 405 "$(api GET "/api/games/$game/act" "" "$tok_b")"
check "record hidden while the game is on" 403 "$(api GET "/api/games/$game/record" "" "$tok_b")"
check "bad seat kind" 400 "$(api POST /api/games "{\"scenario\": \"htl/tutorial\", \"seats\": {\"american\": {\"ai\": \"oracle\"}}}")"
for k in 0 65 '"3"' 2.5; do
  check "seat rollout_k $k refused" 400 "$(api POST /api/games "{\"scenario\": \"htl/tutorial\", \"seats\": {\"american\": {\"ai\": \"mcts\", \"rollout_k\": $k}}}")"
  check "seat rollout_k $k: the message names the range" true "$(out '.error.message | test("rollout_k: 1-64")')"
done
check "unknown scenario" 400 "$(api POST /api/games '{"scenario": "htl/atlantis"}')"
check "refusals changed nothing" "$h0" "$(hash_now)"

# --- an action, undo, live updates ----------------------------------------------
curl -s -N --max-time 4 "$base/api/games/$game/events?token=$spec" >"$tmp/sse" &
sse=$!
sleep 0.5
api GET "/api/games/$game/legal" "" "$tok_b" >/dev/null
move=$(out '[.actions[] | select(.type == "move")][0]')
check "a move by the seat to move" 200 "$(api POST "/api/games/$game/act" "{\"action\": $move}" "$tok_b")"
check "the answer has events and state" true "$(out 'has("events") and has("state")')"
seq_after=$(out .seq)
check "state says undoable" true "$(api GET "/api/games/$game/state" "" "$tok_b" >/dev/null; out .state.undoable)"
check "the other seat cannot undo it" 409 "$(api POST "/api/games/$game/undo" "" "$tok_a")"
check "undo" 200 "$(api POST "/api/games/$game/undo" "" "$tok_b")"
check "undo restores the hash" "$h0" "$(out .state.hash)"
check "no second undo" 409 "$(api POST "/api/games/$game/undo" "" "$tok_b")"
wait $sse
check "SSE: a snapshot first" true "$(grep -q '"kind":"snapshot"' "$tmp/sse" && echo true)"
check "SSE: the move arrives" true "$(grep -q "^id: $seq_after\$" "$tmp/sse" && grep -q '"kind":"act"' "$tmp/sse" && echo true)"
check "SSE: the undo arrives" true "$(grep -q '"kind":"undo"' "$tmp/sse" && echo true)"

# --- two clients at once: the same seat sends end_turn twice in parallel ---------
par=()
for i in 1 2; do
  curl -s -o "$tmp/par$i" -w '%{http_code}' -X POST -H "Authorization: Bearer $tok_b" \
    --data-binary '{"action": {"type": "end_turn"}}' "$base/api/games/$game/act" >"$tmp/code$i" &
  par+=($!)
done
wait "${par[@]}"   # (a bare wait would wait for the server too)
codes=$(cat "$tmp/code1" "$tmp/code2" | tr -d '\n' | fold -w3 | sort | tr '\n' ' ')
check "two clients at once: one plays, one is refused" "200 403 " "$codes"

# --- a whole game through HTTP, both seats human ----------------------------------
n=0; errs=0
while [ $n -lt 3000 ]; do
  api GET "/api/games/$game/state" "" "$spec" >/dev/null
  [ "$(out .state.over)" = true ] && break
  tok=$tok_a; [ "$(out .state.to_move)" = british ] && tok=$tok_b
  code=$(play_one "$tok")
  [ "$code" = 200 ] || { errs=$((errs + 1)); cat "$tmp/out" >&2; }
  n=$((n + 1))
done
check "whole game: ended" true "$(api GET "/api/games/$game/state" "" "$spec" >/dev/null; out .state.over)"
check "whole game: every action accepted" 0 "$errs"
final=$(out .state.hash)
echo "server.sh: a whole game of $n actions through HTTP: $(jq -c .state.result "$tmp/out")"
check "record once over" 200 "$(api GET "/api/games/$game/record" "" "$tok_a")"
jq .record "$tmp/out" >"$tmp/record.json"
check "the record replays to the same hash" 0 "$("$musket" replay "$tmp/record.json" >/dev/null 2>&1; echo $?)"
check "record hash" "$final" "$(jq -r .hash "$tmp/record.json")"
check "replay steps" 200 "$(api GET "/api/games/$game/replay" "" "$spec")"
check "replay: one step per action" "$(jq '.actions | length' "$tmp/record.json")" "$(out '.steps | length')"
check "replay: hash matches" true "$(out .hash_matches)"
check "log lists every change" 200 "$(api GET "/api/games/$game/log" "" "$spec")"
check "acting after the end" 409 "$(api POST "/api/games/$game/act" '{"action": {"type": "end_turn"}}' "$tok_a")"

# --- AI seats play by themselves ----------------------------------------------------
new_game '{"american": {"ai": "random"}, "british": {"ai": "greedy"}}'
for _ in $(seq 100); do
  api GET "/api/games/$game/state" "" "$spec" >/dev/null
  [ "$(out .state.over)" = true ] && break
  sleep 0.1
done
check "AI against AI: the game ends by itself" true "$(out .state.over)"
check "an AI seat's token cannot act for it" 403 "$(api POST "/api/games/$game/act" '{"action": {"type": "end_turn"}}' "$tok_a")"
new_game '{"american": "human", "british": {"ai": "mcts", "iterations": 30, "rollout_k": 2}}'
check "a seat's rollout_k is kept" 2 "$(jq -r '.seats[1].ai.rollout_k' "$tmp/out")"
for _ in $(seq 50); do
  api GET "/api/games/$game/state" "" "$spec" >/dev/null
  [ "$(out .seq)" -gt 0 ] && break
  sleep 0.1
done
check "an mcts seat with rollout_k 2 moves" true "$([ "$(out .seq)" -gt 0 ] && echo true)"

# --- crash test: SIGKILL mid-game, restart, same hash, play goes on ------------------
new_game '{"american": "human", "british": "human"}' 11
for _ in $(seq 12); do play_one "$(token_to_move)" >/dev/null; done
crash_game=$game; crash_spec=$spec; crash_a=$tok_a; crash_b=$tok_b
api GET "/api/games/$game/state" "" "$spec" >/dev/null
before=$(out .state.hash); seq_before=$(out .seq)
new_game '{"american": "human", "british": {"ai": "random"}}' 12
ai_game=$game; ai_spec=$spec
kill -9 "$pid"; wait "$pid" 2>/dev/null; pid=""
start_server "$tmp/a.db"
game=$crash_game; spec=$crash_spec; tok_a=$crash_a; tok_b=$crash_b
check "after SIGKILL: the game is there" 200 "$(api GET "/api/games/$game/state" "" "$spec")"
check "after SIGKILL: identical hash" "$before" "$(out .state.hash)"
check "after SIGKILL: same seq" "$seq_before" "$(out .seq)"
grep -q "unfinished games loaded" "$tmp/server.log" && ok || bad "the server reports the games it loaded"
check "after SIGKILL: play goes on" 200 "$(play_one "$(token_to_move)")"
check "after SIGKILL: the AI game is there" 200 "$(api GET "/api/games/$ai_game/state" "" "$ai_spec")"

# --- load: 50 games, moves in parallel ------------------------------------------------
# The C client tests/test_server_load.c (built next to musket) plays 50 games
# at once, 12 moves each, and checks that no request fails and no action is
# lost. Without it, the same with curl (lighter: 4 moves a game).
loader="$(dirname "$musket")/test_server_load"
if [ -x "$loader" ]; then
  if timeout 40 "$loader" "$base"; then ok; else bad "load test (test_server_load $base)"; fi
else
  games=50; moves=4
  for i in $(seq $games); do
    api POST /api/games "{\"scenario\": $scenario, \"seats\": [\"human\", \"human\"]}" >/dev/null
    jq -r '[.game, .seats[0].token, .seats[1].token] | join(" ")' "$tmp/out" >"$tmp/load$i"
  done
  load_one() {  # plays $moves actions in game $1, each from the seat to move
    local g a b fails=0 tok act code
    read -r g a b <"$tmp/load$1"
    for _ in $(seq $moves); do
      tok=$a
      act=$(curl -s -H "Authorization: Bearer $tok" "$base/api/games/$g/legal")
      if [ "$(jq -r .to_move <<<"$act")" = british ]; then
        tok=$b; act=$(curl -s -H "Authorization: Bearer $tok" "$base/api/games/$g/legal")
      fi
      act=$(jq -c '.actions | (map(select(.type != "end_turn")) + .)[0]' <<<"$act")
      code=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $tok" \
             --data-binary "{\"action\": $act}" "$base/api/games/$g/act")
      [ "$code" = 200 ] || fails=$((fails + 1))
    done
    echo "$fails" >"$tmp/loadres$1"
  }
  t0=$(date +%s); par=()
  for i in $(seq $games); do load_one "$i" & par+=($!); done
  wait "${par[@]}"
  t1=$(date +%s); fails=0; lost=0
  for i in $(seq $games); do
    fails=$((fails + $(cat "$tmp/loadres$i" 2>/dev/null || echo 99)))
    read -r g a b <"$tmp/load$i"
    [ "$(curl -s -H "Authorization: Bearer $a" "$base/api/games/$g/state" | jq -r .seq)" = "$moves" ] || lost=$((lost + 1))
  done
  echo "server.sh: load: $games games x $moves moves in parallel in $((t1 - t0)) s"
  check "load: no request failed" 0 "$fails"
  check "load: no action lost" 0 "$lost"
fi

# --- unloading: finished and idle games leave memory, not the database ---------------
# A server that keeps a finished game 1 s and any game 3 s after its last
# request, watcher or computer move.
stop_server
start_server "$tmp/a.db" --keep-finished 1 --keep-idle 3
# wait_log PATTERN SECONDS: true once the server's log has PATTERN.
wait_log() {
  local i
  for i in $(seq $(($2 * 10))); do grep -q "$1" "$tmp/start.log" && return 0; sleep 0.1; done
  return 1
}
state_of() { api GET "/api/games/$game/state" "" "$spec" >/dev/null; echo "$(out .state.hash) $(out .seq)"; }
new_game '{"american": {"ai": "random"}, "british": {"ai": "random"}}'
for _ in $(seq 100); do
  api GET "/api/games/$game/state" "" "$spec" >/dev/null
  [ "$(out .state.over)" = true ] && break
  sleep 0.1
done
check "unload: the computers' game ended" true "$(out .state.over)"
done_state=$(state_of)
wait_log "game $game unloaded (finished" 8 && ok || bad "a finished game is unloaded"
check "unload: the finished game is read back" 200 "$(api GET "/api/games/$game/state" "" "$spec")"
check "unload: same hash and seq" "$done_state" "$(echo "$(out .state.hash) $(out .seq)")"
grep -q "game $game loaded from the database" "$tmp/start.log" && ok || bad "the game was loaded back from the database"
check "unload: its record" 200 "$(api GET "/api/games/$game/record" "" "$tok_a")"
check "unload: its replay" true "$(api GET "/api/games/$game/replay" "" "$spec" >/dev/null; out .hash_matches)"
check "unload: its log" "$(echo "$done_state" | cut -d' ' -f2)" "$(api GET "/api/games/$game/log" "" "$spec" >/dev/null; out '.log | length')"

# A game in progress with a watcher stays; once the watcher leaves, it goes.
new_game '{"american": "human", "british": "human"}' 13
for _ in $(seq 4); do play_one "$(token_to_move)" >/dev/null; done
# Last, a move (no dice): the seat that made it may take it back. (Play on
# at random until the seat to move has one.)
for _ in $(seq 20); do
  mover=$(token_to_move)
  api GET "/api/games/$game/legal" "" "$mover" >/dev/null
  move=$(out '[.actions[] | select(.type == "move")][0]')
  [ "$move" != null ] && break
  play_one "$mover" >/dev/null
done
check "unload: a move before going idle" 200 "$(api POST "/api/games/$game/act" "{\"action\": $move}" "$mover")"
idle_state=$(state_of)
curl -s -N --max-time 5 "$base/api/games/$game/events?token=$spec" >"$tmp/sse2" &
sse=$!
sleep 4.5
grep -q "game $game unloaded" "$tmp/start.log" && bad "a watched game was unloaded" || ok
wait $sse
wait_log "game $game unloaded (idle" 8 && ok || bad "an idle game is unloaded once no one watches it"
check "unload: the idle game comes back as it was" "$idle_state" "$(state_of)"
check "unload: the last move can still be taken back" 200 "$(api POST "/api/games/$game/undo" "" "$mover")"
check "unload: play goes on" 200 "$(play_one "$(token_to_move)")"
check "unload: the next seq" "$(($(echo "$idle_state" | cut -d' ' -f2) + 2))" "$(out .seq)"

# A computer seat waiting for a person: after the game comes back, it still
# answers the person's move.
new_game '{"american": "human", "british": {"ai": "random"}}' 14
for _ in $(seq 100); do
  api GET "/api/games/$game/state" "" "$spec" >/dev/null
  [ "$(out .state.to_move)" = american ] && break
  sleep 0.1
done
wait_log "game $game unloaded (idle" 8 && ok || bad "a game waiting for a person is unloaded when idle"
seq_back=$(api GET "/api/games/$game/state" "" "$tok_a" >/dev/null; out .seq)
check "unload: the person's end of turn" 200 "$(api POST "/api/games/$game/act" '{"action": {"type": "end_turn"}}' "$tok_a")"
for _ in $(seq 100); do
  api GET "/api/games/$game/state" "" "$spec" >/dev/null
  [ "$(out .seq)" -gt $((seq_back + 1)) ] && break
  sleep 0.1
done
check "unload: the computer plays on after the game comes back" true "$([ "$(out .seq)" -gt $((seq_back + 1)) ] && echo true)"

stop_server
echo "server.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
