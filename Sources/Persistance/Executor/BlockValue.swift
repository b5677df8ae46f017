/// Where the value of an asynchronous block waits for the task that awaits it: written once
/// by the pool thread that runs the block, read by the task after the job resumed it (which
/// orders the two). Made in the caller's specialized code, so the executor itself needs no
/// generic type.
@usableFromInline
final class BlockValue<Value>: @unchecked Sendable {
    // @unchecked: written by one thread, then read by another only after the continuation
    // resume that follows the write.
    @usableFromInline @exclusivity(unchecked) var value: Value?

    @inlinable init() {}
}
