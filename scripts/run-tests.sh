#!/usr/bin/env bash
# Runs the built test suite as three `swift test` processes side by side, prints their output one
# after the other, then runs the few timing-sensitive suites alone. Why: Swift Testing runs tests
# on the Swift concurrency pool, one thread per core, and the command-line suites block their
# thread while hrvmon runs in real time (a monitor session against the fake bluetoothd, a
# dashboard in tmux). On a 2-core machine two such tests
# held the whole run; three processes give three pools, so waiting tests overlap with the
# computing ones. A fourth runs the stress detector's simulated validation, whose tests each run
# 20 simulated recordings one after another: in the first process they started last (the pool
# takes the suites in order) and ran alone for minutes at its end. Every test runs exactly once:
# the first process skips what the others run.
#
#     scripts/run-tests.sh [swift test options...]   # e.g. --sanitize=address --scratch-path .build/asan
#     scripts/run-tests.sh --filter SUITE            # one process, as `swift test --filter SUITE`
#
# The test products must be built already (`swift build --build-tests` with the same options).
set -euo pipefail
cd "$(dirname "$0")/.."

# The suites that spend their time waiting on hrvmon in real time, in two groups of about equal
# length. A suite in no group runs in the first process, so a new suite is never left out. The
# suites that time what they hear to a tenth of a second run last, alone: beside the others, under
# AddressSanitizer, a sound player's start was 0.2 s late. MeasurementDataTests (the fake strap's
# accelerometer in real time) joined the first group: in the first process the pool reached it
# last and its tests waited one after another at the end (160 s on 2026-11-28).
alone='hrvmonTests\.(AudiblePacingTests)/'
waiting_a='hrvmonTests\.(MonitorCommandTests|DemoCommandTests|LiveMatchesAnalyzeTests|CheckCommandTests|DesktopNotificationTests|MeasurementDataTests)/'
waiting_b='hrvmonTests\.(ReconnectTests|TwoSensorsTests|DoctorCommandTests|SoakTests|LSLCommandTests|BreatheCommandTests|ScanCommandTests|ResonanceCommandTests|DemoSessionTests|SessionFileTests)/'
# The CPU-bound suites whose tests are long (each judges 20 simulated recordings in turn; in the
# first process, on 2026-11-28, they began after 703 s and ran to 1,390 s): from the start, beside the rest.
simulating='HRVTests\.(StressMotionTests|StressValidationTests)/'

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# --ignore-lock: the processes only read the build directory; SwiftPM's lock would run them one
# after another. --disable-xctest: every test is a Swift Testing test, so XCTest's own run would
# only add its "Executed 0 tests" summary. A hung test must fail the run, not stall it.
# Under a sanitizer the suite runs 3-4 times slower (AddressSanitizer: the computing group took
# over 900 s on the 2-core machine where it takes 243 s without), so a hang is judged later there.
limit=900
for argument in "$@"; do
    case $argument in --sanitize=*) limit=2700 ;; esac
done
# Line-buffered (stdbuf, inherited by the test binary): written to a file, its output would reach
# the file only when a block fills or the process ends, and `begun` below would wait that long.
swift_test() {
    stdbuf -oL timeout --kill-after=30 "$limit" swift test --skip-build --ignore-lock --disable-xctest "$@" 2>&1
}

# A run the caller narrowed with --filter or --skip is one process: those options would combine
# with the groups' own.
for argument in "$@"; do
    case $argument in
    --filter | --filter=* | --skip | --skip=*) swift_test "$@"; exit ;;
    esac
done

start=$(date +%s)
echo "== swift test in four processes; the output of the two waiting groups and the simulations follows, then the timing suites alone"
# SwiftPM opens its build database as it starts, --skip-build or not, and one of three processes
# started at once failed on it ("database is locked", then "no tests found"): each starts once
# the one before it has begun its tests (or ended).
begun() {
    while kill -0 "$2" 2>/dev/null && ! grep -q 'Test run started' "$1"; do sleep 0.2; done
}
swift_test --filter "$waiting_a" "$@" >"$logs/waiting-a" & first=$!
begun "$logs/waiting-a" $first
swift_test --filter "$waiting_b" "$@" >"$logs/waiting-b" & second=$!
begun "$logs/waiting-b" $second
swift_test --filter "$simulating" "$@" >"$logs/simulating" & third=$!
begun "$logs/simulating" $third
status=0
swift_test --skip "$waiting_a" --skip "$waiting_b" --skip "$simulating" --skip "$alone" "$@" | tee "$logs/computing" || status=1
wait "$first" || status=1
wait "$second" || status=1
wait "$third" || status=1
for name in waiting-a waiting-b simulating; do
    echo "== swift test, $name suites"
    cat "$logs/$name"
done
echo "== swift test, the timing suites alone"
swift_test --filter "$alone" "$@" | tee "$logs/timing" || status=1
echo "== the five runs finished in $(($(date +%s) - start)) s:"
grep -h 'Test run with' "$logs"/* | sed 's/\x1b\[[0-9;]*m//g'
exit $status
