import Foundation
import Testing

@testable import Persistance

/// `persistance backup` refuses to write its copy onto the file it copies.
@Suite struct ToolBackupDestinationTests {
    @Test func backupOntoTheFileOrItsCompanionsIsRefused() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("a.sqlite")
        try makeDatabaseFile(at: file, rows: 5)
        try FileManager.default.linkItem(atPath: file, toPath: directory.path("hard.sqlite"))
        try FileManager.default.createSymbolicLink(atPath: directory.path("link"), withDestinationPath: "a.sqlite-wal")
        let before = try fileBytes(file)
        for destination in ["a.sqlite", "./a.sqlite", "a.sqlite-wal", "a.sqlite-shm", "a.sqlite-journal", "hard.sqlite", "link"] {
            let run = try PersistanceTool.run(["backup", "a.sqlite", destination], in: directory)
            #expect(run.status != 0, "backup to \(destination) succeeded")
            #expect(run.errorOutput.contains("journal, WAL or shared-memory"), "\(destination): \(run.errorOutput)")
        }
        #expect(try fileBytes(file) == before)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(Set(names) == ["a.sqlite", "hard.sqlite", "link"])
    }
}
