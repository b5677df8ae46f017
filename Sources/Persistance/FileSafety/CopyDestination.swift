import Foundation

/// The check that a copy of a database is not written onto the database itself.
///
/// A copy is moved into place by a `rename` that replaces whatever file has the
/// destination's name: onto the database, or onto its `-wal`, `-journal` or `-shm` file, it
/// would destroy acknowledged commits (a WAL replaced by a database copy makes the next open
/// discard the log).
enum CopyDestination {
    /// What SQLite adds to a database file's name for its companion files.
    static let companionSuffixes = ["-journal", "-wal", "-shm"]

    /// Throws `.unsafeDestination` when `destination` is the database at `source` or one of
    /// its companion files: by name (relative paths, `..`, symbolic links, existing or not)
    /// or by device and inode (hard links). An in-memory source has no file to protect.
    static func check(_ destination: String, copyOf source: String) throws {
        guard !source.isEmpty, source != ":memory:" else { return }
        let sources = Set([source, try LinkTarget.of(source)].map(DatabasePath.canonical))
        let protected = sources.flatMap { database in [database] + companionSuffixes.map { database + $0 } }
        let destinations = Set([destination, try LinkTarget.of(destination)].map(DatabasePath.canonical))
        let identities = Set(protected.compactMap(DatabaseFileIdentity.init(path:)))
        let sharesIdentity = DatabaseFileIdentity(path: destination).map(identities.contains) ?? false
        guard sharesIdentity || !destinations.isDisjoint(with: protected) else { return }
        throw DatabaseError(
            kind: .unsafeDestination,
            message: "cannot write a copy of \(source) to \(destination): it is the database itself or one of its "
                + "journal, WAL or shared-memory files, which the copy would destroy; nothing was written")
    }
}
