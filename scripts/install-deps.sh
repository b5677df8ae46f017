#!/usr/bin/env bash
# Installs the system packages Persistance builds against (and strace, which the tests use to
# check that files are synced before they are renamed into place, and the PostgreSQL server the
# PostgreSQL tests start: scripts/postgres-cluster.sh), when they are missing.
# Idempotent; uses sudo only when not root. On systems without apt it checks and explains.
set -euo pipefail

packages=(libsqlite3-dev libsqlcipher-dev pkg-config sqlite3 sqlcipher strace postgresql)

if command -v dpkg-query >/dev/null 2>&1; then
    missing=()
    for package in "${packages[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    if ((${#missing[@]})); then
        echo "Installing ${missing[*]}"
        sudo=""
        if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
    fi
elif command -v brew >/dev/null 2>&1; then
    brew list sqlite >/dev/null 2>&1 || brew install sqlite
    brew list sqlcipher >/dev/null 2>&1 || brew install sqlcipher
    brew list pkg-config >/dev/null 2>&1 || brew install pkg-config
else
    for module in sqlite3 sqlcipher; do
        pkg-config --exists "$module" || { echo "error: install $module development files and pkg-config" >&2; exit 1; }
    done
fi
