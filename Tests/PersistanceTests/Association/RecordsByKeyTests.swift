import Testing

@testable import Persistance

/// Grouping an association's records by key as its rows are read.
@Suite struct RecordsByKeyTests {
    @Test func runsAndInterleavedKeysKeepEachKeysOrder() {
        var records = RecordsByKey<String>(keyCount: 3)
        let rows: [(String, DatabaseValue)] = [
            ("a", 1), ("b", 1), ("c", 2), ("d", 1), ("e", "x"), ("f", 2), ("g", 2), ("h", 1),
        ]
        for (record, key) in rows {
            records.add(record, key: key)
        }
        let grouped = records.finish()
        #expect(grouped == [1: ["a", "b", "d", "h"], 2: ["c", "f", "g"], "x": ["e"]])
    }

    @Test func noRecordsGroupNothing() {
        var records = RecordsByKey<Int>(keyCount: 0)
        #expect(records.finish().isEmpty)
    }
}
