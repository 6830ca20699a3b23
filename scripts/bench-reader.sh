#!/usr/bin/env bash
# The session reader's throughput (issue 28, item 3): `hrvmon export --format rr FILE`, which
# reads every line of a session file through SessionFileReader and writes only the beats'
# intervals, timed RUNS times (default 5) with GNU time:
#     scripts/bench-reader.sh [FILE]
# FILE defaults to the 24-h day scripts/make-year.sh records (.build/year/day.jsonl, recorded
# if missing). Prints the file's size and, per run and for the fastest and the median, wall
# time, CPU and MB/s (file bytes / wall time of the whole process: start-up and the export's
# own work included, so the reader alone is faster). HRVMON=path picks the binary (default: the
# release build).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
hrvmon=${HRVMON:-.build/release/hrvmon}
file=${1:-.build/year/day.jsonl}
# Built first: recording the day below runs this binary.
[ -x "$hrvmon" ] || swift build -c release --product hrvmon
if [ ! -s "$file" ]; then
    if [ $# -gt 0 ]; then
        echo "bench-reader.sh: $file: no such session file" >&2
        exit 2
    fi
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    HRVMON=$hrvmon scripts/make-year.sh "$scratch" 1 > /dev/null
fi
bytes=$(stat -c %s "$file")
echo "$file: $bytes bytes; $hrvmon; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %U %S %M" "$hrvmon" export --format rr "$file" 2>&1 > /dev/null | tail -n 1
done | sort -n | awk -v bytes="$bytes" '
    { wall[NR] = $1; cpu[NR] = $2 + $3; rss[NR] = $4 }
    END {
        for (i = 1; i <= NR; i++) printf "run: %.2f s wall, %.2f s CPU, %.1f MB/s, %.0f MB peak RSS\n", wall[i], cpu[i], bytes / 1e6 / wall[i], rss[i] / 1024
        median = int((NR + 1) / 2)
        printf "fastest %.1f MB/s, median %.1f MB/s (%d runs)\n", bytes / 1e6 / wall[1], bytes / 1e6 / wall[median], NR
    }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
