#if SystemSQLite
import Foundation
import GRDB

// GRDB 7.10.0, used as its documentation shows: records conforming to FetchableRecord and
// PersistableRecord, a DatabaseQueue in WAL mode for one connection, a DatabasePool for
// concurrent reads, the query interface for the query workload.

/// What the benchmark needs of a GRDB record type.
protocol GRDBBenchRecord: FetchableRecord, PersistableRecord, Sendable {
    init(_ row: BenchRow)
    var benchRow: BenchRow { get }
}

/// A record with hand-written row decoding and encoding (`grdb`).
struct GRDBPlayer: GRDBBenchRecord {
    static let databaseTableName = "player"

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let score = Column("score")
        static let age = Column("age")
        static let payload = Column("payload")
    }

    var id: Int64
    var name: String
    var score: Double
    var age: Int64?
    var payload: Data?

    init(row: Row) throws {
        id = row[Columns.id]
        name = row[Columns.name]
        score = row[Columns.score]
        age = row[Columns.age]
        payload = row[Columns.payload]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container[Columns.id] = id
        container[Columns.name] = name
        container[Columns.score] = score
        container[Columns.age] = age
        container[Columns.payload] = payload
    }

    init(_ row: BenchRow) {
        (id, name, score, age, payload) = (row.id, row.name, row.score, row.age, row.payload)
    }

    var benchRow: BenchRow { BenchRow(id: id, name: name, score: score, age: age, payload: payload) }
}

/// A Codable record: GRDB derives decoding and encoding (`grdb-codable`).
struct GRDBCodablePlayer: Codable, GRDBBenchRecord {
    static let databaseTableName = "player"

    var id: Int64
    var name: String
    var score: Double
    var age: Int64?
    var payload: Data?

    init(_ row: BenchRow) {
        (id, name, score, age, payload) = (row.id, row.name, row.score, row.age, row.payload)
    }

    var benchRow: BenchRow { BenchRow(id: id, name: name, score: score, age: age, payload: payload) }
}

/// The same record, stored in the concurrent writer's table.
struct GRDBLogRecord<Base: GRDBBenchRecord>: PersistableRecord {
    static var databaseTableName: String { Schema.writerTable }
    var base: Base

    func encode(to container: inout PersistenceContainer) throws {
        try base.encode(to: &container)
    }
}

/// A GRDB contender for one record type; the workloads are a protocol extension so that
/// each conforming type gets them specialized for its record type (see `PersistanceContender`).
protocol GRDBContender: Contender {
    associatedtype Record: GRDBBenchRecord
}

struct GRDBRecordContender: GRDBContender {
    typealias Record = GRDBPlayer
    let name = "grdb"
}

struct GRDBCodableContender: GRDBContender {
    typealias Record = GRDBCodablePlayer
    let name = "grdb-codable"
}

extension GRDBContender {
    private var configuration: Configuration {
        var configuration = Configuration()
        configuration.journalMode = .wal
        return configuration
    }

    private func queue(_ path: String) throws -> DatabaseQueue {
        try DatabaseQueue(path: path, configuration: configuration)
    }

    func insert(_ rows: [BenchRow], path: String, key: String?) throws -> Duration {
        let records = rows.map(Record.init)
        let queue = try queue(path)
        try queue.write { db in try db.execute(sql: Schema.createTable(Schema.table)) }
        return try measure {
            try queue.write { db in
                for record in records {
                    try record.insert(db)
                }
            }
        }
    }

    func fetchAll(path: String, key: String?) throws -> (Duration, Checksum) {
        let queue = try queue(path)
        var records: [Record] = []
        let elapsed = try measure {
            records = try queue.read { db in try Record.fetchAll(db) }
        }
        return (elapsed, Checksum(records.lazy.map(\.benchRow)))
    }

    func fetchByID(_ ids: [Int64], path: String) throws -> (Duration, Checksum) {
        let queue = try queue(path)
        var records: [Record] = []
        records.reserveCapacity(ids.count)
        let elapsed = try measure {
            try queue.read { db in
                for id in ids {
                    if let record = try Record.fetchOne(db, key: id) {
                        records.append(record)
                    }
                }
            }
        }
        return (elapsed, Checksum(records.lazy.map(\.benchRow)))
    }

    func query(_ thresholds: [Double], path: String) throws -> (Duration, Checksum) {
        let queue = try queue(path)
        var checksum = Checksum()
        let score = Column("score")
        let age = Column("age")
        let elapsed = try measure {
            try queue.read { db in
                for threshold in thresholds {
                    let records = try Record
                        .filter(score < threshold && age != nil)
                        .order(score.desc)
                        .limit(Schema.queryLimit)
                        .fetchAll(db)
                    for record in records { checksum.add(record.benchRow) }
                }
            }
        }
        return (elapsed, checksum)
    }

    func upsert(_ rows: [BenchRow], path: String) throws -> Duration {
        let records = rows.map(Record.init)
        let queue = try queue(path)
        return try measure {
            try queue.write { db in
                for record in records {
                    try record.upsert(db)
                }
            }
        }
    }

    func concurrent(readers: Int, path: String, settings: ConcurrentSettings) async throws -> ConcurrentOutcome {
        var configuration = configuration
        configuration.maximumReaderCount = max(readers, configuration.maximumReaderCount)
        let pool = try DatabasePool(path: path, configuration: configuration)
        // Open the reader connections before the clock starts.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<readers {
                group.addTask { _ = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM player") } }
            }
            try await group.waitForAll()
        }
        let stop = Flag()
        let clock = ContinuousClock()
        return try await withThrowingTaskGroup(of: ConcurrentOutcome.self) { group in
            for _ in 0..<readers {
                group.addTask {
                    let start = clock.now
                    var reads = 0
                    repeat {
                        let records = try await pool.read { db in try Record.fetchAll(db) }
                        guard records.count == settings.expectedRows else {
                            throw BenchError("\(name) reader: \(records.count) rows, expected \(settings.expectedRows)")
                        }
                        reads += 1
                    } while clock.now - start < settings.duration
                    return ConcurrentOutcome(reads: reads, readElapsed: clock.now - start, writtenRows: 0, writeElapsed: .zero)
                }
            }
            group.addTask {
                let start = clock.now
                var nextID: Int64 = 1
                var written = 0
                while !stop.isRaised {
                    let batch = Dataset.writerRows(nextID..<nextID + Int64(settings.writerBatch))
                        .map { GRDBLogRecord(base: Record($0)) }
                    nextID += Int64(settings.writerBatch)
                    try await pool.write { db in
                        for record in batch { try record.insert(db) }
                    }
                    written += batch.count
                    if settings.writerPause > .zero { try await Task.sleep(for: settings.writerPause) }
                }
                return ConcurrentOutcome(reads: 0, readElapsed: .zero, writtenRows: written, writeElapsed: clock.now - start)
            }
            var total = ConcurrentOutcome(reads: 0, readElapsed: .zero, writtenRows: 0, writeElapsed: .zero)
            var readersLeft = readers
            while let outcome = try await group.next() {
                total.reads += outcome.reads
                total.readElapsed = max(total.readElapsed, outcome.readElapsed)
                total.writtenRows += outcome.writtenRows
                total.writeElapsed = max(total.writeElapsed, outcome.writeElapsed)
                if outcome.writeElapsed == .zero {
                    readersLeft -= 1
                    if readersLeft == 0 { stop.raise() }
                }
            }
            return total
        }
    }
}
#endif
