#!/usr/bin/env bash
# The whole test suite, as README's quick start and CI run it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --build-tests
swift test --skip-build "$@"
