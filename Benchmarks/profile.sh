#!/usr/bin/env bash
# Counts the instructions of each contender's measured code with callgrind: repeatable
# whatever else the machine is doing, unlike the timings. Prints instructions per
# operation and raw C's count over each contender's (the instruction-count analogue of
# "× raw C"), writes them as a table `persistance-bench --instructions` reads (TSV=path),
# and keeps the callgrind files for `callgrind_annotate`.
#
#   Benchmarks/profile.sh                                  # every workload but the concurrent ones, every contender
#   Benchmarks/profile.sh insert,fetch-all raw-c,persistance-fast
#   ROWS=50000 OUT=/tmp/prof TSV=/tmp/prof/instructions.tsv Benchmarks/profile.sh
#   callgrind_annotate --inclusive=yes "$OUT/insert.persistance.callgrind" | swift demangle --simplified | less
#
# Each contender runs once under valgrind, all its workloads in a row (one iteration, no
# warm-up); JOBS (default 1) contenders run at a time. Only the measured code is counted, on every thread (the executor's too):
# callgrind dumps a part at `timedRegionStart()` and another at `timedRegionEnd()`, so the
# k-th part that ends at `timedRegionEnd` holds the k-th measured region, and the benchmark
# names the k-th workload on standard error (`NAME: N operations`); opening, seeding and
# checking are left out.
# Needs valgrind and a release build (`swift build -c release --package-path Benchmarks`;
# set BIN for another one, e.g. the SQLCipher build).
set -euo pipefail
cd "$(dirname "$0")"
rows=${ROWS:-20000}
lookups=${LOOKUPS:-2000}
# 1,000 one-row transactions, so that what a process does once (loading a schema, binding a
# symbol, scanning protocol conformances) moves a per-transaction count by tens of
# instructions rather than by one or two thousand, whichever thread happens to do it first.
transactions=${TRANSACTIONS:-1000}
jobs=${JOBS:-1}
bin=${BIN:-.build/release/persistance-bench}
out=${OUT:-$(mktemp -d)}
tsv=${TSV:-$out/instructions.tsv}
mkdir -p "$out"
# Valgrind 3.19 gives up on the DWARF 5 debug info of the C code some dependencies compile
# (swift-crypto's); callgrind needs only the symbol table, so it runs a copy without debug info.
stripped="$out/persistance-bench"
objcopy --strip-debug "$bin" "$stripped"
available_workloads=$("$bin" --list | sed -n 's/^workloads: //p')
available_contenders=$("$bin" --list | sed -n 's/^contenders: //p')
workloads=${1:-$(echo "$available_workloads" | tr -d ' ' | tr ',' '\n' | grep -v '^concurrent' | paste -sd, -)}
contenders=${2:-$(echo "$available_contenders" | tr -d ' ')}

echo "# callgrind: $rows rows, $lookups lookups, $transactions transactions, one iteration, fair scheduling, Persistance spinWait 1 s, valgrind $(valgrind --version | sed 's/valgrind-//')" > "$tsv"
declare -A counts
printf '%-22s %-18s %12s %12s\n' workload contender "Ir/op" "Ir × raw C"
profiled=()
for contender in ${contenders//,/ }; do
    case ", $available_contenders," in *", $contender,"*) ;; *) continue ;; esac
    profiled+=("$contender")
    file="$out/$contender.callgrind"
    rm -f "$file" "$file".*
    while (( $(jobs -rp | wc -l) >= jobs )); do wait -n || true; done
    # The executor's threads watch for each other's work for a moment before they sleep or
    # suspend (Persistance's spinWait); natively a small call's block ends within the watch
    # almost always. Under valgrind two things broke that, at random, so that the counts
    # of the async and DAO workloads moved by up to 3,000 instructions per call from run to
    # run: valgrind runs one thread at a time, and by default a thread that yields often
    # takes the processor straight back, starving the thread it waits for
    # (--fair-sched=yes hands it over, as on a machine with a processor for each); and
    # valgrind runs about 30 times slower, and slower still on a loaded machine, so the
    # watches' 50 µs ran out. --spin-wait-us 1000000 lifts that time limit (the 64-look
    # limit stays): the counts are those of the way a call takes natively, within ~30
    # instructions from run to run even with three valgrind runs on two processors.
    (valgrind --tool=callgrind --fair-sched=yes --dump-before='*timedRegionStart*' --dump-before='*timedRegionEnd*' \
        --callgrind-out-file="$file" \
        "$stripped" --rows "$rows" --lookups "$lookups" --transactions "$transactions" --iterations 1 --warmup 0 \
        --spin-wait-us 1000000 \
        --only "$workloads" --contenders "$contender" > /dev/null 2> "$file.log" \
        || echo "$contender: failed, see $file.log" >&2) &
done
wait
for contender in "${profiled[@]}"; do
    file="$out/$contender.callgrind"
    # The parts that end where a region ends, in order (the optimizer may merge the two
    # markers' bodies into a third function, which adds a part of a few instructions each).
    regions=()
    number=1
    while [[ -f $file.$number ]]; do
        grep -q '^desc: Trigger: --dump-before=.*timedRegionEndyyF$' "$file.$number" && regions+=("$file.$number")
        number=$((number + 1))
    done
    region=0
    while read -r workload ops; do
        region=$((region + 1))
        part=${regions[$((region - 1))]:-}
        total=$([[ -n $part ]] && sed -n 's/^\(totals\|summary\): *\([0-9]*\).*/\2/p' "$part" | head -1 || true)
        if [[ -z $total ]]; then echo "$workload $contender: no region $region" >&2; continue; fi
        cp "$part" "$out/$workload.$contender.callgrind"
        per=$(awk -v t="$total" -v n="$ops" 'BEGIN { printf "%.0f", t / n }')
        counts["$workload/$contender"]=$per
        printf '%s\t%s\t%s\n' "$workload" "$contender" "$per" >> "$tsv"
    done < <(sed -n 's/^\([a-z0-9-]*\): \([0-9]*\) operations$/\1 \2/p' "$file.log")
done
for workload in ${workloads//,/ }; do
    raw=${counts["$workload/raw-c"]:-}
    for contender in ${contenders//,/ }; do
        per=${counts["$workload/$contender"]:-}
        [[ -z $per ]] && continue
        ratio=""
        [[ -n $raw && $contender != raw-c ]] && ratio=$(awk -v r="$raw" -v p="$per" 'BEGIN { printf "%.2f", r / p }')
        printf '%-22s %-18s %12s %12s\n' "$workload" "$contender" "$per" "$ratio"
    done
done
echo "callgrind files: $out; instructions: $tsv" >&2
