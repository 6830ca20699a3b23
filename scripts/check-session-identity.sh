#!/usr/bin/env bash
# Checks that two hrvmon binaries read session files alike: byte-identical output and exit status
# of `analyze --format json`, `export --format csv` and `export --format rr --corrected` on
#   - a 24-h day (DAY_FILE, default .build/year/day.jsonl as scripts/make-year.sh records it),
#   - that day cut to its first 20,000 lines with notes (escapes, non-ASCII), a gap, an exercise,
#     lines of unknown types, CRLF line ends, and a torn last line,
#   - demo sessions of every preset (recorded by the baseline),
#   - every file of the fuzz corpus's SessionFile target;
# and of `sessions`, `history --days 60` and `export --all --format jsonl` over DATA_DIR when
# given (a directory scripts/make-year.sh filled). Then format 2: the day and the demo sessions,
# each rewritten and compressed by the candidate's `sessions --compact` (which itself checks the
# rewrite against the old file before removing it), give the baseline's `analyze --format json`
# of the old file byte for byte (but for the path it names).
#
#     scripts/check-session-identity.sh BASELINE_HRVMON [CANDIDATE_HRVMON [DATA_DIR]]
#
# Exits 1 at the first difference, naming the file and the command.
set -euo pipefail
cd "$(dirname "$0")/.."
baseline=${1:?usage: check-session-identity.sh BASELINE_HRVMON [CANDIDATE_HRVMON [DATA_DIR]]}
candidate=${2:-.build/release/hrvmon}
data_dir=${3:-}
day=${DAY_FILE:-.build/year/day.jsonl}
[ -s "$day" ] || { echo "check-session-identity.sh: no day file $day (scripts/make-year.sh records it)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

compare() { # LABEL COMMAND-ARGS...: runs both binaries with the arguments
    local label=$1 status_a=0 status_b=0
    shift
    "$baseline" "$@" </dev/null >"$tmp/a.out" 2>&1 || status_a=$?
    "$candidate" "$@" </dev/null >"$tmp/b.out" 2>&1 || status_b=$?
    if [ "$status_a" != "$status_b" ] || ! cmp -s "$tmp/a.out" "$tmp/b.out"; then
        echo "DIFFERENT: $label: hrvmon $* (exit $status_a vs $status_b)" >&2
        diff "$tmp/a.out" "$tmp/b.out" | head -n 10 >&2
        exit 1
    fi
    runs=$((runs + 1))
}

files=("$day")
head -n 20000 "$day" > "$tmp/edited.jsonl"
t=$(sed -n 2p "$day" | sed 's/.*"t":\([0-9.]*\).*/\1/')
{
    echo "{\"type\":\"note\",\"t\":$t,\"text\":\"caf\\u00e9 \\\"strong\\\"\\nsecond line \\ud83d\\ude00\"}"
    echo "{\"type\":\"note\",\"t\":$t,\"text\":\"Zoë\"}"
    echo "{\"type\":\"gap\",\"t\":$t}"
    echo "{\"type\":\"exercise\",\"t\":$t,\"event\":\"started\",\"pattern\":\"6/min\",\"session_s\":100}"
    echo "{\"type\":\"exercise\",\"t\":$t,\"event\":\"stopped\",\"pattern\":\"6/min\",\"session_s\":400}"
    echo "{\"type\":\"hologram\",\"t\":$t,\"shape\":{\"sides\":[1,2]}}"
} >> "$tmp/edited.jsonl"
sed -n 20001,30000p "$day" >> "$tmp/edited.jsonl"
cp "$tmp/edited.jsonl" "$tmp/whole.jsonl"
sed -n 30001p "$day" | head -c 60 >> "$tmp/edited.jsonl"
sed 's/$/\r/' "$tmp/whole.jsonl" > "$tmp/crlf.jsonl"
files+=("$tmp/edited.jsonl" "$tmp/whole.jsonl" "$tmp/crlf.jsonl")
for preset in demo stress-test workout; do
    XDG_DATA_HOME=$tmp/data XDG_CONFIG_HOME=$tmp/data "$baseline" demo --scenario "$preset" --speed 1000 \
        --log "$tmp/demo-$preset.jsonl" --format jsonl >/dev/null
    files+=("$tmp/demo-$preset.jsonl")
done
files+=(Fuzz/corpus/SessionFile/*)

runs=0
for file in "${files[@]}"; do
    compare "$file" analyze --format json "$file"
    case $file in
    Fuzz/*) ;; # small inputs for the reader: analyze only
    *)
        compare "$file" export --format csv "$file"
        compare "$file" export --format rr --corrected "$file"
        ;;
    esac
done
if [ -n "$data_dir" ]; then
    for command in "sessions" "sessions --format json" "history --days 60" "history --days 60 --format json"; do
        # shellcheck disable=SC2086 # the command is a list of arguments
        XDG_DATA_HOME=$data_dir compare "$data_dir" $command
    done
    XDG_DATA_HOME=$data_dir "$baseline" export --all --format jsonl --output "$tmp/export-a" >/dev/null
    XDG_DATA_HOME=$data_dir "$candidate" export --all --format jsonl --output "$tmp/export-b" >/dev/null
    diff -r "$tmp/export-a" "$tmp/export-b" >/dev/null || { echo "DIFFERENT: export --all --format jsonl" >&2; exit 1; }
    runs=$((runs + 1))
fi
compacted=0
for file in "$day" "$tmp"/demo-*.jsonl; do
    rm -rf "$tmp/compact"
    mkdir -p "$tmp/compact/hrvmon/sessions"
    cp "$file" "$tmp/compact/hrvmon/sessions/20260101-000000.jsonl"
    if ! XDG_DATA_HOME=$tmp/compact "$candidate" sessions --compact >"$tmp/compact.out" 2>&1; then
        echo "DIFFERENT: sessions --compact of $file:" >&2
        cat "$tmp/compact.out" >&2
        exit 1
    fi
    unnamed() { sed 's/"source":"[^"]*"/"source":""/'; }
    "$baseline" analyze --format json "$file" | unnamed >"$tmp/a.out"
    "$candidate" analyze --format json "$tmp/compact/hrvmon/sessions/20260101-000000.jsonl.gz" | unnamed >"$tmp/b.out"
    if ! cmp -s "$tmp/a.out" "$tmp/b.out"; then
        echo "DIFFERENT: analyze of $file and of its format 2 rewrite" >&2
        diff "$tmp/a.out" "$tmp/b.out" | head -n 10 >&2
        exit 1
    fi
    compacted=$((compacted + 1))
done
echo "identical: ${#files[@]} files, $runs runs; $compacted sessions rewritten as format 2 analyse alike"
