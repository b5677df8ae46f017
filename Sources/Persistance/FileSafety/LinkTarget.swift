import Foundation

/// Where a chain of symbolic links ends.
enum LinkTarget {
    /// The path the symbolic links at `path` lead to, each relative target taken against
    /// its link's directory; `path` itself when it is no symbolic link. The last target
    /// need not exist. Throws `.fileSystem` for a loop of links.
    static func of(_ path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { return current }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/")
                ? target
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(target).path
        }
        throw DatabaseError.fileSystem("\(path): too many levels of symbolic links")
    }
}
