/// A registration with a database's `ChangeTracker`, ended by `cancel()` or when released.
final class ChangeSubscription: Sendable {
    private let onCancel: Guarded<(@Sendable () -> Void)?>
    /// Set once the writer records the commits the subscription is told about (or never
    /// will: the database closed). A read whose snapshot is taken after that misses none.
    let isRecording = OneShot<Void>()

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Guarded(onCancel)
    }

    /// Ends the subscription; later calls do nothing.
    func cancel() {
        onCancel.withLock { $0.take() }?()
    }

    deinit {
        cancel()
    }
}
