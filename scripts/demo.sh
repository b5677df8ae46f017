#!/usr/bin/env bash
# Runs the Persistance demo. `scripts/demo.sh --sqlcipher` runs it on an encrypted database.
# A debug build: it shares its build folders with scripts/test.sh, so after the tests it starts at once.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [ "${1:-}" = "--sqlcipher" ]; then
    swift run --traits SQLCipher --scratch-path .build-sqlcipher persistance-demo
else
    # The traits of scripts/test.sh's .build, so that nothing is rebuilt (the demo uses no PostgreSQL).
    swift run --traits SystemSQLite,PostgreSQL persistance-demo
fi
