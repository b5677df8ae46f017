/// Marks the matches in a column's text from FTS4's `offsets()`, which has no
/// `highlight()`: a list of integers, four per match — column, term, byte offset, byte size.
enum FullTextHighlighter {
    /// `text` with every match in `column` wrapped in `open` and `close`.
    static func highlight(_ text: String, offsets: String, column: Int, open: String, close: String) -> String {
        let numbers = offsets.split(separator: " ").compactMap { Int($0) }
        var ranges = [Range<Int>]()
        var index = 0
        while index + 3 < numbers.count {
            if numbers[index] == column, numbers[index + 3] > 0 {
                ranges.append(numbers[index + 2]..<numbers[index + 2] + numbers[index + 3])
            }
            index += 4
        }
        let bytes = Array(text.utf8)
        var result = [UInt8]()
        var position = 0
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let start = max(range.lowerBound, position), end = min(range.upperBound, bytes.count)
            guard start < end else { continue }
            result += bytes[position..<start]
            result += Array(open.utf8) + bytes[start..<end] + Array(close.utf8)
            position = end
        }
        result += bytes[min(position, bytes.count)...]
        return String(decoding: result, as: UTF8.self)
    }
}
