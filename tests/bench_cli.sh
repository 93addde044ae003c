#!/bin/bash
# musket-bench's command line: bad numbers and unknown scenarios are
# refused with a message that names the option and the value (atoi read
# "abc" as 0), without a leak (LeakSanitizer runs this in the sanitizer
# build), and --digest is reproducible. Usage: bench_cli.sh PATH/TO/musket (musket-bench is beside it).
set -u
bench="$(dirname "$1")/musket-bench"
if [ ! -x "$bench" ]; then
    echo "SKIP: no musket-bench beside $1"
    exit 77
fi
fails=0
# refuse ARGS... EXPECTED: exit status 2, EXPECTED on stderr, nothing on stdout
refuse() {
    local want="${@: -1}" out err rc
    set -- "${@:1:$#-1}"
    out=$("$bench" "$@" 2>/tmp/bench_cli.$$)
    rc=$?
    err=$(cat /tmp/bench_cli.$$)
    if [ $rc -ne 2 ] || [[ "$err" != *"$want"* ]] || [ -n "$out" ]; then
        echo "FAIL: musket-bench $* gave status $rc, stderr '$err', stdout '$out' (wanted 2 and '$want')"
        fails=$((fails + 1))
    fi
}
refuse --digest htl/tutorial abc "ACTIONS: 'abc' is not a whole number"
refuse --digest htl/tutorial 0 "ACTIONS: '0' is not a whole number from 1"
refuse --callgrind htl/tutorial 12x "ACTIONS: '12x'"
refuse --runs 0 "--runs: '0' is not a whole number from 1 to 31"
refuse --runs 2.5 "--runs: '2.5'"
refuse --seconds -1 "--seconds: '-1' is not a number"
refuse --seconds abc "--seconds: 'abc'"
refuse --mcts-iterations "" "--mcts-iterations: ''"
refuse --options 0xzz "--options: '0xzz' is not a mask"
refuse --digest no/such-scenario 10 "no/such-scenario"
refuse --scenario no/such-scenario "--scenario: no built-in scenario 'no/such-scenario'"
refuse --frobnicate "usage: musket-bench"
refuse --move-time nope "--move-time: 'nope' is not a difficulty (easy, normal, hard)"
refuse --move-time easy --moves 0 "--moves: '0' is not a whole number from 1"
refuse --move-time easy --after -1 "--after: '-1'"
refuse --moves 3 "--moves and --after go with --move-time LEVEL"
refuse --move-time easy --digest htl/tutorial 10 "--move-time and --digest are two runs"
refuse --move-time easy --scenario no/such-scenario "--scenario: no built-in scenario"
# --move-time times the level's own moves: 2 moves of easy (100 ms a move)
# on the tutorial, each searched for most of its budget (a lower bound
# only: a busy machine makes a move slower, never faster)
out=$("$bench" --move-time easy --moves 2 --scenario htl/tutorial)
rc=$?
line=$(printf '%s\n' "$out" | grep '^htl/tutorial ')
read -r _ moves longest median over <<<"$line"
if [ $rc -ne 0 ] || [[ "$out" != *"easy (mcts, 100 ms a move, one thread) against greedy"* ]] || [ "$moves" != 2 ] ||
    ! awk -v l="$longest" -v m="$median" 'BEGIN { exit !(l >= 0.05 && m >= 0.05 && m <= l) }'; then
    echo "FAIL: --move-time easy --moves 2 --scenario htl/tutorial gave status $rc and '$out'"
    fails=$((fails + 1))
fi
# the digest of the same actions is the same, and names them
a=$("$bench" --digest htl/tutorial 500) || { echo "FAIL: --digest htl/tutorial 500 exited $?"; fails=$((fails + 1)); }
b=$("$bench" --digest htl/tutorial 500)
if [ "$a" != "$b" ] || [[ "$a" != *"digest of 500 random actions: "* ]]; then
    echo "FAIL: two digests of the same actions: '$a' and '$b'"
    fails=$((fails + 1))
fi
rm -f /tmp/bench_cli.$$
[ $fails -eq 0 ] && echo "bench_cli: all passed"
exit $((fails > 0))
