import Foundation

/// What identifies a database file in the process whatever path reaches it (symbolic
/// links, hard links, `..`): its device and inode numbers.
struct DatabaseFileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path` (following symbolic links), or nil when there is none.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// The identity of the file at `path`, creating it empty, with its missing directories,
    /// when it does not exist yet; nil when it can't be created. SQLite takes an empty file
    /// for a new database (and creates its own file empty too).
    static func creatingFile(at path: String) -> DatabaseFileIdentity? {
        if let identity = DatabaseFileIdentity(path: path) { return identity }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil else {
            return nil
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        close(descriptor)
        return DatabaseFileIdentity(path: path)
    }
}
