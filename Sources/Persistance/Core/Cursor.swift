/// A lazy, forward-only walk over a statement's result rows, decoding one element per row.
///
/// A cursor streams: it holds one row at a time, so iterating a million rows uses
/// constant memory. It keeps its statement busy until it is exhausted or released, and
/// it must be used on its connection's thread, before the connection closes. A cursor
/// opened inside a transaction (a `Database` block's included) is valid until that
/// transaction ends: used later, it throws a misuse error.
/// ```swift
/// let cursor = try conn.fetchCursor("SELECT * FROM player")
/// while let row = try cursor.next() { … }
/// ```
///
/// `next()` is inlinable, so a loop over a cursor is specialized for its element type in
/// the caller's module. The cursor is used on one thread, so its state opts out of
/// run-time exclusivity checks.
public final class Cursor<Element> {
    @usableFromInline let statement: Statement
    @usableFromInline let decode: (Statement) throws -> Element
    /// The connection's transaction serial when the cursor opened inside a transaction; nil outside one.
    @usableFromInline let transaction: UInt64?
    @exclusivity(unchecked) @usableFromInline var isDone = false

    /// A cursor over `statement`, already bound, turning each row into an element with `decode`.
    public init(statement: Statement, decode: @escaping (Statement) throws -> Element) {
        self.statement = statement
        self.decode = decode
        let connection = statement.connection
        transaction = connection.isInTransaction ? connection.transactionSerial : nil
        statement.isCursorOpen = true
    }

    deinit {
        finish()
    }

    /// The next element, or nil when the rows are exhausted. A failure ends the cursor.
    /// - Throws: the statement's or the decoding's error; a misuse error when the
    ///   transaction the cursor was opened in has ended.
    @inlinable
    public func next() throws -> Element? {
        guard !isDone else { return nil }
        do {
            guard try statement.step(inTransaction: transaction) else {
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
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() {
            try body(element)
        }
    }

    /// All remaining elements, in order.
    @inlinable
    public func collect() throws -> [Element] {
        var elements = [Element]()
        while let element = try next() {
            elements.append(element)
        }
        return elements
    }

    /// Ends the cursor: resets its statement and hands it back to the statement cache.
    @usableFromInline
    func finish() {
        guard !isDone else { return }
        isDone = true
        statement.reset()
        statement.isCursorOpen = false
    }
}

@available(*, unavailable, message: "A cursor belongs to its connection's thread of use")
extension Cursor: Sendable {}
