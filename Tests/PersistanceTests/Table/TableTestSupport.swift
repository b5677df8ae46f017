@testable import Persistance

extension RecordFixtures {
    /// Inserts Ann (10, age 30), Bob (3, no age), c'asa (7, age 3) and "NULL" (0, no age) into `players`.
    static func seedPlayers(in conn: Connection) throws -> [Player] {
        var players = [
            Player(id: nil, name: "Ann", score: 10, age: 30),
            Player(id: nil, name: "Bob", score: 3, age: nil),
            Player(id: nil, name: "c'asa", score: 7, age: 3),
            Player(id: nil, name: "NULL", score: 0, age: nil),
        ]
        try RecordFixtures.players.insert(contentsOf: &players, in: conn)
        return players
    }

    /// A sequence that can be iterated only once, like a stream of records read from elsewhere.
    final class SinglePassSequence<Element>: Sequence, IteratorProtocol {
        private var remaining: [Element]

        init(_ elements: [Element]) {
            remaining = elements.reversed()
        }

        func next() -> Element? {
            remaining.popLast()
        }
    }
}
