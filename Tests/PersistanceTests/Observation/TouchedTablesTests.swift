import Testing

@testable import Persistance

@Suite("Touched tables")
struct TouchedTablesTests {
    private func batch(_ sequence: UInt64, _ tables: [String], payload: Bool = false, external: Bool = false) -> CommittedChanges {
        var batch = CommittedChanges(
            rows: tables.map { RowChange(table: $0, kind: .insert, rowID: 1) }, payloads: payload ? ["event"] : [],
            isExternal: external)
        batch.sequence = sequence
        return batch
    }

    @Test("a table counts as touched after a sequence only by a later commit, whatever its case")
    func laterCommitsTouch() {
        let touched = TouchedTables([batch(1, ["Player"]), batch(2, ["item"])])
        #expect(touched.touch(["player"], after: 0))
        #expect(!touched.touch(["player"], after: 1))
        #expect(touched.touch(["item"], after: 1))
        #expect(!touched.touch(["item", "player"], after: 2))
        #expect(!touched.touch(["team"], after: 0))
    }

    @Test("an unknown region is touched by any change; an external commit touches every region")
    func unknownRegionsAndExternalCommits() {
        let payloadOnly = TouchedTables([batch(3, [], payload: true)])
        #expect(payloadOnly.touch(nil, after: 2))
        #expect(!payloadOnly.touch(["player"], after: 2))
        let external = TouchedTables([batch(4, [], external: true), batch(5, ["item"])])
        #expect(external.touch(["player"], after: 3))
        #expect(!external.touch(["player"], after: 4))
        #expect(TouchedTables([]).touch(nil, after: 0) == false)
    }
}
