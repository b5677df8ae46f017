/// A lazy, forward-only walk over a statement's result rows, decoding one element per row.
///
/// A cursor streams: it holds one row at a time, so iterating a million rows uses
/// constant memory. It keeps its statement busy until it is exhausted or released, and
/// it must be used on its connection's thread, before the connection closes.
/// ```swift
/// let cursor = try conn.fetchCursor("SELECT * FROM player")
/// while let row = try cursor.next() { … }
/// ```
public final class Cursor<Element> {
    private let statement: Statement
    private let decode: (Statement) throws -> Element
    private var isDone = false

    /// A cursor over `statement`, already bound, turning each row into an element with `decode`.
    public init(statement: Statement, decode: @escaping (Statement) throws -> Element) {
        self.statement = statement
        self.decode = decode
        statement.isCursorOpen = true
    }

    deinit {
        finish()
    }

    /// The next element, or nil when the rows are exhausted. A failure ends the cursor.
    public func next() throws -> Element? {
        guard !isDone else { return nil }
        do {
            guard try statement.step() else {
                finish()
                return nil
            }
            return try decode(statement)
        } catch {
            finish()
            throw error
        }
    }

    /// Calls `body` with each remaining element.
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() {
            try body(element)
        }
    }

    /// All remaining elements, in order.
    public func collect() throws -> [Element] {
        var elements = [Element]()
        while let element = try next() {
            elements.append(element)
        }
        return elements
    }

    private func finish() {
        guard !isDone else { return }
        isDone = true
        statement.reset()
        statement.isCursorOpen = false
    }
}

@available(*, unavailable, message: "A cursor belongs to its connection's thread of use")
extension Cursor: Sendable {}
