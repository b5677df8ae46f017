import Foundation
import Synchronization

/// Threads that each own one connection and run queued work on it, oldest first.
///
/// Every connection is opened and closed on its own thread, which also marks itself as
/// belonging to the executor. A pool opens up to `capacity` threads: at `start`, or
/// (readers) when queued work outnumbers the idle threads. Queued work therefore never runs
/// on the Swift concurrency cooperative pool. A pool of one thread also lends its idle
/// connection to a synchronous caller, which runs its block on its own thread, as
/// `DispatchQueue.sync` does (see `runOnCallingThread`).
final class ConnectionPool: Sendable {
    // @unchecked: `lendableConnection` is used by one thread at a time, the pool thread or
    // the caller it is lent to, each taking it over under the lock (see `runOnCallingThread`).
    private struct State: @unchecked Sendable {
        var queue = FIFO<any PoolJob>()
        var threadCount = 0
        var idleCount = 0
        /// Threads still opening their connection: they will take queued work soon.
        var openingCount = 0
        /// Once set, new work fails at once with this error.
        var rejection: (any Error)?
        var isStopping = false
        var closeFailure: (any Error)?
        var onStopped: [@Sendable ((any Error)?) -> Void] = []
        /// The connection of the pool's only thread (a pool of capacity one), from its
        /// opening until the thread stops; nil in larger pools.
        var lendableConnection: Connection?
        /// Whether a caller runs a block with `lendableConnection` on its own thread; the
        /// pool thread takes no work meanwhile, and is not counted idle.
        var isLent = false
    }

    /// The most threads (and connections) the pool opens.
    let capacity: Int
    private let opensOnDemand: Bool
    /// The name of the pool's threads (`writer <file>`, `reader <file>`).
    let threadName: String
    /// The executor the pool belongs to.
    let executorID: ExecutorID
    private let openConnection: @Sendable () throws -> Connection
    private let state = Guarded(State())
    /// The number of queued items, also kept outside the lock: an idle thread watches it
    /// for a moment before it sleeps (see `awaitWork`).
    private let queuedHint = Atomic<Int>(0)
    /// The idle threads watching the queue rather than sleeping (see `awaitWork`).
    private let watchingThreadCount = Atomic<Int>(0)
    /// `State.isLent`, also kept outside the lock: an idle thread stops watching the queue
    /// once its connection is lent (see `awaitWork`).
    private let lentHint = Atomic<Bool>(false)
    /// How an idle thread watches the queue, and a caller its job, before sleeping.
    private let briefWatch: BriefWatch
    /// Whether callers waiting for their job watch for its end before they sleep or suspend.
    private let callerWatch = WatchPolicy()

    /// A pool that opens its connections with `openConnection`, on its own threads.
    /// - Parameters:
    ///   - opensOnDemand: whether `submit` opens a thread when every open one is busy;
    ///     otherwise only `start` does. A pool that does not open on demand rejects all work
    ///     once its last connection failed to open.
    ///   - spinWait: how long an idle thread, and a caller waiting for its job, watch before
    ///     they sleep (`DatabaseConfiguration.spinWait`).
    ///   - load: whether the machine is too busy for anyone to watch (see `BriefWatch`).
    init(
        capacity: Int, opensOnDemand: Bool, threadName: String, executorID: ExecutorID, spinWait: Duration,
        load: MachineLoad = .shared, openConnection: @escaping @Sendable () throws -> Connection
    ) {
        self.capacity = capacity
        self.opensOnDemand = opensOnDemand
        briefWatch = BriefWatch(timeLimit: spinWait, load: load)
        self.threadName = threadName
        self.executorID = executorID
        self.openConnection = openConnection
    }

    /// The number of items waiting for a thread (for tests and diagnostics).
    var queuedCount: Int { state.withLock { $0.queue.count } }

    /// The number of threads, running or opening their connection (for tests and diagnostics).
    var threadCount: Int { state.withLock { $0.threadCount } }

    /// Opens one thread and its connection now, unless the pool is stopping; `onOpen` is
    /// told, on that thread, whether the connection opened, before it runs any work.
    func start(onOpen: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let starts = state.withLock { state -> Bool in
            guard !state.isStopping else { return false }
            state.threadCount += 1
            state.openingCount += 1
            return true
        }
        if starts {
            spawnThread(onOpen: onOpen)
        }
    }

