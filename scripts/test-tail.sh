#!/usr/bin/env bash
# The last two steps of npm test, side by side: the answer path's evaluation against its floors
# (npm run eval:kb; its server and client share one thread) and the PostgreSQL tests
# (scripts/pg-test.sh; about one core on average). Each keeps about one of the VM's 2 cores busy,
# so they take the longer of the two, not their sum. The evaluation's report is printed after the
# PostgreSQL tests' output, whole; either failing fails the step.
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp /tmp/cx-eval-XXXXXX)
trap 'rm -f "$log"' EXIT
npm run --silent eval:kb -- --floors test/kb/eval/floors.json >"$log" 2>&1 &
eval_pid=$!
bash scripts/pg-test.sh "$@"
pg=$?
wait "$eval_pid"
ev=$?
echo "---- npm run eval:kb -- --floors test/kb/eval/floors.json (exit $ev) ----"
cat "$log"
[ "$pg" -eq 0 ] || echo "test-tail: scripts/pg-test.sh failed (exit $pg)" >&2
[ "$ev" -eq 0 ] || echo "test-tail: the evaluation failed (exit $ev)" >&2
[ "$pg" -eq 0 ] && [ "$ev" -eq 0 ]
