#!/usr/bin/env bash
# The published benchmark in one command: builds the release benchmark, counts
# instructions with callgrind (profile.sh), then runs the timed benchmark and prints one
# table with min/median/max times, ratios to raw C and instruction ratios side by side.
# Writes Benchmarks/results/NAME.txt (the table) and NAME.json.
#
#   Benchmarks/run.sh                                     # SystemSQLite: raw C, GRDB, Persistance
#   TRAIT=SQLCipher Benchmarks/run.sh                     # SQLCipher: raw C, Persistance, encrypted workloads
#   Benchmarks/run.sh --iterations 3 --rows 50000         # options go to persistance-bench (see --help)
#   NAME=systemsqlite-100k ROWS=20000 Benchmarks/run.sh   # ROWS/LOOKUPS/TRANSACTIONS: the callgrind run's sizes
#
# The timed run is 100,000 rows, RUNS (3) separate processes of ITERATIONS (3) measured
# rounds after 1 warm-up each, samples pooled; instructions are counted at ROWS (20,000)
# rows in one iteration, per operation.
set -euo pipefail
cd "$(dirname "$0")"
trait=${TRAIT:-SystemSQLite}
if [[ $trait == SQLCipher ]]; then
    build=(--traits SQLCipher --scratch-path .build-sqlcipher)
    bin=.build-sqlcipher/release/persistance-bench
    name=${NAME:-sqlcipher-100k}
else
    build=()
    bin=.build/release/persistance-bench
    name=${NAME:-systemsqlite-100k}
fi
swift build -c release "${build[@]}" -Xswiftc -warnings-as-errors
mkdir -p results
profile=$(mktemp -d)
# The SQLCipher build runs only the encrypted workloads unless asked otherwise.
only=()
[[ $trait == SQLCipher ]] && only=(insert-encrypted,fetch-encrypted)
BIN=$bin OUT=$profile TSV=$profile/instructions.tsv ./profile.sh "${only[@]}" >&2
"$bin" --runs "${RUNS:-3}" --iterations "${ITERATIONS:-3}" --instructions "$profile/instructions.tsv" \
    --json "results/$name.json" "$@" | tee "results/$name.txt"
echo "callgrind files: $profile" >&2
