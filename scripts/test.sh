#!/usr/bin/env bash
# Runs the whole test suite under both backends (SystemSQLite, then SQLCipher), warnings as
# errors, the PostgreSQL tests (with the SystemSQLite run) against a throwaway server; then the concurrency tests under ThreadSanitizer, the documentation build and a
# benchmark smoke run. Every step runs even when an earlier one failed. The last line adds
# everything up: "N passed, M failed", counting each test a test run reports and each other
# step (a build, the docs, the smoke run) as one check. Exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh || exit 1

passed=0
failed=0
output=$(mktemp)
trap 'rm -f "$output"' EXIT

# took LABEL START: how long the step LABEL, begun at $SECONDS = START, took (CI has a time budget).
took() {
    echo "-- $1: $((SECONDS - $2)) s"
}

# check LABEL COMMAND...: one check, passed when the command succeeds.
check() {
    echo "== $1"
    local label=$1 start=$SECONDS
    shift
    if "$@"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAILED: $*"
    fi
    took "$label" "$start"
}

# tests LABEL COMMAND...: a `swift test` run; adds up the tests it reports (Swift Testing's
# "Test run with N tests" line and its "✘ Test … failed after" lines, XCTest's "Executed N tests,
# with F failures" line). A run that fails without reporting a failing test (a build error,
# a crash) counts as one failed check.
tests() {
    echo "== $1"
    local label=$1 start=$SECONDS
    shift
    "$@" 2>&1 | tee "$output"
    local status=${PIPESTATUS[0]}
    local total failures xctotal xcfailures
    total=$(grep -oE 'Test run with [0-9]+ test' "$output" | tail -1 | grep -oE '[0-9]+' || true)
    failures=$(grep -E '^✘ Test .* failed after' "$output" | grep -vc '^✘ Test run with' || true)
    xctotal=$(grep -oE 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$output" | tail -1 | grep -oE '[0-9]+' | head -1 || true)
    xcfailures=$(grep -oE 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$output" | tail -1 | grep -oE '[0-9]+' | tail -1 || true)
    total=$((${total:-0} + ${xctotal:-0}))
    failures=$((failures + ${xcfailures:-0}))
    if [ "$status" -ne 0 ] && [ "$failures" -eq 0 ]; then
        failures=1
        echo "FAILED: $* (exit status $status)"
    fi
    passed=$((passed + total - (failures > total ? total : failures)))
    failed=$((failed + failures))
    took "$label" "$start"
}

# The PostgreSQL tests run against the server PERSISTANCE_POSTGRES_URL names, or else a throwaway
# cluster started here and always stopped. They never skip: a server that does not start fails them.
if [ -z "${PERSISTANCE_POSTGRES_URL:-}" ]; then
    trap 'scripts/postgres-cluster.sh stop; rm -f "$output"' EXIT
    if PERSISTANCE_POSTGRES_URL=$(scripts/postgres-cluster.sh start); then
        export PERSISTANCE_POSTGRES_URL
    else
        failed=$((failed + 1))
        echo "FAILED: scripts/postgres-cluster.sh start"
    fi
fi

# Every command on the default build folder (.build) enables the same traits, so that none
# rebuilds the others' targets: SystemSQLite and PostgreSQL (the only run that builds
# SwiftNIO and postgres-nio; see Package.swift).
default_traits=SystemSQLite,PostgreSQL

check "Test code: no closure literal inside #expect/#require within another closure" \
    scripts/check-test-closures.sh

# The power-loss and I/O-error suites run alone after the rest: they open hundreds of
# databases synchronously (each encrypted open derives its key), which on a 2-core machine
# would hold the test runner's threads long enough to starve the timed executor tests.
sweeps='PowerLossTests|PowerLossOperationTests|IOErrorInjectionTests'
# The tests that talk to a PostgreSQL server, and the conformance suite (SQLite and PostgreSQL)
# run apart from the core suite too: the server's processes compete for the same two cores,
# which starved the timed observation tests when both ran at once.
server_tests='PersistancePostgresTests\.|PersistanceConformanceTests\.'

check "Build with the SystemSQLite and PostgreSQL traits" \
    swift build --traits "$default_traits" -Xswiftc -warnings-as-errors
check "Compile-fail diagnostics (scripts/diagnostics: each snippet fails with its expected message)" \
    scripts/check-diagnostics.sh
tests "Tests with the SystemSQLite trait" \
    swift test --traits "$default_traits" -Xswiftc -warnings-as-errors --skip "$sweeps|$server_tests"
tests "Power-loss and I/O-error suites with the SystemSQLite trait" \
    swift test --traits "$default_traits" -Xswiftc -warnings-as-errors --filter "$sweeps"
tests "PostgreSQL tests and the conformance suite (SQLite and PostgreSQL)" \
    swift test --traits "$default_traits" -Xswiftc -warnings-as-errors --filter "$server_tests"

# The README's server recipe: a Hummingbird service streaming an observation (its own package
# and build folder, Examples/NotesServer/.build).
tests "Server recipe example (Examples/NotesServer: events, disconnect, graceful shutdown)" \
    swift test --package-path Examples/NotesServer -Xswiftc -warnings-as-errors

check "Build with the SQLCipher trait" \
    swift build --traits SQLCipher --scratch-path .build-sqlcipher -Xswiftc -warnings-as-errors
tests "Tests with the SQLCipher trait" \
    swift test --traits SQLCipher --scratch-path .build-sqlcipher -Xswiftc -warnings-as-errors --skip "$sweeps|$server_tests"
tests "The conformance suite with the SQLCipher trait (encrypted files)" \
    swift test --traits SQLCipher --scratch-path .build-sqlcipher -Xswiftc -warnings-as-errors --filter "$server_tests"
tests "Power-loss and I/O-error suites with the SQLCipher trait (encrypted files)" \
    swift test --traits SQLCipher --scratch-path .build-sqlcipher -Xswiftc -warnings-as-errors --filter "$sweeps"

# The suppressions silence one known false report of the Swift runtime (see the file).
tests "Executor and stress tests under ThreadSanitizer" \
    env TSAN_OPTIONS="suppressions=$PWD/scripts/tsan-suppressions.txt" \
    swift test --sanitize=thread --scratch-path .build-tsan \
    --filter 'Database(Cancellation|Close|InMemory|Misuse|Read|Registry|Write)Tests|ConcurrencyStressTests|AsyncJobTests|FIFOTests'

# The documentation build reuses the default build folder and its traits (told explicitly:
# unless told, a plugin turns every trait on, and the DocumentationBuild trait then documents
# the SQLCipher variant; see Package.swift). It recompiles only the documented modules.
check "Documentation of every product (DocC, warnings as errors)" \
    swift package --traits "$default_traits" generate-documentation \
    --target Persistance --target PersistanceMacros --target PersistanceDAO --target PersistanceDAOCrypto \
    --target PersistanceServiceLifecycle --target PersistanceTracing --target PersistanceCLI \
    --target PersistancePostgres --warnings-as-errors

check "Benchmark smoke run (Benchmarks/: both traits, debug builds, 1,000 rows; no timing threshold)" \
    bash Benchmarks/smoke.sh

echo "-- everything: $SECONDS s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
