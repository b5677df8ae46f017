#!/usr/bin/env bash
# Runs the whole test suite under both backends (SystemSQLite, then SQLCipher), warnings as
# errors; then the concurrency tests under ThreadSanitizer and a benchmark smoke run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/check-test-closures.sh

echo "== Tests with the SystemSQLite trait (default)"
swift build -Xswiftc -warnings-as-errors
swift test -Xswiftc -warnings-as-errors

echo "== Tests with the SQLCipher trait"
swift build --traits SQLCipher --scratch-path .build-sqlcipher -Xswiftc -warnings-as-errors
swift test --traits SQLCipher --scratch-path .build-sqlcipher -Xswiftc -warnings-as-errors

echo "== Executor and stress tests under ThreadSanitizer"
swift test --sanitize=thread --scratch-path .build-tsan \
    --filter 'Database(Cancellation|Close|InMemory|Misuse|Read|Registry|Write)Tests|ConcurrencyStressTests'

echo "== Benchmark smoke run (Benchmarks/: both traits, debug builds, 1,000 rows; no timing threshold)"
bash Benchmarks/smoke.sh
