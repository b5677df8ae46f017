/// A value set once, then read by any number of threads (blocking) or tasks (suspending).
final class OneShot<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var continuations: [CheckedContinuation<Value, Never>] = []
    }

    private let state = Guarded(State())

    /// The value, if it has been set.
    var current: Value? { state.withLock { $0.value } }

    /// Sets the value and releases every waiter. Only the first call has an effect.
    func fulfill(_ value: Value) {
        let continuations = state.withLock(waking: .all) { state -> [CheckedContinuation<Value, Never>] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.continuations = [] }
            return state.continuations
        }
        for continuation in continuations {
            continuation.resume(returning: value)
        }
    }

    /// Blocks the calling thread until the value is set.
    func wait() -> Value {
        state.wait(until: { $0.value != nil }, then: { $0.value! })
    }

    /// Suspends the calling task until the value is set.
    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let value = state.withLock { state -> Value? in
                    if state.value == nil { state.continuations.append(continuation) }
                    return state.value
                }
                if let value { continuation.resume(returning: value) }
            }
        }
    }
}
