import Foundation
import Synchronization

/// Whether the machine has more runnable threads than processors, as the executor's brief
/// watches ask before they spin (see `BriefWatch`).
///
/// A watch pays only while the thread it waits for runs on another processor at the same
/// time. With more runnable threads than processors, a yield hands the processor to another
/// thread for a whole time slice, and the watched thread may be the one waiting for it: both
/// lose their slices, and a hand-off that takes microseconds on an idle machine takes
/// milliseconds. A sleeping thread that is woken, by contrast, is scheduled promptly. So
/// while the machine is overloaded the watches park at once.
///
/// The count of runnable threads is the kernel's, from `/proc/loadavg` (Linux; elsewhere
/// the machine never counts as overloaded and the callers' `WatchPolicy` alone decides),
/// read at most once per `interval` by whichever watch finds the last reading stale, so a
/// watch costs two atomic loads. The process's own watching threads are left out of it:
/// they spin only briefly and would otherwise switch the watches off by themselves.
final class MachineLoad: Sendable {
    /// The process's load, read from `/proc`.
    static let shared = MachineLoad(processors: ProcessInfo.processInfo.activeProcessorCount) {
        readRunnableThreads()
    }

    private let processors: Int
    private let intervalNanoseconds: UInt64
    private let readRunnable: @Sendable () -> Int?
    /// When the next reading is due, on the monotonic clock in nanoseconds.
    private let nextReading = Atomic<UInt64>(0)
    private let overloaded = Atomic<Bool>(false)
    /// Threads of this process inside a watch's loop (see `beginWatching`).
    private let watcherCount = Atomic<Int>(0)

    /// A load of `processors` processors, whose runnable threads (the calling one included)
    /// `readRunnable` counts, nil when it cannot tell, at most once per `interval`.
    init(processors: Int, interval: Duration = .milliseconds(50), readRunnable: @escaping @Sendable () -> Int?) {
        self.processors = max(processors, 1)
        intervalNanoseconds = UInt64(max(interval, .zero).components.seconds) * 1_000_000_000
            + UInt64(max(interval, .zero).components.attoseconds / 1_000_000_000)
        self.readRunnable = readRunnable
    }

    /// Whether a watch starting at `now` (monotonic, nanoseconds) should park at once: the
    /// latest reading found more runnable threads than processors. Reads the count again
    /// when the last reading is older than the interval.
    func isOverloaded(at now: UInt64) -> Bool {
        let due = nextReading.load(ordering: .relaxed)
        if now >= due, nextReading.compareExchange(expected: due, desired: now &+ intervalNanoseconds, ordering: .relaxed).exchanged {
            let runnable = readRunnable().map { $0 - watcherCount.load(ordering: .relaxed) }
            overloaded.store(runnable.map { $0 > processors } ?? false, ordering: .relaxed)
        }
        return overloaded.load(ordering: .relaxed)
    }

    /// Counts the calling thread as watching (left out of the runnable count) until
    /// `endWatching`.
    func beginWatching() {
        watcherCount.add(1, ordering: .relaxed)
    }

    /// Ends what `beginWatching` began.
    func endWatching() {
        watcherCount.subtract(1, ordering: .relaxed)
    }

    /// The kernel's count of runnable threads on the machine, from `/proc/loadavg`; nil
    /// where it cannot be read.
    static func readRunnableThreads() -> Int? {
        let descriptor = open("/proc/loadavg", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            return count > 0 ? runnableThreads(inLoadAverage: UnsafeBufferPointer(rebasing: buffer[..<count])) : nil
        }
    }

    /// The runnable threads in the text of `/proc/loadavg` (`0.52 0.58 0.59 3/467 1234`:
    /// the fourth field's first number); nil when the text is not of that form.
    static func runnableThreads(inLoadAverage text: UnsafeBufferPointer<UInt8>) -> Int? {
        var fields = text.split(separator: UInt8(ascii: " "), maxSplits: 4, omittingEmptySubsequences: true).makeIterator()
        for _ in 0..<3 { guard fields.next() != nil else { return nil } }
        guard let field = fields.next(), let slash = field.firstIndex(of: UInt8(ascii: "/")), slash > field.startIndex else {
            return nil
        }
        var value = 0
        for byte in field[..<slash] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), value < Int.max / 10 - 9 else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
