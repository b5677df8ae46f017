import Testing

@testable import Persistance

/// The pools' job queue: oldest first across wrap-around and growth, each element released when popped.
@Suite struct FIFOTests {
    private final class Tracked {
        let number: Int
        let onRelease: () -> Void
        init(_ number: Int, onRelease: @escaping () -> Void) {
            self.number = number
            self.onRelease = onRelease
        }
        deinit { onRelease() }
    }

    @Test func popsInPushOrderAcrossWrapAroundAndGrowth() {
        var queue = FIFO<Int>()
        var expected = [Int]()
        var popped = [Int]()
        var next = 0
        // Interleaved pushes and pops move the head around the ring; bursts make it grow
        // while the elements wrap past its end.
        for burst in [3, 1, 9, 2, 17, 5, 40, 1] {
            for _ in 0..<burst {
                queue.push(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<(burst / 2 + 1) {
                if let element = queue.pop() { popped.append(element) }
            }
            #expect(queue.count == expected.count - popped.count)
        }
        while let element = queue.pop() { popped.append(element) }
        #expect(popped == expected)
        #expect(queue.isEmpty)
        #expect(queue.pop() == nil)
    }

    @Test func removeAllReturnsTheRestOldestFirstAndEmptiesTheQueue() {
        var queue = FIFO<Int>()
        for number in 0..<12 { queue.push(number) }
        for _ in 0..<5 { _ = queue.pop() }
        for number in 12..<20 { queue.push(number) }
        #expect(queue.removeAll() == Array(5..<20))
        #expect(queue.isEmpty)
        queue.push(20)
        #expect(queue.pop() == 20)
    }

    @Test func aPoppedElementIsReleasedAtOnce() {
        var released = [Int]()
        var queue = FIFO<Tracked>()
        for number in 0..<3 {
            queue.push(Tracked(number) { released.append(number) })
        }
        _ = queue.pop()
        #expect(released == [0])
        _ = queue.removeAll()
        #expect(released == [0, 1, 2])
    }
}
