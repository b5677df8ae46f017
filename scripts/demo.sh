#!/usr/bin/env bash
# Runs the Persistance demo. `scripts/demo.sh --sqlcipher` runs it on an encrypted database.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [ "${1:-}" = "--sqlcipher" ]; then
    swift run -c release --traits SQLCipher --scratch-path .build-sqlcipher persistance-demo
else
    swift run -c release persistance-demo
fi
