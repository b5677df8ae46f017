import Foundation

/// Fetches a database's value observations after the commits that concern them, off the
/// writer, in rounds.
///
/// The writer tells it each commit (it is one subscriber of the `ChangeTracker`, however many
/// observations run): it keeps the commit and, when no round is under way, queues one on a
/// reader. That is all a commit costs the writer: no matching against each observation, no
/// wake-up per observation.
///
/// A round, on a reader thread, notes the commits kept since the last round against what each
/// observation last read, then fetches every observation that has to fetch (new ones, and
/// those a commit touched) one after another in one read transaction, whose snapshot sees
/// exactly the commits announced so far (`Connection.settleSnapshot`), and hands each value
/// on. Commits that land meanwhile are only kept: the next round, queued as this one ends,
/// notes them all at once, so a burst of commits costs each observation one fetch per round,
/// whatever its length. When no snapshot between two commits can be found, the round runs on
/// the writer, in order with the writes (as every round does on an in-memory database).
///
/// Rounds are paced while commits keep coming: a round starts at once after a quiet moment,
/// but no sooner than `roundInterval` after the previous one started, nor before the reader
/// rested `restFactor` times as long as the previous round computed. A stream of commits then
/// costs at most one round per 8 ms, and the observations at most a ninth of one processor,
/// however fast the writes come, rather than a round (and a wake-up of every consumer) per
/// commit. A round's cost is its thread's processor time, not the time it took: a round held
/// up waiting (for the disk, a lock, a fetch that blocks) holds up the next one no more than a
/// quick round does, where resting eight times its duration would leave the observations
/// seconds behind the commits after one slow moment. The
/// interval also bounds the wake-ups of consumers, which run beside the writers' tasks: with
/// 1 ms and twice the round, 300 quick writes beside 50 observers took 1.5× their time alone.
final class ObservationScheduler: Sendable {
    /// The shortest time between the starts of two rounds.
    static let roundInterval = Duration.milliseconds(8)
    /// How many times the processor time the last round used the reader rests before the next.
    static let restFactor: UInt64 = 8

    private struct Entry: Sendable {
        let observation: any ScheduledObservation
        var region = ObservedRegion()
    }

    private struct State: Sendable {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// The database observed; set while any observation runs.
        var database: Database?
        /// The commits announced since the last round noted them, oldest first.
        var pending: [CommittedChanges] = []
        /// The tables some observation read (nil: any, or unknown), so that commits no
        /// observation cares about are dropped as they are announced. Recomputed after each round.
        var watchedTables: Set<String>?
        /// Whether a round is waiting for its time, queued or running.
        var isRunning = false
        /// When the next round may start, on the monotonic clock in nanoseconds.
        var nextRoundTime: UInt64 = 0
        var subscription: ChangeSubscription?
        /// Counts subscriptions, so that a late report that one is recording is not taken for
        /// a newer one's.
        var generation: UInt64 = 0
        /// Whether the current subscription records commits: rounds run only then.
        var isRecording = false
        /// Whether the database closed: every observation ended, and later ones end at once.
        var isFinished = false
    }

    private let state = Guarded(State())

    /// The number of observations registered (for tests).
    var count: Int { state.withLock { $0.entries.count } }

    /// Registers `observation` of `database`, to be fetched in the next round (once commits
    /// are recorded); returns false, ending nothing, if the database closed.
    func register(_ observation: any ScheduledObservation, of database: Database) -> Bool {
        let subscribes = state.withLock { state -> Bool? in
            guard !state.isFinished else { return nil }
            state.entries[ObjectIdentifier(observation)] = Entry(observation: observation)
            state.database = database
            state.watchedTables = nil
            guard state.subscription == nil else { return false }
            state.generation += 1
            state.isRecording = false
            return true
        }
        guard let subscribes else { return false }
        if subscribes {
            subscribe(to: database.changeTracker)
        } else {
            scheduleRound()
        }
        return true
    }

    /// Forgets `observation`; the last one leaving ends the subscription to commits.
    func unregister(_ observation: any ScheduledObservation) {
        let subscription = state.withLock { state -> ChangeSubscription? in
            guard state.entries.removeValue(forKey: ObjectIdentifier(observation)) != nil, state.entries.isEmpty
            else { return nil }
            return endSubscription(&state)
        }
        subscription?.cancel()
    }

