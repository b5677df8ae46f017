import Foundation
import Testing

@testable import Persistance

/// How expressions render: quoted identifiers, `?` for every value, parentheses where SQL needs them.
@Suite struct QueryExpressionTests {
    @Test func comparisonsBindValuesOnEitherSide() throws {
        #expect(try rendered(Column("score") > 5) == ("\"score\" > ?", [5]))
        #expect(try rendered(Column("score") >= 5.5) == ("\"score\" >= ?", [5.5]))
        #expect(try rendered(Column("name") < "m") == ("\"name\" < ?", ["m"]))
        #expect(try rendered(Column("age") <= Int64.max) == ("\"age\" <= ?", [.integer(.max)]))
        #expect(try rendered(5 < Column("score")) == ("? < \"score\"", [5]))
        #expect(try rendered(Column("name") == "Ann") == ("\"name\" = ?", ["Ann"]))
        #expect(try rendered(Column("name") != "Ann") == ("\"name\" <> ?", ["Ann"]))
        #expect(try rendered("Ann" == Column("name")) == ("? = \"name\"", ["Ann"]))
        #expect(try rendered(Column("a") == Column("b")) == ("\"a\" = \"b\"", []))
        #expect(try rendered(Column("flag") == true) == ("\"flag\" = ?", [1]))
    }

    @Test func comparingWithNilRendersIsNull() throws {
        let missing: Int? = nil
        let present: Int? = 3
        #expect(try rendered(Column("name") == nil).sql == "\"name\" IS NULL")
        #expect(try rendered(Column("name") != nil).sql == "\"name\" IS NOT NULL")
        #expect(try rendered(nil == Column("name")).sql == "\"name\" IS NULL")
        #expect(try rendered(nil != Column("name")).sql == "\"name\" IS NOT NULL")
        #expect(try rendered(Column("age") == missing) == ("\"age\" IS NULL", []))
        #expect(try rendered(Column("age") == present) == ("\"age\" = ?", [3]))
        #expect(try rendered(Column("age") != DatabaseValue.null) == ("\"age\" IS NOT NULL", []))
        #expect(try rendered((Column("a") + 1) == nil).sql == "\"a\" + ? IS NULL")
        #expect(try rendered((Column("a") == 1) == nil).sql == "(\"a\" = ?) IS NULL")
    }

