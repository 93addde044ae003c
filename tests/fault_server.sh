#!/usr/bin/env bash
# fault_server.sh - `musket serve` under faults: SIGKILL while moves are in
# flight (several times), a full disk (a small tmpfs in a private mount
# namespace; without one, a file-size limit set on the running server with
# prlimit), clients that disconnect in the middle of a request, slow clients
# holding connections open while others play, and a clean stop on SIGTERM
# with clients still connected (exit status 0, so that LeakSanitizer has
# run and found nothing in a sanitizer build).
#
# The promise checked throughout: every action the server acknowledged
# (HTTP 200) is in the game's log at the seq it was given, after every
# crash and restart; a refused action changes nothing.
# Usage: tests/fault_server.sh path/to/musket   (needs curl and jq)
set -u
musket=${1:?usage: tests/fault_server.sh path/to/musket}
musket=$(cd "$(dirname "$musket")" && pwd)/$(basename "$musket")
for tool in curl jq; do
  if ! command -v $tool >/dev/null; then echo "fault_server.sh: SKIPPED: $tool is not installed"; exit 0; fi
done
# A private mount namespace (as root, or as a user with user namespaces),
# so that the small tmpfs of the full-disk test vanishes with this script.
if [ -z "${MUSKET_FAULT_NS:-}" ] && command -v unshare >/dev/null; then
  for opts in "-m" "-r -m"; do
    # shellcheck disable=SC2086
    if unshare $opts --propagation private true 2>/dev/null; then
      export MUSKET_FAULT_NS=1
      # shellcheck disable=SC2086
      exec unshare $opts --propagation private bash "$0" "$musket"
    fi
  done
fi

