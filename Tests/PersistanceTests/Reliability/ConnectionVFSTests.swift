import Foundation
import Testing

@testable import Persistance

/// `Connection.Options.vfs` opens files through a named VFS, and a `DatabaseConfiguration`
/// carries it to every connection it opens.
@Suite struct ConnectionVFSTests {
    let fixture: PowerLossFixture
    init() throws { fixture = try PowerLossFixture() }

    @Test func anUnknownVFSIsATypedErrorAndCreatesNoFile() throws {
        var options = Connection.Options()
        options.vfs = "no-such-vfs"
        #expect { try Connection(path: fixture.path, options: options) } throws: { error in
            isDatabaseError(error, code: .error) && "\(error)".contains("no such vfs")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.path))
    }

    @Test func aConnectionReadsAndWritesThroughItsVFS() throws {
        let conn = try Connection(path: fixture.path, options: fixture.vfs.options)
        try conn.execute("CREATE TABLE t(a)")
        try conn.close()
        #expect(fixture.vfs.callCount(.write) > 0 && fixture.vfs.callCount(.read) > 0)
        fixture.vfs.resetCounts()
        try Connection(path: fixture.path).close()
        #expect(fixture.vfs.callCount([.read, .write, .lock]) == 0, "a connection without the option used the test VFS")
    }

    @Test func aDatabaseOpensItsWriterReadersAndBackupThroughTheConfiguredVFS() async throws {
        let db = try await Database.open(configuration: fixture.configuration(.full), readerCount: 2)
        let writerVFS = try await db.write { conn in
            try conn.execute(ItemLog.schema)
            return conn.options.vfs
        }
        let readerVFS = try await db.read { conn in conn.options.vfs }
        #expect(writerVFS == fixture.vfs.name && readerVFS == fixture.vfs.name)
        let written = fixture.vfs.callCount(.write)
        #expect(written > 0)
        // The backup's destination is written through it too.
        for try await _ in db.backup(to: fixture.directory.path("copy.sqlite")) {}
        #expect(fixture.vfs.callCount(.write) > written)
        try await db.close()
    }
}
