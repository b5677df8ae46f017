/// The rules for database names and the target names derived from them.
///
/// A database name is a relative path: a file name, optionally below subfolders
/// (`"game.sqlite"`, `"users/42/inbox_main.sqlite"`). Its target name is its last path
/// component cut at the first `_`, then at the first `.`: `aaa.sqlite`, `aaa_bbb.sqlite`,
/// `aaa_bbb`, `aaa.abc.sqlite` and `aaa` all belong to the target `aaa`.
enum DatabaseName {
    /// Throws a `.configuration` error unless `name` is a usable relative database name:
    /// not empty, no NUL, not absolute, no empty, `.` or `..` path component.
    static func validate(_ name: String) throws {
        guard !name.isEmpty else {
            throw DatabaseError.configuration("the database name is empty")
        }
        guard !name.utf8.contains(0) else {
            throw DatabaseError.configuration("the database name contains a NUL character")
        }
        guard !name.hasPrefix("/") else {
            throw DatabaseError.configuration(
                "the database name \"\(name)\" is absolute; names are relative to the default directory "
                    + "(a target's filePath(for:) can answer an absolute path)")
        }
        for component in name.split(separator: "/", omittingEmptySubsequences: false) {
            if component.isEmpty || component == "." || component == ".." {
                throw DatabaseError.configuration(
                    "the database name \"\(name)\" has an empty, \".\" or \"..\" path component")
            }
        }
    }

    /// The target name of a database name: last path component, cut at the first `_`, then at the first `.`.
    static func targetName(of name: String) -> String {
        let file = name.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        let beforeUnderscore = file.prefix { $0 != "_" }
        return String(beforeUnderscore.prefix { $0 != "." })
    }

    /// Throws a `.configuration` error unless `name` is a name a database name can map to:
    /// not empty, and without `_`, `.`, `/` or NUL.
    static func validateTargetName(_ name: String) throws {
        guard !name.isEmpty else {
            throw DatabaseError.configuration("the target name is empty")
        }
        guard !name.contains(where: { "_./\0".contains($0) }) else {
            throw DatabaseError.configuration(
                "the target name \"\(name)\" contains \"_\", \".\", \"/\" or NUL, so no database name maps to it")
        }
    }
}
