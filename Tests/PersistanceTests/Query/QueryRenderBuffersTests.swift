import Testing

@testable import Persistance

/// A connection lends the query builder the same arrays for every statement it renders: what
/// one query collected never leaks into the next, and a query that fails while collecting
/// leaves the connection working.
@Suite struct QueryRenderBuffersTests {
    private struct Unstorable: Error {}

    @Test func queriesOfOtherShapesAndValueCountsInTurnBindOnlyTheirOwnValues() throws {
        try withQueryFixture { conn in
            let players = QueryFixture.players
            for _ in 0..<3 {
                // Four tokens more and one value more than the next query, then one value fewer.
                let ranked = try players.filter(Column("score") < 9.0 && Column("name") != nil)
                    .order(Column("score").desc).limit(2).fetchAll(conn)
                #expect(ranked.map(\.id) == [3, 2])
                let named = try players.filter(Column("name") == "Bob").fetchAll(conn)
                #expect(named.map(\.id) == [2])
                let all = try players.order(Column("id").asc).fetchAll(conn)
                #expect(all.map(\.id) == [1, 2, 3, 4, 5])
            }
            #expect(conn.queryRenderBuffers.tokens.isEmpty == false)
            #expect(conn.queryRenderBuffers.tokens.capacity >= 32)
        }
    }

    @Test func aValueThatFailsToConvertIsATypedErrorAndTheNextQueryRuns() throws {
        try withQueryFixture { conn in
            let unstorable = TypedColumn<QueryTestPlayer, Double>("score") { _ in throw Unstorable() }
            let failing = QueryFixture.players.filter(unstorable < 5)
            let error = try #require(throws: DatabaseError.self) { try failing.fetchAll(conn) }
            #expect(error.kind == .encoding)
            let low = try QueryFixture.players.filter(Column("score") < 5.0).fetchAll(conn)
            #expect(low.map(\.id) == [2])
        }
    }
}
