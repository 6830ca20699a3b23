#!/usr/bin/env bash
# Checks that two hrvmon binaries give byte-identical `analyze` output (and exit status) on a set
# of recordings: every simulate preset with four seeds, the test fixtures, the fuzz corpus's RR
# files and a CSV export. Used before committing a performance change, whose output must not move.
#
#     scripts/check-analyze-identity.sh BASELINE_HRVMON [CANDIDATE_HRVMON]
#
# The candidate defaults to .build/release/hrvmon. Prints the number of files and runs compared and
# exits 1 at the first difference, naming the file and the arguments.
set -euo pipefail
cd "$(dirname "$0")/.."

baseline=${1:?usage: check-analyze-identity.sh BASELINE_HRVMON [CANDIDATE_HRVMON]}
candidate=${2:-.build/release/hrvmon}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

files=()
for preset in day demo paced rest stress-test workout; do
    for seed in 1 2 3 4; do
        "$baseline" simulate --scenario "$preset" --seed "$seed" </dev/null >"$tmp/$preset-$seed.txt"
        files+=("$tmp/$preset-$seed.txt")
    done
done
"$baseline" simulate --scenario rest --seed 5 --format csv </dev/null >"$tmp/rest-5.csv"
files+=("$tmp/rest-5.csv" Tests/TestSupport/Fixtures/*.txt Fuzz/corpus/RRFile/*)

runs=0
for file in "${files[@]}"; do
    variants=("--format json" "--format csv" "--format json --no-correction")
    case $file in
    Fuzz/*) variants=("--format json") ;; # small inputs for the reader: one run each
    *day-1.txt | *mitbih_nsr_30min.txt) variants+=("--series --format csv") ;;
    esac
    for variant in "${variants[@]}"; do
        # shellcheck disable=SC2086 # the variant is a list of arguments
        status_a=0 status_b=0
        "$baseline" analyze "$file" $variant </dev/null >"$tmp/a.out" 2>&1 || status_a=$?
        "$candidate" analyze "$file" $variant </dev/null >"$tmp/b.out" 2>&1 || status_b=$?
        if [ "$status_a" != "$status_b" ] || ! cmp -s "$tmp/a.out" "$tmp/b.out"; then
            echo "DIFFERENT: analyze $file $variant (exit $status_a vs $status_b)"
            diff <(tr ',' '\n' <"$tmp/a.out") <(tr ',' '\n' <"$tmp/b.out") | head -20
            exit 1
        fi
        runs=$((runs + 1))
    done
done
echo "identical: ${#files[@]} files, $runs runs"
