#!/usr/bin/env bash
# The whole test suite under AddressSanitizer and ThreadSanitizer, each in its own build
# directory (.build/asan, .build/tsan) so the normal build stays as it is. The binary the CLI
# and BlueZ tests run is built with the same sanitizer, so they cover it too.
# Usage: scripts/sanitize.sh [--edge] [address|thread]...   (default: both, every suite)
# --edge: only the suites whose code reaches C or raw memory (the operating system, D-Bus, BlueZ,
# the HCI socket, liblsl, libpq, zlib, the byte-level readers and the analysis's batch buffers and
# compaction, HRV's buffers and spectra) and two command suites that run hrvmon against the fake
# bluetoothd (reconnecting, LSL): what CI runs. The 0x2A37 and PMD parsers (no unsafe code) run
# under AddressSanitizer in scripts/fuzz.sh instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/install-python-readers.sh
filter=()
if [ "${1:-}" = --edge ]; then
    shift
    filter=(--filter '^(PlatformTests|DBusTests|DesktopIdleTests|BlueZTests|BluetoothHCITests|LabStreamingLayerTests|StudyDatabaseTests|UserDataTests|SessionLogTests|RecordingsTests|FuzzCorpusTests)\.|^AnalysisTests\.(BatchWorkerTests|RecordingAnalysisTests|SessionFormatTests)/|^HRVTests\.(RollingWindowTests|RollingDFATests|DetrendedFluctuationTests|SampleEntropyTests|SlidingQuantilesTests|SlidingExtremumTests|RealFourierTransformTests|BreathingEstimateTests|RecentBeatsTests|CoherenceTests)/|^hrvmonTests\.(ReconnectTests|LSLCommandTests)/')
fi
sanitizers=("$@")
[ ${#sanitizers[@]} -gt 0 ] || sanitizers=(address thread)
for sanitizer in "${sanitizers[@]}"; do
    scratch=".build/${sanitizer:0:1}san"
    reports="$PWD/$scratch/reports"
    rm -rf "$reports" && mkdir -p "$reports"
    echo "== swift test --sanitize=$sanitizer"
    # SANITIZED: the soak test's RSS bound does not apply (ASan's quarantine keeps freed memory).
    swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" -Xswiftc -DSANITIZED
    # Every report fails the run: the process that finds one stops (ASan on its first error, TSan
    # as told), and reports go to files as well, so one in a child process whose stderr a test
    # swallows is still seen. Leak checking is off: at exit, a command's event-loop handlers and
    # the objects they serve (the BlueZ object tree, the session) still reference each other,
    # which LeakSanitizer reports as a leak of the same ~11 kB whether `monitor` saw 10 beats or
    # 900; growth during a session is what matters, and the soak test's RSS bound covers it.
    # The Swift runtime's backtracer reads the crashed thread's stack from another thread, which
    # ASan reports as an overflow in its own right and hides the crash: off, so a Swift runtime
    # failure prints its message and stops.
    SWIFT_BACKTRACE=enable=no \
    ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:log_path=$reports/asan" \
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:log_path=$reports/tsan" \
        scripts/run-tests.sh --sanitize="$sanitizer" --scratch-path "$scratch" -Xswiftc -DSANITIZED ${filter[@]+"${filter[@]}"}
    if compgen -G "$reports/*" > /dev/null; then
        echo "== $sanitizer sanitizer reports:"
        cat "$reports"/*
        exit 1
    fi
done
