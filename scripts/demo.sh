#!/usr/bin/env bash
# README's quick start: install what is needed, build, run `hrvmon demo` (the main job), and
# analyse the bundled recordings. What it prints stays short; the full output of each step goes to
# a file under .build/demo, and the end says where and what to try next. Any failing step fails it.
#
#     scripts/demo.sh                        # build a release hrvmon and run it
#     HRVMON=.build/debug/hrvmon scripts/demo.sh   # run one already built
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/demo
mkdir -p "$out"

# `step LOG COMMAND...`: runs the command with its output in LOG; on failure shows LOG's end and
# fails with the command's status.
step() {
    local log=$1
    shift
    local status=0
    "$@" >"$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        echo "failed ($status): $*" >&2
        tail -n 40 "$log" >&2
        echo "(all of it: $log)" >&2
        exit "$status"
    fi
}

# Only what building needs: the demo runs no tests, no fakes, no browser.
scripts/install-deps.sh build
if [ -n "${HRVMON:-}" ]; then
    hrvmon=$HRVMON
    echo "== Using $hrvmon =="
else
    hrvmon=.build/release/hrvmon
    echo "== Building $hrvmon (a first build takes several minutes; its output goes to $out/build.log) =="
    step "$out/build.log" swift build -c release --product hrvmon
fi

echo
echo "== The main job: hrvmon demo — a simulated session through the live pipeline, no strap needed =="
if [ -t 0 ] && [ -t 1 ]; then
    echo "(the dashboard, 10× real time: b breathes along, ? explains the screen, q leaves once you have seen the effect)"
    $hrvmon demo
else
    # Off a terminal (CI): one line per event, the 10-minute session in 10 s, exit at its end;
    # here only its summary, the effect of the breathing exercise.
    step "$out/demo.txt" "$hrvmon" demo --speed 60
    echo "the 10-minute session, one line per event, is in $out/demo.txt; it ended with:"
    tail -n 3 "$out/demo.txt"
fi

echo
echo "== A real recording: 5 minutes of MIT-BIH normal sinus rhythm =="
step "$out/mitbih.txt" "$hrvmon" analyze Tests/TestSupport/Fixtures/mitbih_nsr_5min.txt
grep -E '^  (Mean HR|SDNN|RMSSD|Stress  )' "$out/mitbih.txt"

echo
echo "== The demo's scenario, analysed offline: rest → stress → paced breathing → recovery =="
"$hrvmon" simulate --scenario demo --seed 1 >"$out/scenario-rr.txt"
step "$out/scenario.txt" "$hrvmon" analyze "$out/scenario-rr.txt"
grep -E '^  (RMSSD|Stress  |States)' "$out/scenario.txt"
step "$out/scenario-series.csv" "$hrvmon" analyze --series --step 60 "$out/scenario-rr.txt"

cat <<EOF

Done: ran the demo with $hrvmon and analysed a real and a simulated recording.
Everything each step printed is in $out/:
  demo.txt             the demo session, one line per event (off a terminal)
  mitbih.txt           analyze of the MIT-BIH recording
  scenario.txt         analyze of the demo's simulated RR ($out/scenario-rr.txt)
  scenario-series.csv  its rolling windows, one row a minute
Next, try:
  $hrvmon demo              the live dashboard on a terminal (b breathe, ? help, q quit; --save keeps it)
  $hrvmon breathe           a guided breathing exercise, no strap needed (q or Esc stops)
  $hrvmon doctor            with a heart-rate strap: checks Bluetooth and finds it
  $hrvmon monitor           then: a live session from the strap
EOF
