import Foundation

/// A database's change announcements: it installs a `ChangeRecorder` on the writer
/// connection while anyone is subscribed (and removes it when nobody is, so unobserved
/// databases pay nothing), announces each committed transaction to every subscriber after
/// the write block that committed it, in commit order, and notices commits of other
/// connections and processes through `PRAGMA data_version`.
///
/// Subscribers are called on the writer's thread, one commit at a time: they must only
/// hand the changes on (to a stream's continuation, or to the `ObservationScheduler`, the
/// one subscriber that every value observation shares), never block.
///
/// It also tells readers which commits a snapshot sees (see `Settled`): an epoch counter
/// turns odd as the writer's transaction commits (SQLite's commit hook, before the commit
/// is visible) and even once that commit is announced, so a snapshot taken between two
/// looks at the same even epoch sees exactly the commits announced up to then.
final class ChangeTracker: Sendable {
    /// What a subscriber is told.
    struct Subscriber: Sendable {
        /// A transaction committed.
        let receive: @Sendable (CommittedChanges) -> Void
        /// No more changes will come: the database is gone.
        let finish: @Sendable () -> Void
    }

    private struct State: Sendable {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        /// The sequence number of the last announced commit.
        var sequence: UInt64 = 0
        var isPolling = false
        /// Whether the database closed: every subscription ended, and later ones end at once.
        var isFinished = false
        /// Odd from the moment the writer commits until that commit is announced.
        var epoch: UInt64 = 0
    }

    /// A moment when every commit the writer made was announced: `sequence` is the last one.
    struct Settled: Sendable {
        let epoch: UInt64
        let sequence: UInt64
    }

    /// How often other connections' commits are looked for while anyone is subscribed
    /// (they are also looked for after each write).
    static let externalChangePollInterval = Duration.milliseconds(500)

    private let state = Guarded(State())
    private let writer: ConnectionPool
    private let pollsExternalChanges: Bool
    /// The observations that share their fetches, by key.
    let sharedObservations = SharedObservations()
    /// Fetches the value observations after the commits that concern them.
    let observationScheduler = ObservationScheduler()

    /// A tracker for the database whose writer pool is `writer`. An in-memory database,
    /// which no other connection can reach, does not look for external commits.
    init(writer: ConnectionPool, pollsExternalChanges: Bool) {
        self.writer = writer
        self.pollsExternalChanges = pollsExternalChanges
    }

    deinit {
        for subscriber in state.withLock({ Array($0.subscribers.values) }) {
            subscriber.finish()
        }
    }

    /// The number of subscribers (for tests and diagnostics).
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// The sequence number of the last announced commit. Read on the writer's thread, it
    /// counts exactly the commits the writer connection can see.
    var currentSequence: UInt64 { state.withLock { $0.sequence } }

    /// Now, if every commit the writer made is announced; nil while one is being announced.
    var settled: Settled? {
        state.withLock { $0.epoch % 2 == 0 ? Settled(epoch: $0.epoch, sequence: $0.sequence) : nil }
    }

    /// Whether no commit happened since `moment`: a snapshot taken since then sees exactly
    /// the commits up to `moment.sequence`.
    func isStill(_ moment: Settled) -> Bool {
        state.withLock { $0.epoch == moment.epoch }
    }

    /// Called by the writer's recorder as a transaction commits, before readers can see it.
    private func commitWillHappen() {
        state.withLock { if $0.epoch % 2 == 0 { $0.epoch += 1 } }
    }

    /// Called once the commits of a write block are announced.
    private func commitsDidSettle() {
        state.withLock { if $0.epoch % 2 == 1 { $0.epoch += 1 } }
    }

    /// Subscribes `subscriber` to every commit announced after the writer runs the work
    /// queued from now on (the subscription's `isRecording` is set then).
    func subscribe(_ subscriber: Subscriber) -> ChangeSubscription {
        let subscribed = state.withLock { state -> (id: UInt64, startsPolling: Bool)? in
            guard !state.isFinished else { return nil }
            state.nextID += 1
            state.subscribers[state.nextID] = subscriber
            let startsPolling = pollsExternalChanges && !state.isPolling
            if startsPolling { state.isPolling = true }
            return (state.nextID, startsPolling)
        }
        guard let (id, startsPolling) = subscribed else {
            subscriber.finish()
            let subscription = ChangeSubscription {}
            subscription.isRecording.fulfill(())
            return subscription
        }
        let subscription = ChangeSubscription { [weak self] in self?.unsubscribe(id) }
        updateHooksOnWriter(then: subscription.isRecording)
        if startsPolling { pollExternalChanges() }
        return subscription
    }

