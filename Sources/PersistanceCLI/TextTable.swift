/// Rows of text as columns aligned by their widths on screen, under a header and a rule.
struct TextTable {
    let header: [String]
    let rows: [[String]]

    /// The table as lines, each indented by `indent` spaces; numbers are right-aligned.
    func render(indent: Int = 0) -> String {
        let widths = header.indices.map { column in
            ([header[column]] + rows.map { $0[column] }).map(Self.width).max() ?? 0
        }
        let numeric = header.indices.map { column in
            !rows.isEmpty && rows.allSatisfy { Double($0[column]) != nil }
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.indices.map { column -> String in
                let padding = String(repeating: " ", count: widths[column] - Self.width(cells[column]))
                return numeric[column] ? padding + cells[column] : cells[column] + padding
            }
            return String(repeating: " ", count: indent) + padded.joined(separator: "  ")
        }
        let rule = String(repeating: " ", count: indent) + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).map { $0.trailingSpacesRemoved }.joined(separator: "\n")
    }

    /// Columns a text takes on a terminal: wide (East Asian) characters take two.
    static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { total, scalar in
            let value = scalar.value
            if scalar.properties.generalCategory == .nonspacingMark { return total }
            let wide = (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
                || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
                || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
                || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1FAFF).contains(value)
                || (0x20000...0x3FFFD).contains(value)
            return total + (wide ? 2 : 1)
        }
    }
}

private extension String {
    var trailingSpacesRemoved: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
