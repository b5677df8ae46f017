import Foundation

/// The check that a database path names a regular file (or nothing yet), which connections
/// make before SQLite opens the path: opening or reading a FIFO blocks until another process
/// writes to it, and a socket, device or directory is no database.
public enum RegularFile {
    /// Throws `.notARegularFile` (result code `SQLITE_CANTOPEN`) when something other than a
    /// regular file is at `path`, following symbolic links; a missing file passes.
    public static func check(_ path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG else { return }
        throw DatabaseError(
            kind: .notARegularFile, extendedResultCode: .cantOpen,
            message: "\(path) is \(kind(of: status.st_mode)), not a regular file: it cannot be a database")
    }

    /// What a file of mode `mode` is, in words.
    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        default: "a special file"
        }
    }
}
