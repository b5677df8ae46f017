import Foundation
import PersistanceMacros

/// A league: teams, their players, the players' scores, and each team's stadium.
@Table("league team")
struct LeagueTeam: Equatable {
    @Column(primaryKey: .autoincrement) var id: Int64?
    var name: String

    static let players = hasMany(LeaguePlayer.self, using: LeaguePlayer.columns.teamID)
    static let stadium = hasOne(LeagueStadium.self, using: LeagueStadium.columns.teamID)
    static let scores = hasMany(LeagueScore.self, through: players, using: LeaguePlayer.scores)
}

@Table("league \"player\"")
struct LeaguePlayer: Equatable {
    @Column(primaryKey: .autoincrement) var id: Int64?
    @Column("team \"id\"", references: LeagueTeam.self, onDelete: .cascade) var teamID: Int64?
    var name: String
    var points: Int = 0

    static let team = belongsTo(LeagueTeam.self, using: LeaguePlayer.columns.teamID)
    static let scores = hasMany(LeagueScore.self, using: LeagueScore.columns.playerID)
}

@Table("league_score")
struct LeagueScore: Equatable {
    @Column(primaryKey: .autoincrement) var id: Int64?
    @Column(references: LeaguePlayer.self, onDelete: .cascade) var playerID: Int64
    var value: Int
}

@Table("league_stadium")
struct LeagueStadium: Equatable {
    @Column(primaryKey: .autoincrement) var id: Int64?
    @Column(references: LeagueTeam.self, onDelete: .cascade) var teamID: Int64
    var city: String
}

/// A student's courses, through enrollments (many-to-many).
@Table("school_student")
struct SchoolStudent: Equatable {
    @Column(primaryKey: .autoincrement) var id: Int64?
    var name: String

    static let enrollments = hasMany(SchoolEnrollment.self, using: SchoolEnrollment.columns.studentID)
    static let courses = hasMany(SchoolCourse.self, through: enrollments, using: SchoolEnrollment.course)
}

@Table("school_course")
struct SchoolCourse: Equatable {
    @Column(primaryKey: .autoincrement) var id: Int64?
    var title: String
}

@Table("school_enrollment")
struct SchoolEnrollment: Equatable {
    @Column(primaryKey: .autoincrement) var id: Int64?
    @Column(references: SchoolStudent.self) var studentID: Int64
    @Column(references: SchoolCourse.self) var courseID: Int64

    static let course = belongsTo(SchoolCourse.self, using: SchoolEnrollment.columns.courseID)
}

/// Two teams: Reds (Ann 30 with scores 10 and 20, Bob 5 with none) and Blues (no players);
/// the Reds play at Lyon.
func insertLeague(_ conn: Connection) throws -> (reds: LeagueTeam, blues: LeagueTeam) {
    var reds = LeagueTeam(id: nil, name: "Reds")
    var blues = LeagueTeam(id: nil, name: "Blues")
    try LeagueTeam.table.insert(&reds, in: conn)
    try LeagueTeam.table.insert(&blues, in: conn)
    var ann = LeaguePlayer(id: nil, teamID: reds.id, name: "Ann", points: 30)
    var bob = LeaguePlayer(id: nil, teamID: reds.id, name: "Bob", points: 5)
    try LeaguePlayer.table.insert(&ann, in: conn)
    try LeaguePlayer.table.insert(&bob, in: conn)
    for value in [10, 20] {
        var score = LeagueScore(id: nil, playerID: ann.id!, value: value)
        try LeagueScore.table.insert(&score, in: conn)
    }
    var stadium = LeagueStadium(id: nil, teamID: reds.id!, city: "Lyon")
    try LeagueStadium.table.insert(&stadium, in: conn)
    return (reds, blues)
}
