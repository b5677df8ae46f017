import Foundation
import Testing

@testable import Persistance

/// The query builder renders a query's SQL once per shape: the same builder chain with other
/// values reuses the text, and queries that differ in anything but their values never share it.
@Suite struct QueryRenderCacheTests {
    /// Renders `query`'s `SELECT` through `cache`.
    private func select(_ query: Query<QueryTestPlayer>, _ cache: QueryRenderCache) throws -> RenderedSQL {
        try cache.rendered(.select, of: query.clauses)
    }

    /// What a renderer of its own writes for `query`, without any cache.
    private func uncached(_ query: Query<QueryTestPlayer>) throws -> (sql: String, values: [DatabaseValue]) {
        var renderer = SQLRenderer(qualifyingColumnsWith: query.clauses.qualifyingTable)
        try query.clauses.write(.select, to: &renderer)
        return (renderer.sql, renderer.values)
    }

    @Test func sameShapeWithOtherValuesReusesTheTextAndBindsItsOwnValues() throws {
        let cache = QueryRenderCache(capacity: 16)
        func top(below threshold: Double, limit: Int) -> Query<QueryTestPlayer> {
            QueryFixture.players.filter(Column("score") < threshold && Column("name") != nil)
                .order(Column("score").desc).limit(limit).qualifyingColumns(false)
        }
        let first = try select(top(below: 9, limit: 2), cache)
        let second = try select(top(below: 4, limit: 7), cache)
        #expect(cache.count == 1)
        #expect(first.sql == #"SELECT * FROM "player" WHERE "score" < ? AND "name" IS NOT NULL ORDER BY "score" DESC LIMIT ?"#)
        #expect(second.sql == first.sql)
        #expect(first.values == [.real(9), .integer(2)])
        #expect(second.values == [.real(4), .integer(7)])
    }

    /// Pairs of queries that differ only in one operator, one column, the length of an IN
    /// list, a NULL comparison, a function, a direction, a fragment, a limit's presence or
    /// the qualification of their columns.
    private static let differingPairs: [(Query<QueryTestPlayer>, Query<QueryTestPlayer>)] = {
        let players = QueryFixture.players.qualifyingColumns(false)
        return [
            (players.filter(Column("score") < 5), players.filter(Column("score") > 5)),
            (players.filter(Column("score") <= 5), players.filter(Column("score") >= 5)),
            (players.filter(Column("score") == 5), players.filter(Column("score") != 5)),
            (players.filter(Column("score") < 5), players.filter(Column("age") < 5)),
            (players.filter(Column("id").in([1, 2])), players.filter(Column("id").in([1, 2, 3]))),
            (players.filter(Column("name") == nil), players.filter(Column("name") == "Ann")),
            (players.filter(Column("name") != nil), players.filter(Column("name") != "Ann")),
            (players.filter(Column("name") == nil), players.filter(Column("name") != nil)),
            (players.filter(Column("score") < 5 && Column("age") > 1), players.filter(Column("score") < 5 || Column("age") > 1)),
            (players.order(Column("score").asc), players.order(Column("score").desc)),
            (players.order(Column("score").asc.nullsFirst), players.order(Column("score").asc.nullsLast)),
            (players.filter(.sql("score > ?", [1])), players.filter(.sql("score < ?", [1]))),
            (players.limit(3), players.limit(3, offset: 1)),
            (players.filter(Column("score") < 5), players.filter(Column("score") < 5).qualifyingColumns(true)),
            (players.select(Column("id")), players.select(Column("id").aliased("n"))),
            (players.select(SQLExpression.max(Column("score"))), players.select(SQLExpression.min(Column("score")))),
        ]
    }()

    @Test(arguments: 0..<differingPairs.count)
    func shapesThatDifferNeverShareTheirText(pair: Int) throws {
        let cache = QueryRenderCache(capacity: 16)
        let (lhs, rhs) = Self.differingPairs[pair]
        let left = try select(lhs, cache)
        let right = try select(rhs, cache)
        #expect(left.sql != right.sql)
        #expect(cache.count == 2)
        // Each from the cache again: still its own text, as a renderer of its own writes it.
        #expect(try select(lhs, cache).sql == uncached(lhs).sql)
        #expect(try select(rhs, cache).sql == uncached(rhs).sql)
        #expect(cache.count == 2)
    }

    @Test func cachedShapesReturnTheRightRowsForEveryValue() throws {
        try withQueryFixture { conn throws in
            let scores: [Int64: Double?] = [1: 10.0, 2: 3.0, 3: 7.5, 4: 8.0, 5: nil]
            for threshold in [0.0, 3.5, 7.5, 8.0, 9.0, 11.0] {
                let ids = try queryIDs(
                    QueryFixture.players.filter(Column("score") < threshold).order(Column("id")), conn)
                let expected = scores.filter { $0.value.map { $0 < threshold } ?? false }.keys.sorted()
                #expect(ids == expected, "below \(threshold)")
            }
            for name in ["Ann", nil, "Cy"] as [String?] {
                let ids = try queryIDs(QueryFixture.players.filter(Column("name") == name), conn)
                #expect(ids == [name == "Ann" ? 1 : name == "Cy" ? 3 : 4])
            }
            for ids in [[1, 3], [2, 4, 5], [9]] as [[Int64]] {
                let stored = ids.filter { $0 <= 5 }
                let found = try queryIDs(QueryFixture.players.filter(Column("id").in(ids)).order(Column("id")), conn)
                #expect(found == stored)
            }
        }
    }

