#!/usr/bin/env bash
# The whole test suite under AddressSanitizer and ThreadSanitizer, each in its own build
# directory (.build/asan, .build/tsan) so the normal build stays as it is. The binary the CLI
# and BlueZ tests run is built with the same sanitizer, so they cover it too.
# Usage: scripts/sanitize.sh [address|thread]...   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
sanitizers=("$@")
[ ${#sanitizers[@]} -gt 0 ] || sanitizers=(address thread)
for sanitizer in "${sanitizers[@]}"; do
    scratch=".build/${sanitizer:0:1}san"
    echo "== swift test --sanitize=$sanitizer"
    swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
    # Any report fails the run: ASan aborts on its first error; TSan is told to.
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
        timeout --kill-after=30 1800 swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch"
done
