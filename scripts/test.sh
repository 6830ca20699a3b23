#!/usr/bin/env bash
# The whole test suite, as README's quick start and CI run it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The Python readers the export tests open hrvmon's EDF+, BIDS and Kubios files with.
scripts/install-python-readers.sh
swift build --build-tests
scripts/run-tests.sh "$@"