    /// Queues `item`, or fails it at once if the pool rejects work. Returns whether an idle
    /// thread that is awake, watching the queue, takes the item at once: it then starts it
    /// within a microsecond or so, where a sleeping thread has to be woken first.
    @discardableResult
    func submit(_ item: any PoolJob) -> Bool {
        let (rejection, spawns, startsAtOnce) = state.withLock(waking: .one) { state -> ((any Error)?, Bool, Bool) in
            if let rejection = state.rejection { return (rejection, false, false) }
            state.queue.push(item)
            queuedHint.add(1, ordering: .releasing)
            guard state.queue.count > state.idleCount else {
                return (nil, false, watchingThreadCount.load(ordering: .relaxed) >= state.queue.count)
            }
            guard opensOnDemand, !state.isStopping, state.queue.count > state.idleCount + state.openingCount,
                state.threadCount < capacity
            else { return (nil, false, false) }
            state.threadCount += 1
            state.openingCount += 1
            return (nil, true, false)
        }
        if let rejection {
            item.fail(rejection)
        } else if spawns {
            spawnThread(onOpen: nil)
        }
        return startsAtOnce
    }

    /// Watches, for a moment at most, until the job a caller submitted has ended (as
    /// `hasHappened` tells), when an awake thread took the job at once and watches on this
    /// pool have been paying off (see `WatchPolicy`); returns whether the job ended meanwhile.
    ///
    /// A watching caller keeps its processor busy: worth it when the pool thread runs the
    /// job on another processor at once, not when it has to wake, which on a loaded machine
    /// means competing with the caller itself for a processor.
    func watchJob(startedAtOnce: Bool, until hasHappened: () -> Bool) -> Bool {
        startedAtOnce && callerWatch.watch(briefWatch, until: hasHappened)
    }

