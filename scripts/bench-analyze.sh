#!/usr/bin/env bash
# End-to-end timing of `hrvmon analyze` on a simulated 24-hour recording (~100,000 beats):
# wall time of the whole process (startup, file reading, pipeline, JSON output) with and without
# artifact correction, its CPU time (analyze runs on three threads), peak resident memory and
# callgrind's instruction count, in all and per thread. Prints a markdown table.
#
#     scripts/bench-analyze.sh            # RUNS=20 SCENARIO=day SEED=1 BIG_MB=200 STATIC=1 by default
#     HYPERFINE=0 scripts/bench-analyze.sh   # force the bash-loop timer (no CPU time then)
#     BIG_MB=0 scripts/bench-analyze.sh      # skip the large file
#     STATIC=0 scripts/bench-analyze.sh      # skip the build `make` installs (--static-swift-stdlib,
#                                            # built into .build-static)
#
# Then, once, a BIG_MB file (the day repeated) for the peak memory of streaming a large input.
#
# Uses hyperfine when present (installed from Debian when running as root), else a bash loop
# timed with `date +%s%N`. Peak RSS comes from GNU time (`/usr/bin/time -v`, Debian `time`).
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${RUNS:-20}
big_mb=${BIG_MB:-200}
static=${STATIC:-1}
scenario=${SCENARIO:-day}
seed=${SEED:-1}

log() { echo "bench-analyze: $*" >&2; }

# Installs Debian packages when missing, only as root; quietly leaves them missing otherwise.
apt_updated=false
ensure_package() {
    local command=$1 package=$2
    command -v "$command" >/dev/null 2>&1 && return 0
    [ "$(id -u)" -eq 0 ] || return 1
    export DEBIAN_FRONTEND=noninteractive
    if [ "$apt_updated" = false ]; then
        apt-get update -qq </dev/null >/dev/null 2>&1 || true
        apt_updated=true
    fi
    log "installing $package"
    apt-get install -y -qq --no-install-recommends "$package" </dev/null >/dev/null 2>&1 || return 1
    command -v "$command" >/dev/null 2>&1
}

log "building hrvmon (release)"
swift build -c release --product hrvmon >&2
hrvmon=$PWD/.build/release/hrvmon
builds=("$hrvmon")
if [ "$static" = 1 ]; then
    log "building hrvmon as make does (--static-swift-stdlib) into .build-static"
    swift build -c release --static-swift-stdlib --product hrvmon --build-path .build-static >&2
    builds+=("$PWD/.build-static/release/hrvmon")
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$hrvmon" simulate --scenario "$scenario" --seed "$seed" </dev/null >"$tmp/day.txt"
input_beats=$(grep -cv '^#' "$tmp/day.txt")
log "simulated $input_beats beats (--scenario $scenario --seed $seed)"

have_hyperfine=false
if [ "${HYPERFINE:-1}" = 0 ]; then
    log "HYPERFINE=0: timing with a bash loop"
elif ensure_package hyperfine hyperfine; then
    have_hyperfine=true
else
    log "hyperfine unavailable: timing with a bash loop"
fi
have_time=false
if [ -x /usr/bin/time ] || ensure_package /usr/bin/time time; then have_time=true; else log "GNU time unavailable: no RSS"; fi

# Prints "mean min max cpu" in ms for the command given as arguments ($runs runs after one
# warm-up); cpu is the mean user + system time, "n/a" without hyperfine.
time_command() {
    if [ "$have_hyperfine" = true ]; then
        # -N: no intermediate shell, so its startup is not in the numbers.
        hyperfine -N --style none --warmup 2 --runs "$runs" --export-csv "$tmp/hyperfine.csv" \
            "$(printf '%q ' "$@")" </dev/null >/dev/null
        # command,mean,stddev,median,user,system,min,max (seconds); the command may hold commas.
        tail -n 1 "$tmp/hyperfine.csv" | awk -F, '{ printf "%.1f %.1f %.1f %.1f\n", $(NF-6) * 1000, $(NF-1) * 1000, $NF * 1000, ($(NF-3) + $(NF-2)) * 1000 }'
    else
        "$@" </dev/null >/dev/null
        local i start end total=0 min= max=0 elapsed
        for ((i = 0; i < runs; i++)); do
            start=$(date +%s%N)
            "$@" </dev/null >/dev/null
            end=$(date +%s%N)
            elapsed=$((end - start))
            total=$((total + elapsed))
            if [ -z "$min" ] || [ "$elapsed" -lt "$min" ]; then min=$elapsed; fi
            if [ "$elapsed" -gt "$max" ]; then max=$elapsed; fi
        done
        awk -v t="$total" -v n="$runs" -v lo="$min" -v hi="$max" \
            'BEGIN { printf "%.1f %.1f %.1f n/a\n", t / n / 1e6, lo / 1e6, hi / 1e6 }'
    fi
}

