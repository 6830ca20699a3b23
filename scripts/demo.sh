#!/usr/bin/env bash
# README's quick start: install what is needed, build, and analyse the bundled recordings.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product hrvmon
hrvmon=.build/release/hrvmon

echo "== A real recording: 5 minutes of MIT-BIH normal sinus rhythm =="
$hrvmon analyze Tests/HRVTests/Fixtures/mitbih_nsr_5min.txt
echo
echo "== The simulated demo scenario: rest → stress → paced breathing → recovery =="
$hrvmon simulate --scenario demo --seed 1 | $hrvmon analyze -
echo
echo "== Its rolling windows, one row a minute =="
$hrvmon simulate --scenario demo --seed 1 | $hrvmon analyze --series --step 60 -