    /// Drops the subscription and what it gathered, once no observation is left.
    private func endSubscription(_ state: inout State) -> ChangeSubscription? {
        state.database = nil
        state.pending = []
        state.isRecording = false
        defer { state.subscription = nil }
        return state.subscription
    }

    private func subscribe(to tracker: ChangeTracker) {
        let subscription = tracker.subscribe(ChangeTracker.Subscriber(
            receive: { [weak self] batch in self?.receive(batch) },
            finish: { [weak self] in self?.finish() }))
        let generation = state.withLock { state -> UInt64? in
            // Every observation may have left (or the database closed) meanwhile.
            guard !state.entries.isEmpty, !state.isFinished else { return nil }
            state.subscription = subscription
            return state.generation
        }
        guard let generation else { return subscription.cancel() }
        Task { [weak self] in
            await subscription.isRecording.value
            self?.recordingDidStart(generation: generation)
        }
    }

    private func recordingDidStart(generation: UInt64) {
        let isCurrent = state.withLock { state -> Bool in
            guard state.generation == generation, state.subscription != nil else { return false }
            state.isRecording = true
            return true
        }
        if isCurrent { scheduleRound() }
    }

    /// Keeps a commit the writer announced, and queues a round if none is under way. Called
    /// on the writer's thread for every commit: constant work.
    private func receive(_ batch: CommittedChanges) {
        let starts = state.withLock { state -> UInt64? in
            // While a round runs, what its fetches read is not known yet: keep everything.
            guard state.isRunning || batch.touches(state.watchedTables) else { return nil }
            state.pending.append(batch)
            return startsRound(&state)
        }
        if let starts { submitRound(after: starts) }
    }

    /// Queues a round if one is due and none is under way.
    private func scheduleRound() {
        if let starts = state.withLock({ startsRound(&$0) }) { submitRound(after: starts) }
    }

    /// Whether a round has to start (and marks it under way): none runs, commits are
    /// recorded, and a commit is pending or an observation has never fetched. Returns the
    /// nanoseconds to wait before it starts (see `roundInterval`), or nil for no round.
    private func startsRound(_ state: inout State) -> UInt64? {
        guard !state.isRunning, state.isRecording, state.database != nil else { return nil }
        guard !state.pending.isEmpty || state.entries.values.contains(where: { $0.region.needsFetch }) else { return nil }
        state.isRunning = true
        let now = Self.now
        return state.nextRoundTime > now ? state.nextRoundTime - now : 0
    }

    private static let roundIntervalNanoseconds = UInt64(roundInterval / .nanoseconds(1))

    private static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// The processor time the calling thread has used, in nanoseconds.
    private static var threadProcessorTime: UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// When a round started, on the monotonic clock and on its thread's processor clock.
    private struct RoundStart {
        let time = ObservationScheduler.now
        let processorTime = ObservationScheduler.threadProcessorTime
    }

