#!/usr/bin/env bash
# Fails when a test writes a closure literal inside the parentheses of `#expect(...)` or
# `#require(...)` while that macro sits inside another closure: Swift 6.3.1 miscompiles it
# (a later closure literal in the enclosing closure runs the macro closure's body). Hoist
# the closure's result into a `let` first, then `#expect` on it.
#
# A line-based approximation: string literals are blanked, each `{` is a closure unless it
# is the first brace of a line that starts with a declaration or control-flow keyword.
set -euo pipefail
cd "$(dirname "$0")/.."

found=$(find Tests Examples/*/Tests -name '*.swift' -print0 | sort -z | xargs -0 awk '
FNR == 1 { depth = 0; closures = 0; inMultiline = 0 }
{
    line = $0
    if (inMultiline) {
        if (line ~ /"""/) { inMultiline = 0 }
        next
    }
    if (line ~ /"""/) {
        count = gsub(/"""/, "&", line)
        if (count % 2 == 1) { inMultiline = 1 }
        sub(/""".*/, "", line)
    }
    gsub(/\\"/, "", line)
    gsub(/#"[^"]*"#/, "\"\"", line)
    gsub(/"[^"]*"/, "\"\"", line)
    sub(/\/\/.*/, "", line)

    if (closures > 0 && match(line, /#(expect|require)\(/)) {
        rest = substr(line, RSTART + RLENGTH); parens = 1
        for (i = 1; i <= length(rest) && parens > 0; i++) {
            c = substr(rest, i, 1)
            if (c == "(") parens++
            else if (c == ")") parens--
            else if (c == "{") { print FILENAME ":" FNR ": " $0; break }
        }
    }

    stripped = line; sub(/^[[:space:]}]*/, "", stripped)
    keyword = stripped ~ /^(@[A-Za-z]+(\(.*\))?[[:space:]]+)*((private|fileprivate|public|internal|static|mutating|nonisolated|override|final|async|throws)[[:space:]]+)*(func|init|deinit|if|else|for|while|do|catch|switch|guard|struct|enum|class|extension|actor|protocol|defer|repeat|case|default|get|set|willSet|didSet|var[^=]*$|let[^=]*$)([^A-Za-z0-9_]|$)/
    first = 1
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (c == "{") {
            depth++
            isClosure[depth] = !(first && keyword)
            if (isClosure[depth]) closures++
            first = 0
        } else if (c == "}" && depth > 0) {
            if (isClosure[depth]) closures--
            depth--
        }
    }
}')

if [[ -n "$found" ]]; then
    echo "error: a closure literal inside #expect(...)/#require(...) within another closure" >&2
    echo "(miscompiled by Swift 6.3.1; hoist the closure's result into a let first):" >&2
    echo "$found" >&2
    exit 1
fi
