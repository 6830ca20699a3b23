#!/usr/bin/env bash
# The long view's benchmark (issue 28, item 5): each command a user with a year of data runs,
# over a data directory made by scripts/make-year.sh, timed once with GNU time:
#     scripts/bench-year.sh DATA_DIR
# Prints a Markdown table: wall time, CPU (user + system), peak RSS, and for `export --all` the
# throughput (bytes of session files read per second of wall time, and of their lines once
# decompressed); then the disk the data takes
# and the load average before and after. HRVMON=path picks the binary (default: the release
# build). A row taking more than LIMIT seconds (default 300) is stopped and shown as "> LIMIT s";
# SKIP="report-days export" leaves rows out (names: sessions history report-session report-days
# export export-csv). `export --format jsonl` copies the files (23 GB for a year: skip it there);
# `--format csv` reads every line through the session reader.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 1 ]; then
    echo "usage: scripts/bench-year.sh DATA_DIR" >&2
    exit 2
fi
data_dir=$(cd "$1" && pwd)
sessions_dir=$data_dir/hrvmon/sessions
if ! compgen -G "$sessions_dir/*.jsonl*" > /dev/null; then
    echo "bench-year.sh: no sessions in $sessions_dir; make them with scripts/make-year.sh $1" >&2
    exit 2
fi
hrvmon=${HRVMON:-.build/release/hrvmon}
limit=${LIMIT:-300}
skip=" ${SKIP:-} "
command -v /usr/bin/time > /dev/null || { echo "bench-year.sh: needs GNU time (Debian package time)" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Session files: ID.jsonl, or ID.jsonl.gz once closed (format 2).
days=$(ls "$sessions_dir" | grep -cE '\.jsonl(\.gz)?$')
latest=$(ls "$sessions_dir" | grep -E '\.jsonl(\.gz)?$' | sort | tail -n 1)
latest=${latest%.gz}
bytes=$(du -cbL "$sessions_dir"/*.jsonl* | tail -n 1 | cut -f1)
# What the files hold once decompressed (gzip's trailer keeps each member's size): the lines an
# export reads, so its throughput is given both ways.
content=$bytes
if compgen -G "$sessions_dir/*.jsonl.gz" > /dev/null; then
    plain=0
    if compgen -G "$sessions_dir/*.jsonl" > /dev/null; then plain=$(du -cbL "$sessions_dir"/*.jsonl | tail -n 1 | cut -f1); fi
    content=$((plain + $(gzip -lq "$sessions_dir"/*.jsonl.gz | awk '{ sum += $2 } END { printf "%.0f", sum }')))
fi

# One row: NAME LABEL COMMAND...; the command runs with the data directory as XDG_DATA_HOME.
row() {
    local name=$1 label=$2
    shift 2
    if [[ $skip == *" $name "* ]]; then
        echo "| $label | skipped | | | |"
        return
    fi
    local status=0
    XDG_DATA_HOME=$data_dir timeout "$limit" /usr/bin/time -v -o "$scratch/time" "$@" > "$scratch/out" 2> "$scratch/err" || status=$?
    if [ "$status" -eq 124 ]; then
        echo "| $label | > $limit s (stopped) | | | |"
        return
    fi
    if [ "$status" -ne 0 ]; then
        echo "bench-year.sh: $label exited $status: $(tail -n 3 "$scratch/err")" >&2
    fi
    awk -v label="$label" -v bytes="$bytes" -v content="$content" -v throughput="$name" -F': ' '
        /Elapsed \(wall clock\)/ { n = split($2, part, ":"); wall = (n == 3) ? part[1] * 3600 + part[2] * 60 + part[3] : part[1] * 60 + part[2] }
        /User time/ { cpu += $2 }
        /System time/ { cpu += $2 }
        /Maximum resident set size/ { rss = $2 / 1024 }
        END {
            rate = (throughput ~ /^export/ && wall > 0) ? sprintf("%.0f MB/s", bytes / 1e6 / wall) : ""
            if (rate != "" && content != bytes) rate = rate sprintf(" of files, %.0f MB/s of lines", content / 1e6 / wall)
            printf "| %s | %.2f s | %.2f s | %.0f MB | %s |\n", label, wall, cpu, rss, rate
        }' "$scratch/time"
}

echo "$days sessions, $((bytes / 1000000)) MB of session files ($((content / 1000000)) MB of lines), $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| command | wall | CPU | peak RSS | throughput |"
echo "|---|---:|---:|---:|---|"
row sessions '`sessions`' "$hrvmon" sessions
row history '`history --days 60`' "$hrvmon" history --days 60
row report-session '`report SESSION` (24 h)' "$hrvmon" report "${latest%.jsonl}" --output "$scratch/session.html"
row report-days '`report --days 60`' "$hrvmon" report --days 60 --output "$scratch/days.html"
row export '`export --all --format jsonl`' "$hrvmon" export --all --format jsonl --output "$scratch/export"
rm -rf "$scratch/export"
row export-csv '`export --all --format csv`' "$hrvmon" export --all --format csv --output "$scratch/export"
rm -rf "$scratch/export"
echo
echo "disk: $(du -sh "$data_dir/hrvmon" | cut -f1) ($(du -sb "$data_dir/hrvmon" | cut -f1) bytes); load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
