import Foundation
import PersistanceMacros
import Testing

// The README's "Records from one declaration" example, verbatim between the markers.
// README records-from-one-declaration begins
enum Rank: String, Codable { case rookie, pro }
struct Contact: Codable, Equatable { var email: String }

@Table("athlete", indexes: [.index("athlete_team_points", on: ["team", "points"], unique: false)])
struct Athlete: Equatable {
    @Column(primaryKey: .autoincrement) var id: Int64?
    @Column(unique: true) var name: String
    @Column(indexed: true) var team: String = "free agents"   // DEFAULT 'free agents'; read for NULL
    var points: Int = 0
    var rank: Rank = .rookie                                  // TEXT, the raw value
    var born: Date?                                           // by `databaseDateStrategy`
    var contact: Contact?                                     // JSON text
    @Column("photo_data") var photo: Data?
    @Transient var isSelected = false                         // not stored
}

func athletes(in conn: Connection) throws -> ([String], Int, Athlete?) {
    var kim = Athlete(name: "Kim", team: "owls", points: 31, rank: .pro)
    try Athlete.table.insert(&kim, in: conn)                  // creates the table; kim.id == 1
    try Athlete.table.insert(Athlete(name: "Lu", points: 12), in: conn)
    let athlete = Athlete.columns
    let pros = try Athlete.table.query()
        .filter(athlete.rank == .pro && athlete.points >= 20)  // `athlete.points > "20"` does not compile
        .order(athlete.points.desc)
        .fetchAll(conn)
        .map(\.name)                                          // ["Kim"]
    try Athlete.table.query()
        .filter(athlete.team == "free agents")
        .updateAll(conn, athlete.team.set(to: "owls"))
    let owls = try Athlete.table.count(where: athlete.team, equals: "owls", in: conn)   // 2
    let lu = try Athlete.table.findFirst(where: athlete.name, equals: "Lu", in: conn)
    return (pros, owls, lu)
}
// README records-from-one-declaration ends

@Suite struct ReadmeMacroRecordsTests {
    @Test func readmeRecordsFromOneDeclaration() throws {
        try withTemporaryConnection { conn in
            let (pros, owls, lu) = try athletes(in: conn)
            #expect(pros == ["Kim"])
            #expect(owls == 2)
            #expect(lu?.id == 2)
            #expect(lu?.team == "owls")
            #expect(lu?.rank == .rookie)
            let columns = try conn.fetchAll("PRAGMA table_info(athlete)").map { try $0.value(named: "name") as String }
            #expect(columns == ["id", "name", "team", "points", "rank", "born", "contact", "photo_data"])
        }
    }
}
