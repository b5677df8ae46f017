#!/usr/bin/env bash
# CI smoke run of the benchmark: proves that both builds (SystemSQLite with GRDB, and
# SQLCipher without it) compile without warnings and that every workload runs and returns
# correct results (the benchmark checks every fetch and write, and exits non-zero on a
# wrong result). Debug builds, tiny sizes: no timing is judged here.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== Benchmark smoke run: SystemSQLite, raw C, GRDB, Persistance (debug build)"
echo "   A debug smoke run that checks results: its numbers are not benchmark results (see Benchmarks/results/)."
swift build --package-path Benchmarks -Xswiftc -warnings-as-errors
Benchmarks/.build/debug/persistance-bench --rows 1000 --iterations 1 --warmup 0 --lookups 200 \
    --transactions 50 --concurrent-seconds 0.2 --readers 1,2 --json Benchmarks/.build/smoke.json

echo "== Benchmark smoke run: SQLCipher, raw C, Persistance, encrypted (debug build, no GRDB)"
echo "   A debug smoke run that checks results: its numbers are not benchmark results (see Benchmarks/results/)."
swift build --package-path Benchmarks --traits SQLCipher --scratch-path Benchmarks/.build-sqlcipher \
    -Xswiftc -warnings-as-errors
# Two separate runs, pooled (--runs), which checks that every run measured the same workloads and contenders.
Benchmarks/.build-sqlcipher/debug/persistance-bench --rows 1000 --iterations 1 --warmup 0 --lookups 100 \
    --transactions 20 --only insert-encrypted,fetch-encrypted,fetch-cursor,txn --runs 2
