#!/usr/bin/env bash
# README's quick start: install what is needed, build, run `hrvmon demo` (the main job), and
# analyse the bundled recordings.
set -euo pipefail
cd "$(dirname "$0")/.."
# Only what building needs: the demo runs no tests, no fakes, no browser.
scripts/install-deps.sh build
swift build -c release --product hrvmon
hrvmon=.build/release/hrvmon

echo "== The main job: hrvmon demo — a simulated session through the live pipeline, no strap needed =="
if [ -t 0 ] && [ -t 1 ]; then
    echo "(the dashboard, 10× real time: b breathes along, q leaves once you have seen the effect)"
    $hrvmon demo
else
    # Off a terminal (CI): one line per event, the 10-minute session in 30 s, exit at its end.
    $hrvmon demo --speed 20
fi
echo
echo "== A real recording: 5 minutes of MIT-BIH normal sinus rhythm =="
$hrvmon analyze Tests/TestSupport/Fixtures/mitbih_nsr_5min.txt
echo
echo "== The simulated demo scenario, analysed offline: rest → stress → paced breathing → recovery =="
$hrvmon simulate --scenario demo --seed 1 | $hrvmon analyze -
echo
echo "== Its rolling windows, one row a minute =="
$hrvmon simulate --scenario demo --seed 1 | $hrvmon analyze --series --step 60 -