    @Test func valuesAreCheckedOnEveryRunOfACachedShape() throws {
        let cache = QueryRenderCache(capacity: 16)
        let players = QueryFixture.players
        _ = try select(players.limit(2), cache)
        let negative = #expect(throws: DatabaseError.self) { try select(players.limit(-1), cache) }
        #expect(negative?.kind == .invalidQuery)

        _ = try select(players.filter(.sql("name = :name", ["name": "Ann"]) && .sql("team = :name", ["name": "Ann"])), cache)
        let conflicting = players.filter(.sql("name = :name", ["name": "Ann"]) && .sql("team = :name", ["name": "Bob"]))
        let conflict = #expect(throws: DatabaseError.self) { try select(conflicting, cache) }
        #expect(conflict?.kind == .invalidQuery)

        _ = try select(players.filter(Column("score") == 1.0), cache)
        let notANumber = #expect(throws: DatabaseError.self) { try select(players.filter(Column("score") == Double.nan), cache) }
        #expect(notANumber?.kind == .encoding)
    }

    @Test func aFullCacheStartsOverAndLongShapesAreNotKept() throws {
        let cache = QueryRenderCache(capacity: 4)
        for length in 1...10 {
            let query = QueryFixture.players.filter(Column("id").in(Array(0..<Int64(length))))
            #expect(try select(query, cache).sql == uncached(query).sql)
            #expect(cache.count <= 4)
        }
        cache.removeAll()
        let alternatives = (0..<Int64(QueryRenderCache.maximumTokens)).map { Column("id") == $0 }
        let long = QueryFixture.players.filter(SQLExpression.any(alternatives))
        #expect(try select(long, cache).values.count == QueryRenderCache.maximumTokens)
        #expect(cache.count == 0)
    }

    @Test func aLongInListIsOneTokenOfItsShapeAndCachedPerLength() throws {
        let cache = QueryRenderCache(capacity: 4)
        func keys(_ range: Range<Int64>) -> Query<QueryTestPlayer> {
            QueryFixture.players.filter(Column("id").in(Array(range))).qualifyingColumns(false)
        }
        let first = try select(keys(0..<5_000), cache)
        let second = try select(keys(5_000..<10_000), cache)
        #expect(cache.count == 1)
        #expect(second.sql == first.sql)
        #expect(first.sql == (try uncached(keys(0..<5_000)).sql))
        #expect(first.sql.hasSuffix(#""id" IN (?, ?, ?, "# + String(repeating: "?, ", count: 4_996) + "?)"))
        #expect(second.values.first == .integer(5_000) && second.values.last == .integer(9_999) && second.values.count == 5_000)
        #expect(try select(keys(0..<4_999), cache).sql != first.sql)
        #expect(cache.count == 2)
    }

    @Test func concurrentQueriesEachGetTheirOwnTextAndValues() throws {
        let cache = QueryRenderCache(capacity: 8)
        let failures = Guarded<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<200 {
                let value = Double(worker * 1_000 + round)
                let column = ["score", "age", "id"][round % 3]
                let query = round % 2 == 0
                    ? QueryFixture.players.filter(Column(column) < value).limit(round % 5 + 1)
                    : QueryFixture.players.filter(Column("id").in(Array(0..<Int64(round % 11 + 1))) && Column(column) > value)
                do {
                    let rendered = try select(query, cache)
                    let expected = try uncached(query)
                    if rendered.sql != expected.sql || rendered.values != expected.values {
                        failures.withLock { $0.append("\(worker)/\(round): \(rendered.sql) \(rendered.values)") }
                    }
                } catch {
                    failures.withLock { $0.append("\(worker)/\(round): \(error)") }
                }
            }
        }
        let failed = failures.withLock { $0 }
        #expect(failed == [])
        #expect(cache.count <= 8)
    }

    @Test func everyStatementOfAQueryIsCachedByItsOwnShape() throws {
        let cache = QueryRenderCache(capacity: 16)
        let query = QueryFixture.players.filter(Column("score") > 1).qualifyingColumns(false)
        let statements: [QueryStatement] = [.select, .count, .exists, .delete, .update([Column("score").set(to: 0)])]
        let texts = try statements.map { try cache.rendered($0, of: query.clauses).sql }
        #expect(Set(texts).count == statements.count)
        #expect(try cache.rendered(.update([Column("age").set(to: 0)]), of: query.clauses).sql
            == #"UPDATE "player" SET "age" = ? WHERE "score" > ?"#)
        #expect(cache.count == statements.count + 1)
    }
}
