import Foundation

/// The canonical form of a database file's path, which identifies the file in the
/// open-database registry.
enum DatabasePath {
    /// The absolute path of `path` with `.`, `..` and symbolic links resolved against the
    /// current directory. For a file that does not exist yet, its directory is resolved and
    /// the file name kept.
    static func canonical(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL
        if let resolved = realPath(absolute.path) {
            return resolved
        }
        let name = absolute.lastPathComponent
        guard let directory = realPath(absolute.deletingLastPathComponent().path) else {
            return absolute.path
        }
        return URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(name).path
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
