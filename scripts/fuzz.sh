#!/usr/bin/env bash
# libFuzzer targets for every parser of outside input (swiftc -sanitize=fuzzer,address): the 0x2A37
# parser, Polar's PMD frames and control-point replies, the RR/CSV reader, the session-file reader
# and the configuration reader. Each runs RUNS executions (default 10 million) from its corpus in
# Fuzz/corpus/TARGET, grown in .build/fuzz/corpus/TARGET; a crash stops the script and leaves the
# input in .build/fuzz/ (make it a regression test). Afterwards the inputs that reach new code are merged into Fuzz/corpus.
# Usage: scripts/fuzz.sh [TARGET...]   (RUNS=1000 scripts/fuzz.sh for a quick check)
set -euo pipefail
cd "$(dirname "$0")/.."
# libFuzzer reports a crash itself; the Swift runtime's backtracer would hold the output pipe open.
export SWIFT_BACKTRACE=enable=no
runs=${RUNS:-10000000}
out=.build/fuzz
mkdir -p "$out/modules"
# -package-name: the modules share `package` declarations, as SwiftPM builds them.
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -package-name hrvmon -I "$out/modules" -L "$out/modules")

# swift-numerics' RealModule (the maths HRV uses) from the package's checkout; its C shims are
# header-only, found through their module map.
numerics=.build/checkouts/swift-numerics/Sources
[ -d "$numerics" ] || swift package resolve
flags+=(-I "$numerics/_NumericsShims/include")

# The library modules, in dependency order, as static libraries with coverage instrumentation.
modules=(HeartRateProtocol PolarMeasurementData RealModule HRV Recordings Settings SelfReport LivePipeline SessionLog Exports FuzzChecks)
links=()
for module in "${modules[@]}"; do
    links=("-l$module" "${links[@]}")  # dependants before their dependencies
    sources=Sources/$module
    [ "$module" != RealModule ] || sources=$numerics/RealModule
    swiftc "${flags[@]}" -module-name "$module" -emit-module -emit-module-path "$out/modules/$module.swiftmodule" \
        -emit-library -static -o "$out/modules/lib$module.a" "$sources"/*.swift 2> >(grep -v "warning: Cannot export" >&2)
done

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(HeartRateMeasurement RRFile SessionFile SettingsFile PolarMeasurementData)
# One fuzzer; it runs the check it is named after (FuzzCheck's target names).
swiftc "${flags[@]}" Fuzz/FuzzTarget.swift "${links[@]}" -o "$out/FuzzTarget" 2> >(grep -v "warning: Cannot export" >&2)
for target in "${targets[@]}"; do
    ln -f "$out/FuzzTarget" "$out/$target"
    corpus="$out/corpus/$target"
    mkdir -p "$corpus"
    cp -n Fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
    echo "== $target: $runs runs"
    start=$(date +%s)
    # The fuzzer's own status decides (grep finding no line is fine). Taken from PIPESTATUS right
    # after the pipeline: an `|| true` would run `true` and reset it, hiding a crash.
    set +e
    (cd "$out" && "./$target" -runs="$runs" -max_len=4096 -print_final_stats=1 "corpus/$target" 2>&1) \
        | grep -E "^(#[0-9]+[[:space:]]+DONE|Done|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb|==.*ERROR|SUMMARY)|crash-"
    fuzzer=${PIPESTATUS[0]}
    set -e
    if [ "$fuzzer" -ne 0 ]; then
        echo "fuzz: $target failed (status $fuzzer); the input is in $out (crash-*, leak-*, timeout-*)" >&2
        exit 1
    fi
    echo "   $(($(date +%s) - start)) s"
    # Inputs that reached code the kept corpus does not go into Fuzz/corpus (commit them): the
    # test suite replays it on every run (Tests/FuzzCorpusTests), and the next campaign starts there.
    (cd "$out" && "./$target" -merge=1 -max_len=4096 "../../Fuzz/corpus/$target" "corpus/$target" 2>&1) \
        | grep -E "^MERGE-OUTER: [0-9]+ new files" || true
done
