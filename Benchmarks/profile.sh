#!/usr/bin/env bash
# Counts the instructions of each contender's measured code with callgrind: repeatable
# whatever else the machine is doing, unlike the timings. Prints instructions per
# operation and raw C's count over each contender's (the instruction-count analogue of
# "× raw C"), and keeps the callgrind files for `callgrind_annotate`.
#
#   Benchmarks/profile.sh                                  # insert, fetch-all; every contender
#   Benchmarks/profile.sh insert,fetch-all,fetch-by-id,query,upsert raw-c,persistance-fast
#   ROWS=50000 OUT=/tmp/prof Benchmarks/profile.sh
#   callgrind_annotate --inclusive=yes "$OUT/insert.persistance.callgrind.region" | swift demangle --simplified | less
#
# Only the measured code is counted, on every thread (the executor's too): callgrind dumps
# a part at `timedRegionStart()` and another at `timedRegionEnd()`, and the part between
# them is kept; opening, seeding and checking are left out. Needs valgrind and a release build
# (`swift build -c release --package-path Benchmarks`; set BIN for another one).
set -euo pipefail
cd "$(dirname "$0")"
workloads=${1:-insert,fetch-all}
contenders=${2:-raw-c,grdb,grdb-codable,persistance,persistance-fast}
rows=${ROWS:-20000}
lookups=${LOOKUPS:-2000}
bin=${BIN:-.build/release/persistance-bench}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
available=$("$bin" --list | sed -n 's/^contenders: //p')

printf '%-16s %-18s %14s %12s\n' workload contender "Ir/op" "raw-c/this"
for workload in ${workloads//,/ }; do
    ops=$rows
    case $workload in fetch-by-id|query) ops=$lookups ;; esac
    raw=""
    for contender in ${contenders//,/ }; do
        case ", $available," in *", $contender,"*) ;; *) continue ;; esac
        file="$out/$workload.$contender.callgrind"
        rm -f "$file" "$file".*
        valgrind --tool=callgrind --dump-before='*timedRegionStart*' --dump-before='*timedRegionEnd*' \
            --callgrind-out-file="$file" \
            "$bin" --rows "$rows" --lookups "$lookups" --iterations 1 --warmup 0 \
            --only "$workload" --contenders "$contender" > /dev/null 2> "$file.log" || {
            echo "$workload $contender: failed, see $file.log" >&2; continue; }
        # Part 1 is everything before the region, the last file everything after; the
        # region is the largest part in between (the others are a marker's few instructions).
        total=""
        for part in "$file".[0-9]*; do
            [[ $part == "$file.1" || $part == *.log ]] && continue
            count=$(callgrind_annotate "$part" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
            if [[ -n $count && ( -z $total || $count -gt $total ) ]]; then total=$count; region=$part; fi
        done
        [[ -n $total ]] && cp "$region" "$file.region"
        if [[ -z $total ]]; then echo "$workload $contender: no profile, see $file.log" >&2; continue; fi
        per=$((total / ops))
        if [[ $contender == raw-c ]]; then raw=$per; ratio=""; else
            ratio=$([[ -n $raw ]] && awk -v r="$raw" -v p="$per" 'BEGIN { printf "%.2f", r / p }' || echo "")
        fi
        printf '%-16s %-18s %14s %12s\n' "$workload" "$contender" "$per" "$ratio"
    done
done
echo "callgrind files: $out" >&2
