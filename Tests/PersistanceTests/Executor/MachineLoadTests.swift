import Synchronization
import Testing

@testable import Persistance

extension MachineLoad {
    /// A machine of two processors that always has `runnable` runnable threads.
    static func simulated(runnable: Int) -> MachineLoad {
        MachineLoad(processors: 2) { runnable }
    }

    /// An idle machine: the watches behave the same whatever else runs during the tests.
    static let idle = simulated(runnable: 1)
    /// An overloaded machine: five runnable threads for two processors.
    static let overloaded = simulated(runnable: 5)
}

/// The executor's watches park at once while the machine has more runnable threads than
/// processors, and watch as before otherwise.
@Suite struct MachineLoadTests {
    /// Counts the looks and yields of one watch of 50 µs on `load` for an event that comes
    /// at the second look.
    private func looks(on load: MachineLoad) -> (looks: Int, sawIt: Bool) {
        var looks = 0
        let sawIt = BriefWatch(timeLimit: .microseconds(50), load: load).run {
            looks += 1
            return looks == 2
        }
        return (looks, sawIt)
    }

    @Test func anOverloadedMachineParksAtOnce() {
        let outcome = looks(on: .overloaded)
        #expect(outcome.looks == 1, "one look, no yield")
        #expect(!outcome.sawIt)
    }

    @Test func aMachineWithAProcessorForEveryRunnableThreadWatches() {
        let outcome = looks(on: .simulated(runnable: 2))
        #expect(outcome.looks == 2)
        #expect(outcome.sawIt)
    }

    @Test func aMachineWhoseLoadCannotBeReadWatches() {
        let outcome = looks(on: MachineLoad(processors: 2) { nil })
        #expect(outcome.sawIt)
    }

    /// The process's own watching threads spin briefly: counted, they would turn the
    /// watches off by themselves on an otherwise idle machine.
    @Test func theProcesssOwnWatchersAreNotCountedAsLoad() {
        let load = MachineLoad.simulated(runnable: 4)
        load.beginWatching()
        load.beginWatching()
        let withTwoWatchers = load.isOverloaded(at: 1)
        load.endWatching()
        load.endWatching()
        #expect(!withTwoWatchers, "4 runnable, 2 of them watching: 2 threads for 2 processors")
        let fresh = MachineLoad.simulated(runnable: 4)
        #expect(fresh.isOverloaded(at: 1))
    }

    /// The count is read at most once per interval, and again once the interval has passed:
    /// a load that came or went is noticed.
    @Test func theLoadIsReadOncePerInterval() {
        let reads = Atomic<Int>(0)
        let runnable = Atomic<Int>(5)
        let load = MachineLoad(processors: 2, interval: .milliseconds(50)) {
            reads.add(1, ordering: .relaxed)
            return runnable.load(ordering: .relaxed)
        }
        let first = load.isOverloaded(at: 1_000_000_000)
        runnable.store(1, ordering: .relaxed)
        let withinInterval = load.isOverloaded(at: 1_000_000_000 + 49_000_000)
        #expect(reads.load(ordering: .relaxed) == 1)
        let afterInterval = load.isOverloaded(at: 1_000_000_000 + 50_000_000)
        #expect(reads.load(ordering: .relaxed) == 2)
        #expect(first)
        #expect(withinInterval, "the reading of 5 runnable threads holds for the interval")
        #expect(!afterInterval, "the next reading finds the load gone")
    }

    /// Under a simulated overload, callers stop watching: their policy counts the parked
    /// watches as failed ones.
    @Test func callersOnAnOverloadedMachineStopWatching() {
        let policy = WatchPolicy()
        let watch = BriefWatch(timeLimit: .microseconds(50), load: .overloaded)
        var looks = 0
        for _ in 0..<10 {
            _ = policy.watch(watch) {
                looks += 1
                return false
            }
        }
        #expect(looks == 2, "two parked watches, then no watch at all")
    }

    @Test(arguments: [
        ("0.52 0.58 0.59 3/467 1234\n", 3),
        ("6.51 3.62 1.49 19/159 11966", 19),
    ])
    func runnableThreadsAreReadFromTheFourthField(text: String, expected: Int) {
        let count = Array(text.utf8).withUnsafeBufferPointer(MachineLoad.runnableThreads(inLoadAverage:))
        #expect(count == expected)
    }

    @Test(arguments: ["", "0.52 0.58 0.59", "0.52 0.58 0.59 /467 1", "0.52 0.58 0.59 x3/467 1", "1 2 3 99999999999999999999999/1 1"])
    func malformedLoadAveragesReadAsUnknown(text: String) {
        let count = Array(text.utf8).withUnsafeBufferPointer(MachineLoad.runnableThreads(inLoadAverage:))
        #expect(count == nil)
    }

    /// This machine's own count: on Linux it exists and includes the test's own thread.
    @Test func theKernelsCountIsReadOnLinux() throws {
        #if os(Linux)
        let count = try #require(MachineLoad.readRunnableThreads())
        #expect(count >= 1)
        #endif
    }
}
