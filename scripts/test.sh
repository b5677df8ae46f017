#!/usr/bin/env bash
# Runs the whole test suite under both backends (SystemSQLite, then SQLCipher), warnings as errors.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

echo "== Tests with the SystemSQLite trait (default)"
swift build -Xswiftc -warnings-as-errors
swift test -Xswiftc -warnings-as-errors

echo "== Tests with the SQLCipher trait"
swift build --traits SQLCipher --scratch-path .build-sqlcipher -Xswiftc -warnings-as-errors
swift test --traits SQLCipher --scratch-path .build-sqlcipher -Xswiftc -warnings-as-errors