    @Test func logicalOperatorsFollowSQLPrecedence() throws {
        let a = Column("a") == 1, b = Column("b") == 2, c = Column("c") == 3
        #expect(try rendered(Column("score") > 5 && Column("name") != nil).sql
            == "\"score\" > ? AND \"name\" IS NOT NULL")
        #expect(try rendered(a || b && c).sql == "\"a\" = ? OR \"b\" = ? AND \"c\" = ?")
        #expect(try rendered((a || b) && c).sql == "(\"a\" = ? OR \"b\" = ?) AND \"c\" = ?")
        #expect(try rendered(a && (b && c)).sql == "\"a\" = ? AND \"b\" = ? AND \"c\" = ?")
        #expect(try rendered(!a).sql == "NOT (\"a\" = ?)")
        #expect(try rendered(!Column("flag")).sql == "NOT \"flag\"")
        #expect(try rendered(!(a && b)).sql == "NOT (\"a\" = ? AND \"b\" = ?)")
        #expect(try rendered(!a || b).sql == "NOT (\"a\" = ?) OR \"b\" = ?")
        #expect(try rendered(a && b).values == [1, 2])
    }

    @Test func allAndAnyCombineLists() throws {
        let predicates: [any SQLExpressible] = [Column("a") == 1, Column("b") == 2]
        #expect(try rendered(SQLExpression.all(predicates)).sql == "\"a\" = ? AND \"b\" = ?")
        #expect(try rendered(SQLExpression.any(predicates)).sql == "\"a\" = ? OR \"b\" = ?")
        #expect(try rendered(SQLExpression.all([])).sql == "1")
        #expect(try rendered(SQLExpression.any([])).sql == "0")
        #expect(try rendered(SQLExpression.any([Column("a") == 1])).sql == "\"a\" = ?")
        #expect(try rendered(SQLExpression.all([Column("a") || Column("b"), Column("c")])).sql
            == "(\"a\" OR \"b\") AND \"c\"")
    }

    @Test func arithmeticParenthesizesOnlyWhereNeeded() throws {
        #expect(try rendered(Column("a") + 1) == ("\"a\" + ?", [1]))
        #expect(try rendered((Column("a") + 1) * 2).sql == "(\"a\" + ?) * ?")
        #expect(try rendered(Column("a") + Column("b") * 2).sql == "\"a\" + \"b\" * ?")
        #expect(try rendered(Column("a") - Column("b") - 1).sql == "\"a\" - \"b\" - ?")
        #expect(try rendered(Column("a") - (Column("b") - 1)).sql == "\"a\" - (\"b\" - ?)")
        #expect(try rendered(Column("a") / (Column("b") * 2)).sql == "\"a\" / (\"b\" * ?)")
        #expect(try rendered(10 - Column("a")) == ("? - \"a\"", [10]))
        #expect(try rendered(Column("a") * 2 > Column("b") + 1).sql == "\"a\" * ? > \"b\" + ?")
        #expect(try rendered((Column("a") > 1) == (Column("b") > 2)).sql == "(\"a\" > ?) = (\"b\" > ?)")
    }

    @Test func inLikeAndBetween() throws {
        #expect(try rendered(Column("id").in([1, 2, 3])) == ("\"id\" IN (?, ?, ?)", [1, 2, 3]))
        #expect(try rendered(Column("id").in(Set([7]))) == ("\"id\" IN (?)", [7]))
        #expect(try rendered(Column("id").in([Int]())).sql == "0")
        #expect(try rendered(!Column("id").in([Int]())).sql == "NOT 0")
        #expect(try rendered(!Column("id").in([1])).sql == "NOT (\"id\" IN (?))")
        #expect(try rendered((Column("a") + 1).in(["x", nil])) == ("\"a\" + ? IN (?, ?)", [1, "x", nil]))
        #expect(try rendered(Column("name").like("A%")) == ("\"name\" LIKE ?", ["A%"]))
        #expect(try rendered(Column("name").like("5\\%", escape: "\\")) == ("\"name\" LIKE ? ESCAPE ?", ["5\\%", "\\"]))
        #expect(try rendered(Column("age").between(18, and: 65)) == ("\"age\" BETWEEN ? AND ?", [18, 65]))
        #expect(try rendered((Column("a") + 1).between(Column("b"), and: Column("c") * 2)).sql
            == "\"a\" + ? BETWEEN \"b\" AND \"c\" * ?")
        #expect(try rendered(Column("a").between(Column("b") == 1, and: SQLExpression.value(3))).sql
            == "\"a\" BETWEEN (\"b\" = ?) AND ?")
    }

    @Test func identifiersAreQuotedWithInnerQuotesDoubled() throws {
        #expect(try rendered(Column("we\"ird")).sql == "\"we\"\"ird\"")
        #expect(try rendered(Column("\"")).sql == "\"\"\"\"")
        #expect(try rendered(Column("a b; DROP TABLE t")).sql == "\"a b; DROP TABLE t\"")
        #expect(try rendered(Column("名前")).sql == "\"名前\"")
        #expect(throws: DatabaseError.self) { try rendered(Column("a\u{0}b")) }
        let error = #expect(throws: DatabaseError.self) { try rendered(Column("x") == Column("a\u{0}")) }
        #expect(error?.kind == .invalidQuery)
    }

    @Test func rawFragmentsKeepTheirArgumentsAndAreParenthesizedAsOperands() throws {
        let named = SQLExpression.sql("name = :name", ["name": "casa"])
        #expect(try rendered(named).sql == "name = :name")
        #expect(try rendered(named && Column("a") == 1).sql == "(name = :name) AND \"a\" = ?")
        let positional = SQLExpression.sql("length(name) > ?", [3])
        #expect(try rendered(Column("a") == 1 || positional) == ("\"a\" = ? OR (length(name) > ?)", [1, 3]))
    }

    @Test func functionsAndAggregates() throws {
        #expect(try rendered(SQLExpression.countAll).sql == "count(*)")
        #expect(try rendered(SQLExpression.count(Column("a"))).sql == "count(\"a\")")
        #expect(try rendered(SQLExpression.count(distinct: Column("a"))).sql == "count(DISTINCT \"a\")")
        #expect(try rendered(SQLExpression.sum(Column("a") * 2)).sql == "sum(\"a\" * ?)")
        #expect(try rendered(SQLExpression.total(Column("a"))).sql == "total(\"a\")")
        #expect(try rendered(SQLExpression.average(Column("a"))).sql == "avg(\"a\")")
        #expect(try rendered(SQLExpression.min(Column("a"))).sql == "min(\"a\")")
        #expect(try rendered(SQLExpression.max(Column("a")) > 3).sql == "max(\"a\") > ?")
        #expect(try rendered(SQLExpression.function("coalesce", Column("a"), SQLExpression.value(0))).sql
            == "coalesce(\"a\", ?)")
        #expect(try rendered(SQLExpression.function("random")).sql == "random()")
        for name in ["", "1abc", "abs(1); DROP TABLE t; --", "lower\"", "a b", "é"] {
            let error = #expect(throws: DatabaseError.self) { try rendered(SQLExpression.function(name, Column("a"))) }
            #expect(error?.kind == .invalidQuery)
        }
    }

    @Test func valuesThatCannotBeStoredFailWhenRendered() throws {
        let nan = #expect(throws: DatabaseError.self) { try rendered(Column("score") > Double.nan) }
        #expect(nan?.kind == .encoding)
        let huge = #expect(throws: DatabaseError.self) { try rendered(Column("id").in([UInt64.max])) }
        #expect(huge?.kind == .encoding)
        let fragment = #expect(throws: DatabaseError.self) {
            try rendered(SQLExpression.sql("a = ?", [Double.nan]))
        }
        #expect(fragment?.kind == .encoding)
    }

    @Test func expressionsAreValues() throws {
        let base = Column("a") == 1
        let extended = base && Column("b") == 2
        _ = base || extended
        #expect(try rendered(base).sql == "\"a\" = ?")
        #expect(try rendered(extended).sql == "\"a\" = ? AND \"b\" = ?")
    }
}
