import Foundation
import Synchronization

/// A controlled CPU load the benchmark puts on the machine itself (`--load`): `factor` ×
/// the machine's cores busy threads, each spinning on arithmetic with no memory traffic or
/// system call, so that every contender's threads compete with them for the processors, as
/// on a busy server. Factor 0 is the idle machine.
final class BackgroundLoad: Sendable {
    /// The load factor: busy threads per core.
    let factor: Int
    /// The number of busy threads.
    let threadCount: Int
    private let stopFlag = Flag()
    private let running = Atomic<Int>(0)
    /// Keeps the spinning loops' results observable, so the optimizer keeps the loops.
    private let sink = Atomic<UInt64>(0)

    /// Starts `factor` × cores busy threads (none for 0) and returns once they all run.
    init(factor: Int) {
        self.factor = factor
        threadCount = factor * ProcessInfo.processInfo.activeProcessorCount
        for index in 0..<threadCount {
            let thread = Thread { [self] in spin(seed: UInt64(index + 1)) }
            thread.name = "bench load \(index + 1)"
            thread.start()
        }
        while running.load(ordering: .acquiring) < threadCount { usleep(100) }
    }

    /// Stops the busy threads and waits until they have all ended.
    func stop() {
        stopFlag.raise()
        while running.load(ordering: .acquiring) > 0 { usleep(100) }
    }

    private func spin(seed: UInt64) {
        running.add(1, ordering: .releasing)
        var value = seed
        while !stopFlag.isRaised {
            for _ in 0..<10_000 { value = value &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
        }
        sink.store(value, ordering: .relaxed)
        running.subtract(1, ordering: .releasing)
    }

    /// How the report names the load.
    var label: String {
        factor == 0 ? "idle (no background load)" : "load ×\(factor): \(threadCount) busy threads on \(ProcessInfo.processInfo.activeProcessorCount) cores"
    }

    /// Runs `body` under a background load of `factor`, stopping the load after it, whatever
    /// happens.
    static func with<T>(factor: Int, _ body: (BackgroundLoad) throws -> T) rethrows -> T {
        let load = BackgroundLoad(factor: factor)
        defer { load.stop() }
        return try body(load)
    }
}
