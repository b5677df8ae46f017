import Foundation
import Logging

@testable import Persistance

/// A log handler that keeps every entry, for tests that check what the library logs.
struct CapturingLogHandler: LogHandler {
    /// One logged entry, its metadata rendered as text.
    struct Entry: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]

        /// The message and every metadata key and value, for searching.
        var text: String { ([message] + metadata.map { "\($0.key)=\($0.value)" }).joined(separator: " ") }
    }

    /// The entries logged through every handler sharing it.
    final class Store: Sendable {
        private let guarded = Guarded([Entry]())
        var entries: [Entry] { guarded.withLock { $0 } }
        func append(_ entry: Entry) { guarded.withLock { $0.append(entry) } }
        func entries(at level: Logger.Level) -> [Entry] { entries.filter { $0.level == level } }
    }

    let store: Store
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        store.append(Entry(
            level: event.level, message: "\(event.message)",
            metadata: merged.mapValues { "\($0)" }))
    }

    /// A logger at `level` that keeps its entries in `store`.
    static func logger(_ store: Store, level: Logger.Level) -> Logger {
        var logger = Logger(label: "test", factory: { _ in CapturingLogHandler(store: store, logLevel: level) })
        logger.logLevel = level
        return logger
    }
}