    /// Queues a round once `delay` nanoseconds have passed.
    private func submitRound(after delay: UInt64) {
        guard delay > 0 else { return submitRound() }
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(delay))) { [weak self] in
            self?.submitRound()
        }
    }

    /// Queues a round on a reader, or on the writer when asked or when there is no reader.
    private func submitRound(onWriter: Bool = false) {
        guard let database = state.withLock({ $0.database }) else { return roundDidEnd(startedAt: nil) }
        let runsOnWriter = onWriter || database.readers == nil
        let pool = runsOnWriter ? database.writer : database.readers!
        pool.submit(ClosureJob(
            run: { [weak self] connection in self?.runRound(on: connection, of: database, onWriter: runsOnWriter) },
            fail: { [weak self] _ in self?.roundDidEnd(startedAt: nil) }))
    }

    /// One round: notes the pending commits, fetches the observations that have to fetch in
    /// one settled snapshot, and queues the next round if more is due.
    private func runRound(on connection: Connection, of database: Database, onWriter: Bool) {
        let started = RoundStart()
        let due = takeDueObservations()
        var failures: [(any ScheduledObservation, any Error)] = []
        var needsWriter = false
        if !due.isEmpty {
            let tracker = database.changeTracker
            let runner = BlockRunner(
                .read, sharesWriter: onWriter, instrumentation: database.instrumentation, changeTracker: tracker)
            let settledBefore = tracker.settled
            do {
                try runner.run({ connection in
                    let sequence: UInt64
                    if onWriter {
                        // Every commit the writer made is announced when a block starts on it.
                        sequence = tracker.currentSequence
                    } else if let settled = try connection.settleSnapshot(with: tracker, settledBefore: settledBefore) {
                        sequence = settled
                    } else {
                        needsWriter = true
                        return
                    }
                    let recorder = onWriter ? connection.changeRecorder : ChangeRecorder.readRecorder(of: connection)
                    for observation in due {
                        do {
                            try fetch(observation, on: connection, recordingReadsWith: recorder, sequence: sequence)
                        } catch {
                            failures.append((observation, error))
                        }
                    }
                }, on: connection, isCancelled: { false })
            } catch {
                failures = due.map { ($0, error) }
            }
        }
        for (observation, error) in failures {
            unregister(observation)
            let isClosed = (error as? DatabaseError)?.kind == .databaseClosed
            observation.end(with: isClosed ? nil : error)  // closing the database ends its observations
        }
        if needsWriter {
            submitRound(onWriter: true)
        } else {
            roundDidEnd(startedAt: started)
        }
    }

    /// Notes the pending commits against every observation, and returns those that have to fetch.
    private func takeDueObservations() -> [any ScheduledObservation] {
        state.withLock { state in
            // A round queued before every observation left, that runs for a later subscription,
            // fetches nothing until that one records (see `recordingDidStart`).
            guard state.isRecording else { return [] }
            let touched = TouchedTables(state.pending)
            state.pending = []
            var due: [any ScheduledObservation] = []
            state.entries = state.entries.mapValues { entry in
                var entry = entry
                entry.region.note(touched)
                if entry.region.needsFetch { due.append(entry.observation) }
                return entry
            }
            return due
        }
    }

    /// Runs `observation`'s fetch, unless it ended, recording the tables it reads; its value
    /// reflects the commits up to `sequence`.
    private func fetch(
        _ observation: any ScheduledObservation, on connection: Connection, recordingReadsWith recorder: ChangeRecorder?,
        sequence: UInt64
    ) throws {
        guard observation.isActive else { return recordFetch(of: observation, tables: [], sequence: sequence) }
        try recorder?.beginRecordingReads(on: connection)
        let outcome = Result { try observation.fetchAndDeliver(on: connection) }
        let tables = recorder?.endRecordingReads(on: connection)
        try outcome.get()
        recordFetch(of: observation, tables: tables, sequence: sequence)
    }

    private func recordFetch(of observation: any ScheduledObservation, tables: Set<String>?, sequence: UInt64) {
        state.withLock { state in
            state.entries[ObjectIdentifier(observation)]?.region.didFetch(tables: tables, sequence: sequence)
        }
    }

    /// Ends the round under way (which started at `started`, nil when it never ran): queues
    /// the next one, paced, if commits came meanwhile or an observation has yet to fetch;
    /// otherwise stops, watching only the tables read so far.
    private func roundDidEnd(startedAt started: RoundStart?) {
        let continues = state.withLock { state -> UInt64? in
            state.isRunning = false
            if let started {
                let cost = Self.threadProcessorTime - started.processorTime
                state.nextRoundTime = max(started.time + Self.roundIntervalNanoseconds, Self.now + Self.restFactor * cost)
            }
            if let delay = startsRound(&state) { return delay }
            var watched: Set<String>? = []
            for entry in state.entries.values {
                guard let tables = entry.region.tables else {
                    watched = nil
                    break
                }
                watched!.formUnion(tables)
            }
            state.watchedTables = watched
            return nil
        }
        if let continues { submitRound(after: continues) }
    }

    /// Ends every observation, and any registered later: the database closed.
    func finish() {
        let (entries, subscription) = state.withLock { state -> ([Entry], ChangeSubscription?) in
            state.isFinished = true
            defer { state.entries = [:] }
            return (Array(state.entries.values), endSubscription(&state))
        }
        subscription?.cancel()
        for entry in entries {
            entry.observation.end(with: nil)
        }
    }
}
