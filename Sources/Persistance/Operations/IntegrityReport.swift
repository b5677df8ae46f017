/// The outcome of an integrity check: sound, or the problems SQLite found.
///
/// ```swift
/// switch try await db.checkIntegrity(.quick) {
/// case .ok: print("sound")
/// case .problems(let problems): problems.forEach { print($0) }
/// }
/// ```
public enum IntegrityReport: Sendable, Hashable {
    /// SQLite found no problem.
    case ok
    /// What SQLite reported, one problem per element, in its order (for example
    /// `"row 12 missing from index item_name"`, or `"database disk image is malformed"`
    /// when the check could not even read the file's structure).
    case problems([String])

    /// How thoroughly to check.
    public enum Depth: Sendable, Hashable {
        /// `PRAGMA quick_check`: the structure of every page and record, without checking
        /// that indexes match their tables; much faster on large files.
        case quick
        /// `PRAGMA integrity_check`: everything `quick` checks, and that every index holds
        /// exactly its table's rows.
        case full
    }

    /// Whether SQLite found no problem.
    public var isOK: Bool { self == .ok }
}
