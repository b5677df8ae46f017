import Foundation
import Testing

@testable import Persistance

/// A file moved into place (a backup, an encrypted or a decrypted copy) is synced before it
/// is renamed or linked, and its directory after, so a crash cannot leave the new name
/// pointing at unwritten pages or lose the rename. Checked on the system calls the tool
/// makes (strace).
@Suite struct DurableRenameTests {
    private static let calls = ["fsync", "fdatasync", "rename", "renameat", "renameat2", "link", "linkat"]

    /// Checks that in `trace` the temporary file beside `destination` is synced, then given
    /// the name `destination` (by a successful rename or link), then the directory is synced.
    private func expectDurableMove(to destination: String, in directory: TemporaryDirectory, trace: [String]) {
        let temporary = "/.\(destination).persistance-"
        let targets = ["\"\(destination)\") = 0", "\"\(directory.path(destination))\") = 0"]
        let isMove = { (line: String) in !line.contains("sync") && line.contains(temporary) && targets.contains(where: line.hasSuffix) }
        guard let move = trace.lastIndex(where: isMove) else {
            Issue.record("no rename or link of a temporary file to \(destination): \(trace)")
            return
        }
        let fileSync = trace[..<move].lastIndex { $0.contains("sync(") && $0.contains(temporary) && $0.hasSuffix("= 0") }
        #expect(fileSync != nil, "the file was not synced before it was moved: \(trace)")
        let directorySync = trace[move...].firstIndex { $0.contains("sync(") && $0.contains("<\(directory.url.path)>") }
        #expect(directorySync != nil, "the directory was not synced after the move: \(trace)")
    }

    @Test func backupIsSyncedRenamedThenItsDirectorySynced() throws {
        let directory = try TemporaryDirectory()
        try makeDatabaseFile(at: directory.path("a.sqlite"), rows: 20)
        let (run, trace) = try PersistanceTool.traced(["backup", "a.sqlite", "b.sqlite"], calls: Self.calls, in: directory)
        #expect(run.status == 0, "\(run.errorOutput)")
        expectDurableMove(to: "b.sqlite", in: directory, trace: trace)
    }

    @Test(.enabled(if: SQLiteEngine.isSQLCipher)) func encryptedAndDecryptedCopiesAreMovedDurably() throws {
        let directory = try TemporaryDirectory()
        try makeDatabaseFile(at: directory.path("a.sqlite"), rows: 20)
        let key = ["PERSISTANCE_KEY": "k"]
        let (encrypt, encryptTrace) = try PersistanceTool.traced(["encrypt", "a.sqlite"], calls: Self.calls, environment: key, in: directory)
        #expect(encrypt.status == 0, "\(encrypt.errorOutput)")
        expectDurableMove(to: "a.sqlite", in: directory, trace: encryptTrace)
        let (decrypt, decryptTrace) = try PersistanceTool.traced(
            ["decrypt", "a.sqlite", "plain.sqlite"], calls: Self.calls, environment: key, in: directory)
        #expect(decrypt.status == 0, "\(decrypt.errorOutput)")
        expectDurableMove(to: "plain.sqlite", in: directory, trace: decryptTrace)
    }
}
