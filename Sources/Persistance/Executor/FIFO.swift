/// A first-in, first-out queue: a ring buffer that doubles when full, so a push and a pop
/// each cost a few instructions and no allocation once it has grown. A popped element is
/// released at once.
struct FIFO<Element> {
    private var slots: [Element?] = []
    /// The slot of the oldest element.
    private var head = 0
    /// The number of elements waiting.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func push(_ element: Element) {
        if count == slots.count { grow() }
        slots[(head + count) & (slots.count - 1)] = element
        count += 1
    }

    /// Removes and returns the oldest element, or nil when empty.
    mutating func pop() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head].take()
        head = (head + 1) & (slots.count - 1)
        count -= 1
        return element
    }

    /// Removes and returns every element, oldest first.
    mutating func removeAll() -> [Element] {
        var elements = [Element]()
        elements.reserveCapacity(count)
        while let element = pop() { elements.append(element) }
        return elements
    }

    /// Doubles the slots (a power of two, so an index wraps with a mask), oldest element first.
    private mutating func grow() {
        var grown = [Element?](repeating: nil, count: max(8, slots.count * 2))
        for offset in 0..<count {
            grown[offset] = slots[(head + offset) & (slots.count - 1)].take()
        }
        slots = grown
        head = 0
    }
}

extension FIFO: Sendable where Element: Sendable {}