    /// Runs `body` on the calling thread with the connection of the pool's only thread, when
    /// that thread is idle and no work is queued; returns false without running it otherwise
    /// (the caller then queues its work). A synchronous caller thus runs its block with no
    /// hand-off between threads, no wake-up and no context switch, which on a loaded machine
    /// cost a time slice each. Meanwhile the connection is confined to the calling thread,
    /// which counts as the pool's thread (`current`: a reentrant call is refused, waits
    /// between databases are seen), and the pool thread takes no work, so the writes still
    /// run one at a time, in order; queued work runs once the block has returned, and so
    /// does closing.
    /// - Throws: the pool's rejection (it is closed) without running `body`; `body`'s error.
    func runOnCallingThread(_ body: (Connection) throws -> Void) throws -> Bool {
        // A larger pool lends nothing: return before taking its lock.
        guard capacity == 1, let connection = try borrowIdleConnection() else { return false }
        pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque())
        defer {
            pthread_setspecific(Self.currentKey, nil)
            giveBack()
        }
        try connection.whileConfinedToCurrentThread { try body(connection) }
        return true
    }

    /// Takes the idle pool thread's connection (see `runOnCallingThread`), if it is free.
    private func borrowIdleConnection() throws -> Connection? {
        try state.withLock { state in
            if let rejection = state.rejection { throw rejection }
            guard let connection = state.lendableConnection, !state.isLent, !state.isStopping,
                state.queue.isEmpty, state.idleCount == 1
            else { return nil }
            state.isLent = true
            state.idleCount -= 1
            lentHint.store(true, ordering: .relaxed)
            return connection
        }
    }

    /// Ends a loan, waking the pool thread only when it has work to take: waking it for
    /// nothing would cost the very switches lending saves.
    private func giveBack() {
        let wakes = state.withLock { state in
            state.isLent = false
            state.idleCount += 1
            lentHint.store(false, ordering: .relaxed)
            return !state.queue.isEmpty || state.isStopping
        }
        if wakes {
            state.withLock(waking: .one) { _ in }
        }
    }

    /// Fails every later submission with `laterError`, and every queued item with
    /// `queuedError` (when nil, queued items stay and run). Running work goes on.
    func reject(queuedWith queuedError: (any Error)?, laterWith laterError: any Error) {
        let queued = state.withLock { state -> [any PoolJob] in
            if state.rejection == nil { state.rejection = laterError }
            return queuedError == nil ? [] : removeAllQueued(&state)
        }
        guard let queuedError else { return }
        for item in queued {
            item.fail(queuedError)
        }
    }

    /// Lets every thread finish its queued and running work, close its connection and exit,
    /// then calls `onStopped` with the first failure to close a connection, if any.
    func stop(onStopped: @escaping @Sendable ((any Error)?) -> Void) {
        let stoppedAlready = state.withLock(waking: .all) { state -> Bool in
            state.isStopping = true
            guard state.threadCount > 0 else { return true }
            state.onStopped.append(onStopped)
            return false
        }
        if stoppedAlready {
            onStopped(state.withLock { $0.closeFailure })
        }
    }

    // MARK: Pool threads

    private func spawnThread(onOpen: (@Sendable (Result<Void, any Error>) -> Void)?) {
        let thread = Thread { [self] in
            runThread(onOpen: onOpen)
        }
        thread.name = threadName
        thread.start()
    }

    /// The pool whose thread is the calling thread, if any. Asked by every synchronous call
    /// (to refuse a reentrant one and to detect deadlocks), so it reads a thread-specific
    /// value rather than Foundation's thread dictionary, which costs a hundred times more.
    static var current: ConnectionPool? {
        pthread_getspecific(currentKey).map { Unmanaged<ConnectionPool>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The thread-specific key of `current`. Its value is the pool unretained: the pool's
    /// thread holds the pool while it runs, and clears the value before it ends.
    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    private func runThread(onOpen: (@Sendable (Result<Void, any Error>) -> Void)?) {
        pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(Self.currentKey, nil) }
        let connection: Connection
        do {
            connection = try openConnection()
            try connection.installCancellationCheck()
            state.withLock { state in
                state.openingCount -= 1
                if capacity == 1 { state.lendableConnection = connection }
            }
        } catch {
            state.withLock { $0.openingCount -= 1 }
            threadDidExit(openFailure: error)
            onOpen?(.failure(error))
            return
        }
        connection.confineToCurrentThread()
        onOpen?(.success(()))
        var isCountedIdle = false
        while let item = nextItem(isCountedIdle: isCountedIdle) {
            isCountedIdle = false
            item.run(on: connection) {
                state.withLock { $0.idleCount += 1 }
                isCountedIdle = true
            }
        }
        var closeFailure: (any Error)?
        do { try connection.checkpointIfMoved() } catch { closeFailure = error }
        do { try connection.closeHandle() } catch { closeFailure = closeFailure ?? error }
        threadDidExit(closeFailure: closeFailure)
    }

    /// The next item to run, waiting for one; nil once the pool stops and nothing is queued.
    /// The thread counts as idle meanwhile (`isCountedIdle`: its last job already counted it).
    private func nextItem(isCountedIdle: Bool) -> (any PoolJob)? {
        if !isCountedIdle { state.withLock { $0.idleCount += 1 } }
        awaitWork()
        return state.wait(until: { !$0.isLent && (!$0.queue.isEmpty || $0.isStopping) }) { state in
            state.idleCount -= 1
            guard let item = state.queue.pop() else {
                state.lendableConnection = nil
                return nil
            }
            queuedHint.subtract(1, ordering: .relaxed)
            return item
        }
    }

    /// Watches the queue for a moment, yielding the processor between looks, and returns
    /// once work is queued or the moment has passed. Waking a sleeping thread costs tens of
    /// microseconds on a busy or virtual machine, more than a small read or write takes, so
    /// a thread that stays awake briefly takes the next item of a caller that submits one
    /// right after another with no wake-up at all.
    ///
    /// The thread counts as watching (see `submit`) only past the watch's first look, and not
    /// at all on an overloaded machine, where it sleeps at once; it stops watching once a
    /// caller borrows its connection (see `runOnCallingThread`).
    private func awaitWork() {
        briefWatch.run(
            until: { queuedHint.load(ordering: .acquiring) > 0 || lentHint.load(ordering: .relaxed) },
            beginning: { watchingThreadCount.add(1, ordering: .relaxed) },
            ending: { watchingThreadCount.subtract(1, ordering: .relaxed) })
    }

    /// Empties the queue (under the lock), keeping the hint in step.
    private func removeAllQueued(_ state: inout State) -> [any PoolJob] {
        let items = state.queue.removeAll()
        queuedHint.subtract(items.count, ordering: .relaxed)
        return items
    }

    /// Accounts for a thread that ended. A thread that could not open its connection passes
    /// `openFailure`: if no thread is left, nothing could run the queued work, so it fails
    /// with the same error (and a pool that does not open on demand rejects all later work).
    private func threadDidExit(openFailure: (any Error)? = nil, closeFailure: (any Error)? = nil) {
        typealias Outcome = (failed: [any PoolJob], onStopped: [@Sendable ((any Error)?) -> Void], closeFailure: (any Error)?)
        let outcome = state.withLock { state -> Outcome in
            state.threadCount -= 1
            if state.closeFailure == nil { state.closeFailure = closeFailure }
            guard state.threadCount == 0 else { return ([], [], nil) }
            var failed = [any PoolJob]()
            if let openFailure {
                if !opensOnDemand, state.rejection == nil { state.rejection = openFailure }
                failed = removeAllQueued(&state)
            }
            defer { state.onStopped = [] }
            return (failed, state.onStopped, state.closeFailure)
        }
        if let openFailure {
            for item in outcome.failed {
                item.fail(openFailure)
            }
        }
        for callback in outcome.onStopped {
            callback(outcome.closeFailure)
        }
    }
}
