#!/usr/bin/env bash
# The whole test suite, as README's quick start and CI run it. Each step says how long it took, so
# where the time goes is in every run's output (run-tests.sh adds each of its five processes' time).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS=0
step() {
    local started=$SECONDS
    "$@"
    echo "== ${*:1:2} took $((SECONDS - started)) s (total $SECONDS s)"
}
step scripts/install-deps.sh
# The Python readers the export tests open hrvmon's EDF+, BIDS and Kubios files with.
step scripts/install-python-readers.sh
step swift build --build-tests
step scripts/run-tests.sh "$@"
