import Testing

@testable import Persistance

/// `fetchAll` reserves its array for a small `LIMIT` at once, and returns the same records.
@Suite struct QueryExpectedRowCountTests {
    @Test(arguments: [(nil, 0), (0, 0), (1, 0), (2, 2), (10, 10), (64, 64), (65, 64), (1_000_000, 64)] as [(Int?, Int)])
    func aSmallLimitIsTheExpectedRowCount(limit: Int?, expected: Int) {
        let query = limit.map { QueryFixture.players.limit($0) } ?? QueryFixture.players
        #expect(query.expectedRowCount == expected)
    }

    @Test func aLimitedFetchReturnsEveryRowItReserved() throws {
        try withQueryFixture { conn throws in
            let byID = QueryFixture.players.order(Column("id"))
            #expect(try byID.limit(3).fetchAll(conn).map(\.id) == [1, 2, 3])
            #expect(try byID.limit(10).fetchAll(conn).map(\.id) == [1, 2, 3, 4, 5], "fewer rows than the limit")
            #expect(try byID.limit(2, offset: 4).fetchAll(conn).map(\.id) == [5])
            #expect(try byID.limit(5).filter(Column("id") > 99).fetchAll(conn).isEmpty)
        }
    }
}
