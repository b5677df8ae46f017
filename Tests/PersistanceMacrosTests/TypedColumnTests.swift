import Foundation
import PersistanceMacros
import Testing

@Suite struct TypedColumnTests {
    static func seed(_ conn: Connection) throws -> [Member] {
        var members = [
            Member(id: nil, name: "Ann", score: 10, age: 30, role: .admin, joined: Date(timeIntervalSince1970: 0), team: "red"),
            Member(id: nil, name: "Bob", score: 3, age: nil, joined: Date(timeIntervalSince1970: 0), team: "blue"),
            Member(id: nil, name: "Cy", score: 7, age: 3, joined: Date(timeIntervalSince1970: 0), team: "red", tags: ["x"]),
        ]
        try Member.table.insert(contentsOf: &members, in: conn)
        return members
    }

    @Test func filtersOrdersAndSelectsWithTypedColumns() throws {
        try withTemporaryConnection { conn in
            _ = try Self.seed(conn)
            let columns = Member.columns
            let names = try Member.table.query()
                .filter(columns.score > 5 && columns.age != nil)
                .order(columns.score.desc)
                .fetchAll(conn)
                .map(\.name)
            #expect(names == ["Ann", "Cy"])
            #expect(try Member.table.query().filter(columns.role == .admin).fetchAll(conn).map(\.name) == ["Ann"])
            #expect(try Member.table.query().filter(columns.age == nil).fetchAll(conn).map(\.name) == ["Bob"])
            #expect(try Member.table.query().filter(columns.name.in(["Bob", "Cy"])).order(columns.name).fetchAll(conn).map(\.name) == ["Bob", "Cy"])
            #expect(try Member.table.query().filter(columns.name.like("a%")).fetchAll(conn).map(\.name) == ["Ann"])
            #expect(try Member.table.query().filter(columns.score.between(3, and: 7)).fetchCount(conn) == 2)
            #expect(try Member.table.query().filter(columns.tags == ["x"]).fetchAll(conn).map(\.name) == ["Cy"])
            let best = try Member.table.query().select(columns.name).order(columns.score.desc).fetchOne(String.self, conn)
            #expect(best == "Ann")
            #expect(try Member.table.query().filter(columns.score > Column("age")).fetchCount(conn) == 1)
        }
    }

    @Test func updateAllTakesTypedAssignments() throws {
        try withTemporaryConnection { conn in
            _ = try Self.seed(conn)
            let columns = Member.columns
            let updated = try Member.table.query().filter(columns.team == "red")
                .updateAll(conn, columns.score.set(to: 1), columns.role.set(to: .admin), columns.tags.set(to: ["y", "z"]))
            #expect(updated == 2)
            let red = try Member.table.findAll(where: columns.team, equals: "red", in: conn)
            #expect(red.map(\.score) == [1, 1])
            #expect(red.map(\.role) == [.admin, .admin])
            #expect(red.map(\.tags) == [["y", "z"], ["y", "z"]])
            try Member.table.query().updateAll(conn, columns.score.set(to: columns.score.sqlExpression + 1))
            #expect(try Member.table.findFirst(where: columns.name, equals: "Bob", in: conn)?.score == 4)
        }
    }

    @Test func tableFindsCountsAndDeletesTakeTypedColumns() throws {
        try withTemporaryConnection { conn in
            _ = try Self.seed(conn)
            let columns = Member.columns
            #expect(try Member.table.findAll(where: columns.name, isIn: ["Ann", "Cy", "Zed"], in: conn).count == 2)
            #expect(try Member.table.findAll(where: columns.name, isIn: [String](), in: conn).isEmpty)
            #expect(try Member.table.findAll(where: columns.age, equals: nil, in: conn).map(\.name) == ["Bob"])
            #expect(try Member.table.findAll(where: columns.score >= 7, in: conn).count == 2)
            #expect(try Member.table.count(where: columns.team, equals: "red", in: conn) == 2)
            #expect(try Member.table.count(where: columns.score < 5, in: conn) == 1)
            #expect(try Member.table.deleteAll(where: columns.team, equals: "blue", in: conn) == 1)
            #expect(try Member.table.deleteAll(where: columns.score > 8, in: conn) == 1)
            #expect(try Member.table.count(in: conn) == 1)
        }
    }

    @Test func aValueThatCannotBeStoredIsAnErrorWhenTheQueryRuns() throws {
        try withTemporaryConnection { conn in
            _ = try Self.seed(conn)
            let error = expectDatabaseError(.encoding) {
                try Member.table.query().filter(Member.columns.score > .nan).fetchAll(conn)
            }
            #expect(error != nil)
        }
    }
}
