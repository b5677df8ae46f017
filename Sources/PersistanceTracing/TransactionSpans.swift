import Persistance
import Tracing

/// The spans of one read or write block: the transaction's, started when the block starts,
/// and under it one per statement, ended at the time SQLite reports the statement ended.
///
/// Made on the task that submits the block and then used only by the thread that runs it,
/// one call at a time (see `DatabaseTransactionTracer`), hence unchecked.
final class TransactionSpans: DatabaseTransactionTracer, @unchecked Sendable {
    private let tracer: any Tracer
    private let parent: ServiceContext
    private let kind: DatabaseTransactionKind
    private let database: String
    private var transaction: (any Span)?
    /// The running statements' spans and start times, by the statement's identifier.
    private var statements: [Int: (span: any Span, start: DefaultTracerClock.Instant)] = [:]

    init(tracer: any Tracer, parent: ServiceContext, kind: DatabaseTransactionKind, database: String) {
        self.tracer = tracer
        self.parent = parent
        self.kind = kind
        self.database = database
    }

    func transactionDidStart() {
        let span = tracer.startSpan("\(kind.rawValue) transaction", context: parent, ofKind: .internal)
        var attributes = commonAttributes
        attributes["persistance.transaction"] = kind.rawValue
        span.attributes = attributes
        transaction = span
    }

    func statementDidStart(_ statement: Int, sql: String) {
        guard let transaction else { return }
        let summary = StatementSummary(sql: sql)
        let start = DefaultTracerClock.now
        let span = tracer.startSpan(summary.spanName, context: transaction.context, ofKind: .client, at: start)
        var attributes = commonAttributes
        attributes["db.operation.name"] = summary.operation
        attributes["db.query.text"] = summary.queryText
        if let collection = summary.collection {
            attributes["db.collection.name"] = collection
        }
        span.attributes = attributes
        statements[statement] = (span, start)
    }

    func statementDidEnd(_ statement: Int, duration: Duration, error: (any Error)?) {
        guard let running = statements.removeValue(forKey: statement) else { return }
        if let error { Self.record(error, on: running.span) }
        let (seconds, attoseconds) = duration.components
        let nanoseconds = UInt64(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        running.span.end(
            at: DefaultTracerClock.Instant(nanosecondsSinceEpoch: running.start.nanosecondsSinceEpoch + nanoseconds))
    }

    func transactionDidEnd(error: (any Error)?) {
        for (span, _) in statements.values { span.end() }  // statements a cursor left running
        statements = [:]
        guard let transaction else { return }
        if let error { Self.record(error, on: transaction) }
        transaction.end()
        self.transaction = nil
    }

    /// The attributes of every span: the database system and the database's name.
    private var commonAttributes: SpanAttributes {
        var attributes = SpanAttributes()
        attributes["db.system"] = "sqlite"
        attributes["db.system.name"] = "sqlite"
        attributes["db.namespace"] = database
        return attributes
    }

    /// Records `error` on `span`, marks it failed, and sets `error.type` (and, for SQLite's
    /// errors, `db.response.status_code`, its extended result code).
    private static func record(_ error: any Error, on span: any Span) {
        span.recordError(error)
        span.setStatus(SpanStatus(code: .error))
        switch error {
        case let error as DatabaseError:
            span.attributes["error.type"] = error.kind.rawValue
            if let code = error.extendedResultCode {
                span.attributes["db.response.status_code"] = "\(code.rawValue)"
            }
        case is CancellationError:
            span.attributes["error.type"] = "cancelled"
        default:
            span.attributes["error.type"] = "\(type(of: error))"
        }
    }
}
