import Foundation

/// A uniquely named file beside a database, `.<name>.persistance-<UUID>.tmp`, in which the
/// encrypted copy of a plaintext database, a new encrypted database, a backup or a decrypted
/// copy is built before it takes its place, durably (``renameDurably(to:)``,
/// ``linkDurably(at:)``).
///
/// The file is created exclusively and keeps an exclusive `flock` lock until it is unlocked,
/// so ``removeLeftovers(besides:)`` can tell what a process that died left behind (no lock)
/// from the file of a conversion that is still running (locked), and removes only the
/// former. (`flock` locks are independent of the POSIX locks SQLite takes on the same file.)
final class TemporaryDatabaseFile {
    /// The file's path.
    let path: String
    private var descriptor: Int32

    /// What SQLite may add to a database file's name for its journal, WAL and shared memory.
    private static let companionSuffixes = CopyDestination.companionSuffixes

    /// Creates and locks a new empty file beside `databasePath` with `permissions` (less the
    /// process's umask).
    init(besides databasePath: String, permissions: mode_t) throws {
        let database = URL(fileURLWithPath: databasePath)
        let prefix = Self.prefix(of: database.lastPathComponent)
        let directory = database.deletingLastPathComponent()
        // A cleaner may lock and remove the file between its creation and our lock: then try another name.
        for _ in 1...3 {
            let path = directory.appendingPathComponent("\(prefix)\(UUID().uuidString).tmp").path
            let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
            guard descriptor >= 0 else {
                throw DatabaseError(
                    kind: .fileSystem, extendedResultCode: .cantOpen,
                    message: "cannot create \(path): \(String(cString: strerror(errno)))")
            }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0, Self.isStill(descriptor, at: path) {
                self.path = path
                self.descriptor = descriptor
                return
            }
            close(descriptor)
        }
        throw DatabaseError.fileSystem("cannot create a temporary file beside \(databasePath): it keeps being removed")
    }

    deinit {
        unlock()
    }

    /// Gives the file the permission bits of the file at `original`, and, when the process
    /// runs as root, its owner and group, so it can take the original's place unchanged.
    func adoptOwnershipAndPermissions(of original: String) throws {
        var status = stat()
        guard stat(original, &status) == 0 else {
            throw DatabaseError.fileSystem("cannot read the attributes of \(original): \(String(cString: strerror(errno)))")
        }
        if geteuid() == 0, fchown(descriptor, status.st_uid, status.st_gid) != 0 {
            throw DatabaseError.fileSystem("cannot give \(path) the owner of \(original): \(String(cString: strerror(errno)))")
        }
        guard fchmod(descriptor, status.st_mode & 0o7777) == 0 else {
            throw DatabaseError.fileSystem("cannot give \(path) the mode of \(original): \(String(cString: strerror(errno)))")
        }
    }

    /// The permission bits of the file at `path` (following symbolic links), or nil when
    /// there is no such file (an in-memory database).
    static func permissions(of path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o777
    }

    /// Gives the file exactly the permission bits `mode`, whatever the umask. SQLite creates
    /// the file's journal, WAL and shared memory with its mode.
    func setPermissions(_ mode: mode_t) throws {
        guard fchmod(descriptor, mode) == 0 else {
            throw DatabaseError.fileSystem("cannot set the mode of \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Moves the file to `destination`, replacing any file there, durably: the file's content
    /// is synced to disk, then it is renamed, then its directory is synced, so after a crash
    /// `destination` holds either its old file or this complete one.
    /// - Throws: `.fileSystem` when a step fails (the file then stays at its path).
    func renameDurably(to destination: String) throws {
        try sync()
        guard rename(path, destination) == 0 else {
            throw DatabaseError.fileSystem("cannot move \(path) to \(destination): \(String(cString: strerror(errno)))")
        }
        try Self.syncDirectory(of: destination)
    }

    /// What ``linkDurably(at:)`` did.
    enum LinkOutcome {
        /// The file has the name `destination` too, durably.
        case linked
        /// A file already had the name; nothing changed.
        case exists
        /// The file system has no hard links; nothing changed.
        case unsupported
    }

    /// Gives the file the name `destination` too, unless a file already has it (`link` never
    /// replaces a file), durably: the content is synced first and the directory after.
    func linkDurably(at destination: String) throws -> LinkOutcome {
        try sync()
        guard link(path, destination) == 0 else {
            switch errno {
            case EEXIST: return .exists
            case EPERM, ENOTSUP, EXDEV, EMLINK: return .unsupported
            default: throw DatabaseError.fileSystem("cannot create \(destination): \(String(cString: strerror(errno)))")
            }
        }
        try Self.syncDirectory(of: destination)
        return .linked
    }

    /// Writes the file's content to disk (`fsync`).
    private func sync() throws {
        guard fsync(descriptor) == 0 else {
            throw DatabaseError.fileSystem("cannot write \(path) to disk: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes the directory holding `path` to disk (`fsync`), so a name just given to a file
    /// in it survives a crash.
    private static func syncDirectory(of path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw DatabaseError.fileSystem("cannot open the directory \(directory): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw DatabaseError.fileSystem("cannot write the directory \(directory) to disk: \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the file and its SQLite companions if it is still at its path, and unlocks it.
    /// Safe to call more than once, and after the file was renamed or linked elsewhere.
    func removeAndClose() {
        if descriptor >= 0, Self.isStill(descriptor, at: path) {
            Self.remove(path)
        }
        unlock()
    }

    /// Unlocks the file. Call it only once SQLite has closed the file (closing any descriptor
    /// of a file drops every POSIX lock this process holds on it), and before opening a
    /// connection to the file under its new name.
    func unlock() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    /// Removes the temporary files beside `databasePath` that no running conversion, backup or
    /// export holds: what a process killed while converting, creating, backing up to or
    /// decrypting to that path left behind.
    static func removeLeftovers(besides databasePath: String) {
        let database = URL(fileURLWithPath: databasePath)
        let prefix = prefix(of: database.lastPathComponent)
        let directory = database.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let path = directory.appendingPathComponent(name).path
            if name.hasSuffix(".tmp") {
                removeIfAbandoned(path)
            } else if let suffix = companionSuffixes.first(where: { name.hasSuffix(".tmp" + $0) }),
                !FileManager.default.fileExists(atPath: String(path.dropLast(suffix.count)))
            {
                // A journal whose temporary file is gone belongs to nobody.
                unlink(path)
            }
        }
    }

    /// Removes the temporary file at `path` and its companions if no process holds its lock.
    private static func removeIfAbandoned(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, isStill(descriptor, at: path) else { return }
        remove(path)
    }

    /// Removes `path`'s companions, then `path`.
    private static func remove(_ path: String) {
        for suffix in companionSuffixes {
            unlink(path + suffix)
        }
        unlink(path)
    }

    /// Whether `path` still names the file open as `descriptor`.
    private static func isStill(_ descriptor: Int32, at path: String) -> Bool {
        var open = stat(), named = stat()
        return fstat(descriptor, &open) == 0 && stat(path, &named) == 0
            && open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// The start of the names of the temporary files of the database file `name`.
    private static func prefix(of name: String) -> String {
        ".\(name).persistance-"
    }
}
