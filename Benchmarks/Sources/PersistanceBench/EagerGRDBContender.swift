#if SystemSQLite
import Foundation
import GRDB

// The eager-loading benchmark's GRDB contender (see EagerBenchmark.swift): GRDB's
// `including(all:)`, decoding each parent with its children.

private struct GRDBEagerParent: TableRecord, FetchableRecord, Decodable {
    static let databaseTableName = "bench_parent"
    static let children = hasMany(GRDBEagerChild.self, using: ForeignKey(["parentID"]))
    var id: Int64
    var name: String
}

private struct GRDBEagerChild: TableRecord, FetchableRecord, Decodable {
    static let databaseTableName = "bench_child"
    var id: Int64
    var parentID: Int64
    var name: String
    var value: Int
}

private struct GRDBParentWithChildren: FetchableRecord, Decodable {
    var parent: GRDBEagerParent
    var children: [GRDBEagerChild]
}

let grdbEager = EagerContender(name: "grdb") { path in
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    let request = GRDBEagerParent.including(all: GRDBEagerParent.children.forKey("children"))
        .asRequest(of: GRDBParentWithChildren.self)
    _ = try queue.read { db in try request.fetchAll(db) }
    var results: [[GRDBParentWithChildren]] = []
    let elapsed = try measure {
        try queue.read { db in
            for _ in 0..<EagerSQL.repeats { results.append(try request.fetchAll(db)) }
        }
    }
    let checksum = results.joined().reduce(0) { sum, loaded in
        sum &+ eagerChecksum((loaded.parent.id, loaded.parent.name), loaded.children.map { ($0.id, $0.name, $0.value) })
    }
    return (elapsed, checksum)
}
#endif