    private func unsubscribe(_ id: UInt64) {
        let isLast = state.withLock { state -> Bool in
            state.subscribers[id] = nil
            return state.subscribers.isEmpty
        }
        if isLast { updateHooksOnWriter() }
    }

    /// Queues work on the writer that installs or removes the recorder as subscriptions
    /// then require. Queued in order with writes, so a write submitted after `subscribe`
    /// returns is recorded. `done`, if any, is set once the work ran or failed.
    private func updateHooksOnWriter(then done: OneShot<Void>? = nil) {
        writer.submit(ClosureJob(
            run: { connection in
                defer { done?.fulfill(()) }
                let isWanted = self.subscriberCount > 0
                if isWanted, connection.changeRecorder == nil {
                    try? ChangeRecorder(onCommit: { [weak self] in self?.commitWillHappen() }).install(on: connection)
                } else if !isWanted, connection.changeRecorder != nil {
                    try? ChangeRecorder.uninstall(from: connection)
                }
            },
            fail: { _ in done?.fulfill(()) }))
    }

    /// Announces what the write block that just ended on `connection` committed, after any
    /// commit another connection made before it. Called by the executor on the writer's
    /// thread after every write block; does nothing unless a recorder is installed.
    ///
    /// Other connections' commits are looked for after a write block at most once per
    /// `externalCheckIntervalAfterWrites` (a `PRAGMA data_version` costs about as much as a
    /// one-row insert's own bookkeeping), besides the timer's checks.
    func writeDidEnd(on connection: Connection) {
        guard let recorder = connection.changeRecorder else { return }
        let batches = recorder.takeCommitted()
        let now = DispatchTime.now().uptimeNanoseconds
        if now >= recorder.nextExternalCheckAfterWrite {
            recorder.nextExternalCheckAfterWrite = now + Self.externalCheckIntervalAfterWrites
            announce(externalCommit(on: connection, recorder: recorder) + batches)
        } else {
            announce(batches)
        }
        commitsDidSettle()
    }

    /// The shortest time between two looks for other connections' commits after writes, in
    /// nanoseconds: a millisecond.
    static let externalCheckIntervalAfterWrites: UInt64 = 1_000_000

    /// A commit of another connection or process, if one happened since the last check.
    private func externalCommit(on connection: Connection, recorder: ChangeRecorder) -> [CommittedChanges] {
        guard pollsExternalChanges, (try? recorder.externalCommitHappened(on: connection)) == true else { return [] }
        return [CommittedChanges(isExternal: true)]
    }

    /// Numbers `batches` (oldest first) and hands each to every subscriber, in order.
    private func announce(_ batches: [CommittedChanges]) {
        guard !batches.isEmpty else { return }
        var batches = batches
        let subscribers = state.withLock { state -> [Subscriber] in
            for index in batches.indices {
                state.sequence += 1
                batches[index].sequence = state.sequence
            }
            return Array(state.subscribers.values)
        }
        for batch in batches {
            for subscriber in subscribers {
                subscriber.receive(batch)
            }
        }
    }

    /// Checks `PRAGMA data_version` on the writer every `externalChangePollInterval` while
    /// anyone is subscribed.
    private func pollExternalChanges() {
        Task.detached { [weak self] in
            while true {
                try? await Task.sleep(for: Self.externalChangePollInterval)
                guard let self, self.keepsPolling() else { return }
                self.writer.submit(ClosureJob(
                    run: { [weak self] connection in
                        guard let self, let recorder = connection.changeRecorder else { return }
                        self.announce(self.externalCommit(on: connection, recorder: recorder))
                    },
                    fail: { [weak self] _ in self?.finishAll() }))
            }
        }
    }

    private func keepsPolling() -> Bool {
        state.withLock { state in
            state.isPolling = !state.subscribers.isEmpty
            return state.isPolling
        }
    }

    /// Ends every subscription, and any made later: the database no longer accepts work.
    func finishAll() {
        observationScheduler.finish()
        let subscribers = state.withLock { state -> [Subscriber] in
            state.isFinished = true
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers {
            subscriber.finish()
        }
    }
}
