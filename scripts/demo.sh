#!/usr/bin/env bash
# Runs the Persistance demo.
#   scripts/demo.sh              the demo on SQLite
#   scripts/demo.sh --sqlcipher  the demo on an encrypted database
#   scripts/demo.sh --postgres   scale-out: two app instances sharing a PostgreSQL server (a
#                                throwaway one, or the one PERSISTANCE_POSTGRES_URL names); each
#                                writes and sees the other's writes through observation
# A debug build: it shares its build folders with scripts/test.sh, so after the tests it starts at once.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The traits of scripts/test.sh's .build, so that nothing is rebuilt.
traits=SystemSQLite,PostgreSQL
case "${1:-}" in
--sqlcipher)
    swift run --traits SQLCipher --scratch-path .build-sqlcipher persistance-demo
    ;;
--postgres)
    if [ -z "${PERSISTANCE_POSTGRES_URL:-}" ]; then
        trap 'scripts/postgres-cluster.sh stop' EXIT
        PERSISTANCE_POSTGRES_URL=$(scripts/postgres-cluster.sh start)
        export PERSISTANCE_POSTGRES_URL
    fi
    swift build --traits "$traits" --product persistance-postgres-demo
    demo="$(swift build --traits "$traits" --show-bin-path)/persistance-postgres-demo"
    "$demo" alpha beta 5 &
    alpha=$!
    "$demo" beta alpha 5 &
    beta=$!
    status=0
    wait "$alpha" || status=1
    wait "$beta" || status=1
    if [ "$status" -eq 0 ]; then echo "Both instances saw each other's writes."; fi
    exit "$status"
    ;;
*)
    swift run --traits "$traits" persistance-demo
    ;;
esac
