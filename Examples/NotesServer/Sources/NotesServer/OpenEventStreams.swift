import Synchronization

/// How many event streams are open now: a server's gauge of connected clients, which can also
/// be awaited (the tests wait on it for a stream to end).
public final class OpenEventStreams: Sendable {
    private struct State {
        var count = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    /// A gauge at zero.
    public init() {}

    /// The number of streams open now.
    public var count: Int { state.withLock { $0.count } }

    /// Counts a stream that opens.
    public func opened() { change(by: 1) }

    /// Counts a stream that ends.
    public func closed() { change(by: -1) }

    /// Returns once `count` streams are open (at once if that is so now).
    public func wait(untilCount count: Int) async {
        await withCheckedContinuation { continuation in
            let isThere = state.withLock { state in
                guard state.count != count else { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if isThere { continuation.resume() }
        }
    }

    private func change(by delta: Int) {
        let ready = state.withLock { state in
            state.count += delta
            let count = state.count
            let ready = state.waiters.filter { $0.count == count }
            state.waiters.removeAll { $0.count == count }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }
}
