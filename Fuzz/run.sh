#!/usr/bin/env bash
# Builds one libFuzzer target of this package and fuzzes it, or replays its regression inputs.
# Not part of CI.
#
#   Fuzz/run.sh <ValueFuzzer|RecordFuzzer|QueryFuzzer> [seconds (default 600)] [libFuzzer options…]
#   Fuzz/run.sh <ValueFuzzer|RecordFuzzer|QueryFuzzer> replay
#
# New corpus entries go to Fuzz/.build/corpus/<target> (seeded from Fuzz/Corpus/<target>);
# crashing inputs to Fuzz/.build/artifacts/. Keep each crash that reveals a defect in
# Fuzz/Regressions/<target>/ and as a test in Tests/PersistanceTests/Reliability/FuzzFindingTests.swift.
set -euo pipefail
cd "$(dirname "$0")"
target=${1:?usage: Fuzz/run.sh <ValueFuzzer|RecordFuzzer|QueryFuzzer> [seconds|replay] [libFuzzer options…]}
mode=${2:-600}
shift $(( $# < 2 ? $# : 2 ))

# --sanitize fuzzer makes SwiftPM build the targets as libraries (libFuzzer supplies main);
# the compiler flag instruments every module for coverage and AddressSanitizer.
swift build --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address --product "$target" 2>&1 \
    | grep -v "Cannot export local symbol" || true
binary=".build/debug/$target"
test -x "$binary"
# Swift's own crash backtracer trips AddressSanitizer; libFuzzer prints the stack instead.
export SWIFT_BACKTRACE=enable=no

if [ "$mode" = replay ]; then
    shopt -s nullglob
    inputs=("Regressions/$target"/*)
    if [ ${#inputs[@]} -eq 0 ]; then echo "no regression inputs for $target"; exit 0; fi
    exec "$binary" "$@" "${inputs[@]}"
fi
mkdir -p ".build/corpus/$target" .build/artifacts
exec "$binary" -max_total_time="$mode" -artifact_prefix=".build/artifacts/$target-" "$@" \
    ".build/corpus/$target" "Corpus/$target"