# Instructions of one run in millions (valgrind's callgrind), in all and per thread (the main
# thread first): unlike time, repeatable on a shared machine, so they are the numbers to compare
# between commits. With threads, the largest thread bounds the wall time as the total bounds the
# CPU time.
instructions() {
    if command -v valgrind >/dev/null 2>&1; then
        rm -f "$tmp"/callgrind.out*
        valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$tmp/callgrind.out" "$@" </dev/null >/dev/null 2>"$tmp/valgrind.txt"
        local total threads
        total=$(awk '/Collected :/ { printf "%.0f", $4 / 1e6 }' "$tmp/valgrind.txt")
        threads=$(for file in "$tmp"/callgrind.out-*; do awk '/^summary:/ { printf "%.0f\n", $2 / 1e6 }' "$file"; done | paste -sd/ - | sed 's|/| / |g')
        echo "$total ($threads)"
    else
        echo "n/a"
    fi
}

# Peak resident set size of one run, in MB.
peak_rss() {
    if [ "$have_time" = true ]; then
        /usr/bin/time -v -o "$tmp/time.txt" "$@" </dev/null >/dev/null
        awk -F': ' '/Maximum resident set size/ { printf "%.1f\n", $2 / 1024 }' "$tmp/time.txt"
    else
        echo "n/a"
    fi
}

rows=()
for binary in "${builds[@]}"; do
    build=$([ "$binary" = "$hrvmon" ] && echo "release" || echo "static stdlib")
    for mode in correction no-correction; do
        args=(analyze "$tmp/day.txt" --format json)
        label="analyze --format json"
        if [ "$mode" = no-correction ]; then
            args+=(--no-correction)
            label+=" --no-correction"
        fi
        # One checked run first: a failing or malformed analysis stops the script.
        "$binary" "${args[@]}" </dev/null >"$tmp/out.json"
        beats=$(grep -o '"beats":[0-9]*' "$tmp/out.json" | head -n 1 | cut -d: -f2)
        if [ -z "$beats" ]; then
            log "no \"beats\" in the output of $binary ${args[*]}"
            exit 1
        fi
        log "timing $mode, $build build ($runs runs)"
        read -r mean min max cpu < <(time_command "$binary" "${args[@]}")
        rss=$(peak_rss "$binary" "${args[@]}")
        count=$(instructions "$binary" "${args[@]}")
        rows+=("| $label | $build | $beats | $mean | $min | $max | $cpu | $rss | $count |")
    done
    log "timing --version, $build build ($runs runs)"
    read -r mean min max cpu < <(time_command "$binary" --version)
    count=$(instructions "$binary" --version)
    rows+=("| --version (start-up alone) | $build | | $mean | $min | $max | $cpu | | $count |")
done

if [ "$big_mb" -gt 0 ]; then
    : >"$tmp/big.txt"
    while [ "$(stat -c %s "$tmp/big.txt")" -lt $((big_mb << 20)) ]; do cat "$tmp/day.txt" >>"$tmp/big.txt"; done
    size_mb=$(($(stat -c %s "$tmp/big.txt") >> 20))
    log "one run on a $size_mb MB file"
    start=$(date +%s%N)
    rss=$(peak_rss "$hrvmon" analyze "$tmp/big.txt" --format json)
    seconds=$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.1f", ns / 1e9 }')
    "$hrvmon" analyze "$tmp/big.txt" --format json </dev/null >"$tmp/out.json"
    beats=$(grep -o '"beats":[0-9]*' "$tmp/out.json" | head -n 1 | cut -d: -f2)
    rows+=("| analyze --format json, a $size_mb MB file (streamed) | release | $beats | $seconds s (1 run) | | | | $rss | |")
fi

tool=$([ "$have_hyperfine" = true ] && echo "hyperfine" || echo "bash loop")
echo "hrvmon analyze, $input_beats beats (simulate --scenario $scenario --seed $seed), $runs runs, $tool;" \
    "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo
echo "| command | build | beats | mean ms | min ms | max ms | CPU ms | peak RSS MB | instructions (M): all (per thread) |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
printf '%s\n' "${rows[@]}"
