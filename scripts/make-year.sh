#!/usr/bin/env bash
# A year (or DAYS days) of 24/7 wear for benchmarks (issue 28):
#     scripts/make-year.sh DATA_DIR [DAYS]
# fills DATA_DIR (what XDG_DATA_HOME points at: DATA_DIR/hrvmon/sessions/...) with DAYS
# consecutive 24-h sessions, the last ending now, and their resting values in baseline.json.
# Each is a copy of one real 24-h session file recorded by `hrvmon demo --scenario day --seed 1
# --duration 86400 --log` (exactly what `monitor` writes: 103,341 beats; ~10 MB in format 2,
# kept as ID.jsonl.gz as a closed session is, ~1.6 MB; a day file of format 1, ~64 MB, gives
# ID.jsonl files), its times shifted (scripts/make-year.py). The day is recorded once (~90 s at --speed 1000) and kept in
# .build/year/day.jsonl; DAY_FILE=path uses another. HRVMON=path picks the binary (default: the
# release build, built if missing). 365 days take ~23 GB and a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: scripts/make-year.sh DATA_DIR [DAYS]" >&2
    exit 2
fi
data_dir=$1
days=${2:-365}
if ! [[ $days =~ ^[0-9]+$ ]] || [ "$days" -lt 1 ]; then
    echo "make-year.sh: DAYS must be a whole number of days, 1 or more, not '$days'" >&2
    exit 2
fi
if [ -z "${HRVMON:-}" ]; then
    HRVMON=.build/release/hrvmon
    [ -x "$HRVMON" ] || swift build -c release --product hrvmon
fi
day_file=${DAY_FILE:-.build/year/day.jsonl}
if [ ! -s "$day_file" ]; then
    mkdir -p "$(dirname "$day_file")"
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    echo "recording a 24-h demo session into $day_file (about 90 s)..." >&2
    # A scratch XDG_DATA_HOME and config: the user's own data and settings are not touched.
    XDG_DATA_HOME=$scratch XDG_CONFIG_HOME=$scratch "$HRVMON" demo --scenario day --seed 1 \
        --speed 1000 --duration 86400 --log "$scratch/day.jsonl" --format jsonl > /dev/null
    mv "$scratch/day.jsonl" "$day_file"
fi
python3 scripts/make-year.py "$day_file" "$data_dir" "$days"
du -sh "$data_dir/hrvmon"
