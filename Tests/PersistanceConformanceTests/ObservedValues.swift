import Synchronization
import Testing

/// Everything an async sequence yields, consumed by a task of its own, and how it ended. The
/// consumer can be held (a busy consumer that takes no value) and released. Shared by the
/// PostgreSQL tests, whose folder links this file.
final class ObservedValues<Element: Sendable>: Sendable {
    struct State: Sendable {
        var values: [Element] = []
        var hasEnded = false
        var error: (any Error)?
    }

    /// Apart from the recording, so that the consuming task does not keep the recording alive.
    private final class Storage: Sendable {
        struct Gate {
            var isHeld = false
            var waiter: CheckedContinuation<Void, Never>?
        }

        let state = Mutex(State())
        let gate = Mutex(Gate())

        /// Returns once the consumer is not held.
        func pass() async {
            await withCheckedContinuation { continuation in
                let passes = gate.withLock { gate in
                    if !gate.isHeld { return true }
                    gate.waiter = continuation
                    return false
                }
                if passes { continuation.resume() }
            }
        }

        func setHeld(_ isHeld: Bool) {
            gate.withLock { gate -> CheckedContinuation<Void, Never>? in
                gate.isHeld = isHeld
                return isHeld ? nil : gate.waiter.take()
            }?.resume()
        }

        func end(with error: (any Error)?) {
            state.withLock { state in
                state.hasEnded = true
                state.error = error
            }
        }
    }

    private let storage = Storage()
    private let consumer = Mutex<Task<Void, Never>?>(nil)

    init<Sequence: AsyncSequence & Sendable>(_ sequence: Sequence) where Sequence.Element == Element {
        let task = Task { [storage] in
            do {
                var iterator = sequence.makeAsyncIterator()
                while true {
                    await storage.pass()
                    guard let value = try await iterator.next() else { break }
                    storage.state.withLock { $0.values.append(value) }
                }
                storage.end(with: nil)
            } catch {
                storage.end(with: error)
            }
        }
        consumer.withLock { $0 = task }
    }

    deinit { cancel() }

    var values: [Element] { storage.state.withLock { $0.values } }
    var hasEnded: Bool { storage.state.withLock { $0.hasEnded } }
    var error: (any Error)? { storage.state.withLock { $0.error } }

    /// Makes the consumer take no more value (after the one it may be waiting for) until released.
    func hold() { storage.setHeld(true) }

    /// Lets the consumer take values again.
    func release() { storage.setHeld(false) }

    /// Cancels the consuming task.
    func cancel() {
        release()
        consumer.withLock { $0 }?.cancel()
    }

    /// Returns once `condition` holds; fails the test (and throws) when it still does not after
    /// `timeout`, a safety net only.
    func waitUntil(
        for timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: (State) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !storage.state.withLock({ condition($0) }) {
            guard ContinuousClock.now < deadline else {
                let seen = storage.state.withLock { "\($0.values), ended: \($0.hasEnded), error: \(String(describing: $0.error))" }
                Issue.record("timed out waiting; seen \(seen)", sourceLocation: sourceLocation)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
