#!/usr/bin/env bash
# The published PostgreSQL benchmark in one command: builds the release benchmark, starts a
# throwaway server (scripts/postgres-cluster.sh) unless PERSISTANCE_POSTGRES_URL names one,
# runs every workload for every contender, writes Benchmarks/results/postgres.txt, and stops
# the server it started.
#
#   Benchmarks/Postgres/run.sh                        # 12 measured rounds after 1 warm-up
#   ITERATIONS=6 Benchmarks/Postgres/run.sh           # fewer (an even number: see Runner.orders)
#   Benchmarks/Postgres/run.sh --only lookup          # options go to persistance-pg-bench (see --help);
#                                                     # a partial run is not written to results/
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release -Xswiftc -warnings-as-errors
url=${PERSISTANCE_POSTGRES_URL:-}
if [[ -z $url ]]; then
    # A cluster of its own, apart from the one the tests may be running.
    cluster=$(mktemp -d)
    chmod 755 "$cluster"
    export PERSISTANCE_POSTGRES_CLUSTER=$cluster/server
    trap '../../scripts/postgres-cluster.sh stop; rm -rf "$cluster"' EXIT
    url=$(../../scripts/postgres-cluster.sh start)
fi
output=/dev/null
[[ $# -eq 0 ]] && output=../results/postgres.txt
.build/release/persistance-pg-bench --url "$url" --iterations "${ITERATIONS:-12}" "$@" | tee "$output"
