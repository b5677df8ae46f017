#!/usr/bin/env bash
# Compiles each snippet of scripts/diagnostics/ against the default build's modules
# (.build/debug/Modules, so run it after `swift build`; snippets using `@Table` expand it with
# the built macro plugin) and checks that it fails to compile
# with the message its first line names:
#     // expected error: a typed column compares only with a value of its own Swift type
# A snippet that compiles, or fails with another message, fails the check.
set -uo pipefail
cd "$(dirname "$0")/.."
modules=.build/debug/Modules
plugin=.build/debug/PersistanceMacroPlugin-tool
if [ ! -f "$modules/Persistance.swiftmodule" ] || [ ! -x "$plugin" ]; then
    echo "no $modules/Persistance.swiftmodule or $plugin: run swift build first"
    exit 1
fi
status=0
for snippet in scripts/diagnostics/*.swift; do
    expected=$(head -1 "$snippet" | sed -n 's|^// expected error: ||p')
    if [ -z "$expected" ]; then
        echo "FAIL $snippet: its first line must be '// expected error: <message>'"
        status=1
        continue
    fi
    if output=$(swiftc -typecheck -I "$modules" -I Sources/CSQLite \
        -load-plugin-executable "$plugin#PersistanceMacroPlugin" "$snippet" 2>&1); then
        echo "FAIL $snippet: compiled, expected the error \"$expected\""
        status=1
    elif ! grep "error:" <<<"$output" | grep -qF "$expected"; then
        echo "FAIL $snippet: expected the error \"$expected\", got:"
        grep "error:" <<<"$output" | head -5
        status=1
    else
        echo "ok   $snippet"
    fi
done
exit $status
