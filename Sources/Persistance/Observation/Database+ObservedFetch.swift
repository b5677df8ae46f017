import Foundation

extension Database {
    /// How many times a reader tries to take a snapshot between two commits before the
    /// fetch falls back to the writer.
    static let settledSnapshotAttempts = 1_000

    /// Runs an observation's `fetch` once, read-only, recording in `region` the tables it
    /// read and the last commit its value reflects; returns its value.
    ///
    /// It runs on a reader, concurrently with the writes, in a snapshot that sees exactly
    /// the commits announced when it was taken (see `ChangeTracker.Settled`): never a commit
    /// that observers have not been told about. An in-memory database (one connection), or
    /// a reader that found no moment between commits, fetches on the writer instead, in
    /// order with the writes.
    func fetchObserved<Value: Sendable>(
        _ fetch: @escaping @Sendable (Connection) throws -> Value, into region: ObservedRegion
    ) async throws -> Value {
        let tracker = changeTracker
        region.willFetch()
        if readers != nil {
            let settledBefore = tracker.settled
            let call = BlockCall<Value?> { connection in
                guard let sequence = try connection.settleSnapshot(with: tracker, settledBefore: settledBefore) else {
                    return nil
                }
                return try Self.fetch(fetch, on: connection, recordingReadsWith: ChangeRecorder.readRecorder(of: connection), into: region, sequence: sequence)
            }
            try await perform(.read) { connection in try call.run(on: connection) }
            if let value = call.take()! { return value }
        }
        let call = BlockCall { connection in
            try Self.fetch(fetch, on: connection, recordingReadsWith: connection.changeRecorder, into: region, sequence: tracker.currentSequence)
        }
        try await perform(.read, onWriter: true) { connection in try call.run(on: connection) }
        return call.take()!
    }

    /// Runs `fetch` on `connection`, whose snapshot sees the commits up to `sequence`,
    /// recording the tables it reads in `region`.
    private static func fetch<Value>(
        _ fetch: (Connection) throws -> Value, on connection: Connection, recordingReadsWith recorder: ChangeRecorder?,
        into region: ObservedRegion, sequence: UInt64
    ) throws -> Value {
        try recorder?.beginRecordingReads(on: connection)
        let result = Result { try fetch(connection) }
        region.didFetch(tables: recorder?.endRecordingReads(on: connection), sequence: sequence)
        return try result.get()
    }
}

extension Connection {
    /// Makes sure the open read transaction's snapshot sees exactly the commits `tracker`
    /// had announced at a moment when none was under way, and returns the last one's
    /// sequence number; nil when no such moment was found (commits kept landing).
    ///
    /// The snapshot taken as the read began qualifies if no commit happened since
    /// `settledBefore` (looked at before the read was queued). Otherwise the transaction
    /// restarts, its new snapshot taken between two looks at the tracker.
    func settleSnapshot(with tracker: ChangeTracker, settledBefore: ChangeTracker.Settled?) throws -> UInt64? {
        if let settledBefore, tracker.isStill(settledBefore) { return settledBefore.sequence }
        for _ in 0..<Database.settledSnapshotAttempts {
            guard let settled = tracker.settled else {
                sched_yield()
                continue
            }
            try execute("COMMIT")
            try execute("BEGIN DEFERRED")
            try takeSnapshot()
            if tracker.isStill(settled) { return settled.sequence }
        }
        return nil
    }
}
