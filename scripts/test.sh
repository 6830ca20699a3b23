#!/usr/bin/env bash
# The whole test suite, as README's quick start and CI run it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The Python readers the export tests open hrvmon's EDF+, BIDS and Kubios files with.
scripts/install-python-readers.sh
swift build --build-tests
# A hung test must fail the run, not stall it: the whole suite takes about a minute.
# --disable-xctest: every test is a Swift Testing test, so XCTest's own run would only add its
# "Executed 0 tests" summary after the real one.
timeout --kill-after=30 900 swift test --skip-build --disable-xctest "$@"
