/// A first-in, first-out queue with amortised O(1) push and pop. A popped element is
/// released at once.
struct FIFO<Element> {
    private var storage: [Element?] = []
    private var head = 0

    /// The number of elements waiting.
    var count: Int { storage.count - head }

    var isEmpty: Bool { count == 0 }

    mutating func push(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns the oldest element, or nil when empty.
    mutating func pop() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head].take()
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes and returns every element, oldest first.
    mutating func removeAll() -> [Element] {
        defer {
            storage.removeAll()
            head = 0
        }
        return storage[head...].compactMap { $0 }
    }
}

extension FIFO: Sendable where Element: Sendable {}