passed=0; failed=0; faults=0; acked_total=0
tmp=$(mktemp -d)
pid=""; disk=""; holders=()
stop_server() { if [ -n "$pid" ]; then kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=""; fi; }
cleanup() {
  stop_server
  for h in "${holders[@]}"; do kill "$h" 2>/dev/null; done
  [ -n "$disk" ] && umount "$disk" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAILED: $*" >&2; }
check() { if [ "$2" = "$3" ]; then ok; else bad "$1: got '$3', wanted '$2'"; fi; }

# A watchdog: whatever happens, the test ends within 240 s.
( trap 'kill $sp 2>/dev/null; exit 0' TERM; sleep 240 >/dev/null 2>&1 & sp=$!; wait $sp
  echo "fault_server.sh: FAILED: timed out" >&2; kill -TERM $$ ) &
watchdog=$!
trap 'cleanup; kill $watchdog 2>/dev/null' EXIT

starts=0
# start_server DB: starts musket serve on a free port, waits until it answers.
start_server() {  # start_server DB [AI_DELAY_MS]
  local db=$1 delay=${2:-0} try
  for try in 1 2 3 4 5; do
    starts=$((starts + 1))
    port=$((20000 + ($$ * 7 + starts * 211) % 5000))
    log="$tmp/server$starts.log"
    "$musket" serve --port "$port" --db "$db" --ai-delay "$delay" 2>"$log" &
    pid=$!
    for _ in $(seq 150); do
      if grep -q "musket serve: http://" "$log" && curl -s -o /dev/null "http://127.0.0.1:$port/api/hello"; then
        base="http://127.0.0.1:$port"; return 0
      fi
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    stop_server
  done
  echo "fault_server.sh: could not start the server" >&2; cat "$log" >&2; exit 1
}

# api METHOD PATH [BODY] [TOKEN]: prints the HTTP status; the body is in $tmp/out.
api() {
  local args=(-s -m 20 -o "$tmp/out" -w '%{http_code}' -X "$1" "$base$2")
  [ $# -ge 3 ] && [ -n "$3" ] && args+=(--data-binary "$3")
  [ $# -ge 4 ] && [ -n "$4" ] && args+=(-H "Authorization: Bearer $4")
  curl "${args[@]}"
}
out() { jq -r "$1" "$tmp/out"; }

scenario='{"ruleset":"htl","id":"test/skirmish","title":"Fault test skirmish",
 "map":{"orientation":"pointy","shifted":"even","cols":7,"rows":6,"terrain":{"D3":"forest","C4":"hill"}},
 "sides":[{"id":"american","cap":4,"home":"south"},{"id":"british","cap":4,"home":"north"}],
 "first":"british","turns":12,
 "units":[{"id":"A-1","side":"american","kind":"regular","mp":4,"hex":"C5"},
          {"id":"A-2","side":"american","kind":"light","mp":3,"hex":"E5"},
          {"id":"A-L","side":"american","kind":"leader","name":"Greene","hex":"C5"},
          {"id":"B-1","side":"british","kind":"regular","mp":4,"hex":"C2"},
          {"id":"B-2","side":"british","kind":"elite","mp":4,"hex":"E2"},
          {"id":"B-A","side":"british","kind":"artillery","mp":3,"hex":"D1"}]}'

# new_game SEED: a game of two human seats; prints "ID TOKEN_A TOKEN_B SPECTATOR".
new_game() {
  api POST /api/games "{\"scenario\": $scenario, \"seats\": [\"human\", \"human\"], \"seed\": $1}" >/dev/null
  jq -r '[.game, .seats[0].token, .seats[1].token, .spectator] | join(" ")' "$tmp/out"
}

# player ID A B N OUT: plays up to N random legal actions in game ID, each
# from the seat to move; appends "ID SEQ ACTION" to OUT for every action
# answered 200 (acknowledged). Stops at the first failed connection.
player() {
  local g=$1 a=$2 b=$3 n=$4 outf=$5 f="$tmp/p.$1" i tok act code
  for ((i = 0; i < n; i++)); do
    curl -s -m 10 -o "$f" -H "Authorization: Bearer $a" "$base/api/games/$g/legal" || return 0
    tok=$a
    [ "$(jq -r .to_move "$f" 2>/dev/null)" = british ] && tok=$b
    curl -s -m 10 -o "$f" -H "Authorization: Bearer $tok" "$base/api/games/$g/legal" || return 0
    act=$(jq -c --argjson r "$RANDOM" '.actions | map(del(.text, .cost)) as $all
          | ($all | map(select(.type != "end_turn"))) as $m
          | if ($m | length) > 0 and ($r % 6) != 0 then $m[$r % ($m | length)] else $all[0] end' "$f" 2>/dev/null)
    [ -n "$act" ] && [ "$act" != null ] || return 0
    code=$(curl -s -m 10 -o "$f.act" -w '%{http_code}' -X POST -H "Authorization: Bearer $tok" \
           --data-binary "{\"action\": $act}" "$base/api/games/$g/act") || return 0
    echo "$code" >"$f.code"
    if [ "$code" = 200 ]; then
      echo "$g $(jq -r .seq "$f.act") $act" >>"$outf"
    elif [ "$code" = 000 ]; then
      return 0
    fi
  done
}

# check_acked FILE: every acknowledged action in FILE is in its game's log
# at its seq. Sets lost to the number missing.
check_acked() {
  local g seq act want got
  lost=0
  declare -A tokens_seen=()
  while read -r g seq act; do
    if [ -z "${tokens_seen[$g]:-}" ]; then
      tokens_seen[$g]=1
      curl -s -m 20 -H "Authorization: Bearer ${spec_of[$g]}" "$base/api/games/$g/log?since=0" >"$tmp/log.$g"
    fi
    want=$(jq -cS 'del(.text, .cost)' <<<"$act")
    got=$(jq -cS --argjson s "$seq" '.log[] | select(.seq == $s and .kind == "act") | .action | del(.text, .cost)' "$tmp/log.$g")
    if [ "$want" != "$got" ]; then
      lost=$((lost + 1)); echo "lost: game $g seq $seq: acknowledged $want, stored '${got}'" >&2
    fi
  done <"$1"
}

# check_clean_log: no sanitizer report in any server log so far.
check_clean_logs() {
  if grep -l -E "AddressSanitizer|LeakSanitizer|runtime error:" "$tmp"/server*.log >/dev/null 2>&1; then
    bad "a sanitizer report in the server's log"; grep -h -A30 -E "Sanitizer|runtime error:" "$tmp"/server*.log | head -60 >&2
  else ok; fi
}
declare -A spec_of=()

# --- 1. SIGKILL while moves are in flight, three times ---------------------------
db="$tmp/kill.db"
start_server "$db"
games=()
for s in 1 2 3; do
  read -r g a b sp <<<"$(new_game $s)"
  games+=("$g $a $b"); spec_of[$g]=$sp
done
: >"$tmp/acked"
for round in 1 2 3; do
  ps=()
  for gl in "${games[@]}"; do
    read -r g a b <<<"$gl"
    player "$g" "$a" "$b" 1000 "$tmp/acked" & ps+=($!)
  done
  sleep "1.$((RANDOM % 9))"
  kill -9 "$pid"; wait "$pid" 2>/dev/null; pid=""
  faults=$((faults + 1))
  wait "${ps[@]}"
  start_server "$db"
  check_acked "$tmp/acked"
  check "SIGKILL $round: no acknowledged action lost ($(wc -l <"$tmp/acked") so far)" 0 "$lost"
  # The game goes on from where the log ends, and its seq counts every change.
  read -r g a b <<<"${games[0]}"
  check "SIGKILL $round: the game is back" 200 "$(api GET "/api/games/$g/state" "" "$a")"
done
acked_total=$((acked_total + $(wc -l <"$tmp/acked")))
echo "fault_server.sh: SIGKILL x3 during play: $(wc -l <"$tmp/acked") acknowledged actions, none lost"

# --- 2. a client disconnecting in the middle of a request ------------------------
read -r g a b <<<"${games[0]}"
tok_of_move() { api GET "/api/games/$g/legal" "" "$a" >/dev/null; if [ "$(out .to_move)" = british ]; then echo "$b"; else echo "$a"; fi; }
api GET "/api/games/$g/state" "" "$a" >/dev/null; h0=$(out .state.hash); s0=$(out .seq)
tok=$(tok_of_move)
raw() {  # raw BYTES: opens a connection, sends BYTES, closes it at once
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  printf '%b' "$1" >&3
  exec 3>&- 3<&-
}
body='{"action": {"type": "end_turn"}}'
raw "POST /api/games/$g/act HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer $tok\r\nContent-Length: ${#body}\r\n\r\n${body:0:12}"
raw "POST /api/games/$g/act HTTP/1.1\r\nHost: x\r\nAuthorization: Bea"
raw "POST /api/games/$g/act HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer $tok\r\nContent-Length: 999999\r\n\r\n{\"action\":"
raw "POST /api/games/$g/act HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer $tok\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"act"
faults=$((faults + 4))
sleep 0.3
check "cut requests: the server answers" 200 "$(api GET "/api/games/$g/state" "" "$a")"
check "cut requests: the game is unchanged" "$h0 $s0" "$(out .state.hash) $(out .seq)"
# A whole request whose answer is never read: it counts as played (it was
# stored); the client can see it in the log.
raw "POST /api/games/$g/act HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer $tok\r\nContent-Length: ${#body}\r\nConnection: close\r\n\r\n$body"
faults=$((faults + 1))
for _ in $(seq 20); do api GET "/api/games/$g/state" "" "$a" >/dev/null; [ "$(out .seq)" != "$s0" ] && break; sleep 0.1; done
s1=$(out .seq)
if [ "$s1" = "$s0" ] || [ "$s1" = "$((s0 + 1))" ]; then ok; else bad "an answer never read: seq $s0 -> $s1"; fi
echo "fault_server.sh: a request whose answer was never read: $([ "$s1" = "$s0" ] && echo "not played" || echo "played once")"

# --- 3. slow clients holding connections while others play -------------------------
# Twenty connections that send half a request and wait, one that sends a
# byte a second, and a live-update stream nobody reads.
for i in $(seq 20); do
  ( exec 3<>"/dev/tcp/127.0.0.1/$port"; printf 'POST /api/games/%s/act HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{"act' "$g" >&3; sleep 60 ) &
  holders+=($!)
done
( exec 3<>"/dev/tcp/127.0.0.1/$port"; for c in G E T ' ' /; do printf '%s' "$c" >&3; sleep 1; done; sleep 60 ) &
holders+=($!)
( curl -s -N -m 60 "$base/api/games/$g/events?token=$a" >/dev/null ) &
holders+=($!)
faults=$((faults + 22))
sleep 0.5
t0=$(date +%s%N)
: >"$tmp/acked2"
read -r g2 a2 b2 <<<"${games[1]}"
player "$g2" "$a2" "$b2" 10 "$tmp/acked2"
t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
check "slow clients: another game plays 10 actions" 10 "$(wc -l <"$tmp/acked2")"
if [ "$ms" -lt 15000 ]; then ok; else bad "slow clients: 10 actions took $ms ms"; fi
echo "fault_server.sh: 22 slow connections held open; 10 actions of another game in $ms ms"
cat "$tmp/acked2" >>"$tmp/acked"

# --- 4. SIGTERM with those clients still connected: a clean stop ------------------
kill -TERM "$pid"
stopped=""
for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || { stopped=yes; break; }; sleep 0.1; done
if [ -n "$stopped" ]; then
  wait "$pid"; rc=$?; pid=""
  check "SIGTERM with clients connected: exit status" 0 "$rc"
else
  bad "SIGTERM: the server did not stop within 30 s"; stop_server
fi
grep -q "stopping (signal 15)" "$log" && ok || bad "SIGTERM: the server says it stops"
for h in "${holders[@]}"; do kill "$h" 2>/dev/null; wait "$h" 2>/dev/null; done
holders=()
start_server "$db"
check_acked "$tmp/acked"
check "after SIGTERM: no acknowledged action lost" 0 "$lost"
acked_total=$((acked_total + $(wc -l <"$tmp/acked2")))
kill -TERM "$pid"; wait "$pid"; check "SIGTERM: exit status" 0 "$?"; pid=""

# --- 5. a full disk ----------------------------------------------------------------
disk="$tmp/disk"; mkdir -p "$disk"
mode=""
if [ -z "${MUSKET_FAULT_NO_TMPFS:-}" ] && mount -t tmpfs -o size=1m tmpfs "$disk" 2>/dev/null; then
  mode=tmpfs
elif command -v prlimit >/dev/null; then
  mode=fsize; disk=""
  mkdir -p "$tmp/disk"
else
  echo "fault_server.sh: no tmpfs and no prlimit: the full-disk test is skipped"
fi
if [ -n "$mode" ]; then
  fdb="$tmp/disk/full.db"
  # A server that writes past a file-size limit gets EFBIG, not a signal.
  trap '' XFSZ
  start_server "$fdb" 1500
  trap - XFSZ
  read -r g a b sp <<<"$(new_game 5)"; spec_of[$g]=$sp
  : >"$tmp/acked3"
  player "$g" "$a" "$b" 5 "$tmp/acked3"
  # A game whose computer seat moves first, 1.5 s from now: the disk will
  # be full by then.
  api POST /api/games "{\"scenario\": $scenario, \"seats\": {\"british\": {\"ai\": \"random\"}}, \"seed\": 6}" >/dev/null
  aig=$(out .game); aispec=$(out .spectator)
  if [ "$mode" = tmpfs ]; then
    dd if=/dev/zero of="$tmp/disk/fill" bs=4k 2>/dev/null   # until the disk is full
  else
    # The database's files may grow no further.
    wal=$(stat -c %s "$fdb-wal" 2>/dev/null || echo 0)
    prlimit --pid "$pid" --fsize="$wal:"
  fi
  faults=$((faults + 1))
  # Play on until the store refuses (a WAL may have room left for a few).
  refused=""
  for _ in $(seq 60); do
    api GET "/api/games/$g/state" "" "$a" >/dev/null; hb=$(out .state.hash); sb=$(out .seq)
    n0=$(wc -l <"$tmp/acked3")
    player "$g" "$a" "$b" 1 "$tmp/acked3"
    if [ "$(wc -l <"$tmp/acked3")" = "$n0" ] && [ "$(jq -r .error.code "$tmp/p.$g.act" 2>/dev/null)" = internal ]; then
      refused=yes; break
    fi
  done
  check "full disk ($mode): an action is refused" yes "$refused"
  check "full disk: a clear error" true "$(jq '.ok == false and (.error.message | test("stored"))' "$tmp/p.$g.act")"
  check "full disk: the status" 500 "$(cat "$tmp/p.$g.code")"
  api GET "/api/games/$g/state" "" "$a" >/dev/null
  check "full disk: the game did not advance past what is stored" "$hb $sb" "$(out .state.hash) $(out .seq)"
  check "full disk: new games are refused too" 500 "$(api POST /api/games "{\"scenario\": $scenario, \"seed\": 9}")"
  # Space comes back: play goes on, the computer's seat too.
  for _ in $(seq 50); do grep -q "game $aig: AI action refused" "$log" && break; sleep 0.1; done
  api GET "/api/games/$aig/state" "" "$aispec" >/dev/null
  check "full disk: the computer's first move is refused" 0 "$(out .seq)"
  if [ "$mode" = tmpfs ]; then rm -f "$tmp/disk/fill"; else prlimit --pid "$pid" --fsize=unlimited:; fi
  n0=$(wc -l <"$tmp/acked3")
  player "$g" "$a" "$b" 5 "$tmp/acked3"
  check "space back: play goes on" 5 "$(( $(wc -l <"$tmp/acked3") - n0 ))"
  for _ in $(seq 50); do
    api GET "/api/games/$aig/state" "" "$aispec" >/dev/null; [ "$(out .seq)" != 0 ] && break; sleep 0.2
  done
  if [ "$(out .seq)" != 0 ]; then ok; else bad "space back: the computer's seat moves again"; fi
  # And what was acknowledged survives a crash.
  kill -9 "$pid"; wait "$pid" 2>/dev/null; pid=""
  faults=$((faults + 1))
  start_server "$fdb"
  check_acked "$tmp/acked3"
  check "full disk, then SIGKILL: no acknowledged action lost" 0 "$lost"
  acked_total=$((acked_total + $(wc -l <"$tmp/acked3")))
  kill -TERM "$pid"; wait "$pid"; check "SIGTERM after the full disk: exit status" 0 "$?"; pid=""
  echo "fault_server.sh: full disk ($mode): refused with 'internal', the game held at seq $sb, play went on after"
fi

check_clean_logs
echo "fault_server.sh: faults injected: $faults; acknowledged actions: $acked_total; lost: 0 unless reported above"
echo "fault_server.sh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
