import Dispatch
import Synchronization

/// How a portable block (``Database``'s `AsyncDatabase` conformance) gets a pool thread's
/// connection: the pool thread runs an ordinary executor job (in its transaction, with its
/// instrumentation, cancellation, close and rollback semantics) whose block lends the
/// connection to the awaiting task and blocks its own thread until that task gives it back.
///
/// 1. The awaiting task waits in `connection()`.
/// 2. The pool thread's block calls `lend(_:)`: it hands the connection over and blocks.
/// 3. The task runs its asynchronous body, each statement confining the connection to the
///    thread it runs on for that statement (the owner is blocked meanwhile), then calls
///    `giveBack(_:)` with the body's error, if any.
/// 4. `lend` returns, or throws that error, on the pool thread: the executor commits or rolls
///    back as for any block.
///
/// When the job ends without running (the database closed, the task cancelled while it was
/// queued), `jobEnded()` wakes the waiting task with no connection, and the job's failure is
/// what the call throws.
final class ConnectionLease: Sendable {
    private enum State {
        /// Nothing has happened yet.
        case idle
        /// The task waits for the connection.
        case waiting(UnsafeContinuation<UnsafeSendableConnection?, Never>)
        /// The pool thread offered the connection before the task asked for it.
        case offered(UnsafeSendableConnection)
        /// The task holds the connection, or the job ended.
        case done
    }

    /// A connection moving between the pool thread and the task: only one of them uses it at
    /// a time, in the order the lease's lock establishes.
    struct UnsafeSendableConnection: @unchecked Sendable {
        let connection: Connection
    }

    private let state = Mutex<State>(.idle)
    /// Signalled by `giveBack`; the pool thread waits for it in `lend`.
    private let returned = DispatchSemaphore(value: 0)
    /// The body's error, written by `giveBack` before it signals `returned`.
    private let failure = Mutex<(any Error)?>(nil)

    /// The connection, once the pool thread lends it; nil when the job ended without lending it.
    func connection() async -> Connection? {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<UnsafeSendableConnection?, Never>) in
            let ready: UnsafeSendableConnection?? = state.withLock { state in
                switch state {
                case .idle:
                    state = .waiting(continuation)
                    return .none
                case .offered(let lent):
                    state = .done
                    return .some(lent)
                case .done:
                    return .some(nil)
                case .waiting:
                    preconditionFailure("a lease is waited for once")
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }?.connection
    }

    /// On the pool thread, inside the job's transaction: hands `connection` to the task and
    /// blocks until it is given back; throws the error it was given back with.
    func lend(_ connection: Connection) throws {
        let waiter: UnsafeContinuation<UnsafeSendableConnection?, Never>? = state.withLock { state in
            switch state {
            case .idle:
                state = .offered(UnsafeSendableConnection(connection: connection))
                return nil
            case .waiting(let continuation):
                state = .done
                return continuation
            case .offered, .done:
                preconditionFailure("a lease lends one connection")
            }
        }
        waiter?.resume(returning: UnsafeSendableConnection(connection: connection))
        returned.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Gives the connection back to the blocked pool thread, with the body's error (the
    /// executor then rolls the transaction back and the call throws it), or nil to commit.
    func giveBack(_ error: (any Error)?) {
        failure.withLock { $0 = error }
        returned.signal()
    }

    /// Called once the job is over: wakes a task still waiting for the connection, with none.
    func jobEnded() {
        let waiter: UnsafeContinuation<UnsafeSendableConnection?, Never>? = state.withLock { state in
            defer { state = .done }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiter?.resume(returning: nil)
    }
}

/// The databases whose portable blocks the current task is running, innermost first: a
/// portable `read` or `write` of one of them from inside such a block would wait for
/// itself (the block holds the writer, or a reader, until it returns), so it throws
/// `DatabaseError.Kind.reentrantAccess` instead.
///
/// A task-local value: child tasks inherit it (a child that accessed the database while its
/// parent's block awaits it would deadlock too). An unstructured `Task` started inside a
/// block inherits it as well; the mark is switched off when the block ends, so such a task
/// is refused only while the block that started it still runs.
final class HeldDatabase: Sendable {
    let executorID: ExecutorID
    let enclosing: HeldDatabase?
    private let active = Atomic<Bool>(true)

    init(_ executorID: ExecutorID, enclosing: HeldDatabase?) {
        self.executorID = executorID
        self.enclosing = enclosing
    }

    /// Ends the mark: the block has returned.
    func release() {
        active.store(false, ordering: .releasing)
    }

    /// Whether a block of the database `executorID` still runs in the chain from here.
    func holds(_ executorID: ExecutorID) -> Bool {
        var held: HeldDatabase? = self
        while let current = held {
            if current.executorID == executorID, current.active.load(ordering: .acquiring) { return true }
            held = current.enclosing
        }
        return false
    }

    @TaskLocal static var current: HeldDatabase?
}
