import Foundation
import PersistanceMacros

/// A record declared once: `@Table` generates its table, its typed columns and its coding.
@Table("hero", indexes: [.index("hero_team_power", on: ["team", "power"])])
struct Hero {
    enum Team: String, Codable { case red, blue }

    @Column(primaryKey: .autoincrement) var id: Int64?
    @Column(unique: true) var name: String
    var power: Double = 0
    var team: Team = .red
    var joined: Date?
}

/// Shows a record declared with `@Table`: the table it generates, inserts that set the new
/// id, and typed queries, finds and updates (comparing `name` with a number would not compile).
func runMacroRecordsDemo(in directory: String) throws {
    let path = URL(fileURLWithPath: directory).appendingPathComponent("macro-demo.sqlite").path
    let conn = try Connection(path: path)
    defer { try? conn.close() }

    section("Records from one declaration (@Table)")
    print("table \(Hero.table.name):", Hero.table.columns.map { "\($0.name) \($0.affinity.rawValue)" }.joined(separator: ", "))
    var heroes = [
        Hero(name: "Ann", power: 9.5, team: .blue, joined: Date(timeIntervalSince1970: 1_700_000_000)),
        Hero(name: "Bob", power: 4),
        Hero(name: "Cy", power: 7, team: .blue),
    ]
    try Hero.table.insert(contentsOf: &heroes, in: conn)
    print("ids set on insert:", heroes.compactMap(\.id))
    let hero = Hero.columns
    let strongBlue = try Hero.table.query()
        .filter(hero.team == .blue && hero.power > 5)
        .order(hero.power.desc)
        .fetchAll(conn)
    print("strong blue heroes:", strongBlue.map(\.name))
    let bob = try Hero.table.findFirst(where: hero.name, equals: "Bob", in: conn)
    print("Bob's team:", bob?.team.rawValue ?? "none")
    let promoted = try Hero.table.query().filter(hero.team == .red).updateAll(conn, hero.team.set(to: .blue))
    print("heroes moved to blue:", promoted, "- blue heroes now:", try Hero.table.count(where: hero.team, equals: .blue, in: conn))
}
