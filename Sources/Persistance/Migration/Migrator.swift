/// Brings a database's schema up to date, one versioned step at a time.
///
/// A migrator is an ordered list of opaque version strings: ``initialVersion``, then the
/// version of each ``MigrationStep``. The database's current version is stored in a table
/// the library owns (`persistance_schema_version`). On open:
///
/// - a brand-new database (nothing in its schema) is stamped with ``latestVersion`` and runs
///   no step: its tables are created from their current definition;
/// - a database with tables but no stored version (created before a migrator was
///   configured) is taken to be at ``initialVersion``;
/// - a database at version N runs every step after N, in order, each in its own `IMMEDIATE`
///   transaction together with the update of the stored version. The stored version is
///   re-read inside each transaction, so several connections or processes opening the
///   same file at once run every step exactly once;
/// - a step that throws rolls its transaction back: the version stays at the last step
///   that succeeded and the error (`.migrationFailed`) names the version; the next open
///   retries from there;
/// - a stored version that is not in the list is an `.unknownSchemaVersion` error, never
///   a silent skip;
/// - steps run with foreign key enforcement off (when the connection is not already in a
///   transaction), as SQLite advises for schema changes, and each step's transaction checks
///   foreign keys (`PRAGMA foreign_key_check`) before it commits: a step that leaves a
///   dangling reference fails like a step that throws.
///
/// ```swift
/// let migrator = Migrator(initialVersion: "1", steps: [
///     MigrationStep("2") { conn in
///         try conn.execute("ALTER TABLE player ADD COLUMN level INTEGER NOT NULL DEFAULT 1")
///     },
///     MigrationStep("3", up: { conn in
///         try conn.execute("CREATE INDEX player_level ON player(level)")
///     }, down: { conn in
///         try conn.execute("DROP INDEX player_level")
///     }),
/// ])
/// ```
public struct Migrator: Sendable {
    /// The version of a database before any step has run.
    public let initialVersion: String
    /// The steps, in order; each moves the schema up to its version.
    public let steps: [MigrationStep]

    /// A migrator from `initialVersion` through each step's version in order.
    /// Versions must be non-empty and distinct; this is checked when the migrator runs.
    public init(initialVersion: String = "1", steps: [MigrationStep] = []) {
        self.initialVersion = initialVersion
        self.steps = steps
    }

    /// Every version, in order: the initial version, then each step's.
    public var versions: [String] { [initialVersion] + steps.map(\.version) }

    /// The version a fully migrated database is at.
    public var latestVersion: String { steps.last?.version ?? initialVersion }

    /// The version stored in the database, or nil when it has none yet.
    public func storedVersion(in connection: Connection) throws -> String? {
        guard case .versioned(let version) = try SchemaVersionTable.state(in: connection) else { return nil }
        return version
    }

    /// Runs every pending step, each in its own transaction, and returns the versions it
    /// moved through (empty when the database was up to date or brand new).
    ///
    /// - Throws: `.migrationFailed` naming the version whose step threw (earlier steps stay
    ///   applied); `.unknownSchemaVersion` when the stored version is not in ``versions``;
    ///   `.configuration` when the versions are empty or repeated.
    @discardableResult
    public func migrate(_ connection: Connection) throws -> [String] {
        try validate()
        return try ForeignKeys.suspendingEnforcement(connection) {
            var applied: [String] = []
            while let version = try connection.transaction(.immediate, { try stepUp(connection) }) {
                applied.append(version)
            }
            return applied
        }
    }

    /// Runs the `down` steps from the stored version back to `version`, each in its own
    /// transaction, and returns the versions it undid. For tooling.
    ///
    /// - Throws: `.unknownSchemaVersion` when `version` or the stored version is not in
    ///   ``versions``; `.migrationFailed` when a step on the way has no `down` (checked
    ///   before anything changes) or its `down` throws; `.misuse` when the database is below `version`.
    @discardableResult
    public func migrateDown(_ connection: Connection, to version: String) throws -> [String] {
        try validate()
        guard let target = versions.firstIndex(of: version) else {
            throw DatabaseError.unknownSchemaVersion(
                "cannot migrate down to \"\(version)\": it is not one of the versions \(versions)")
        }
        let current = try storedIndex(in: connection)
        guard current >= target else {
            throw DatabaseError.misuse(
                "the database is at version \"\(versions[current])\", below \"\(version)\"; migrate(_:) moves up")
        }
        for step in steps[target..<current] {
            _ = try Self.down(of: step)
        }
        return try ForeignKeys.suspendingEnforcement(connection) {
            var reverted: [String] = []
            while let undone = try connection.transaction(.immediate, { try stepDown(connection, to: target) }) {
                reverted.append(undone)
            }
            return reverted
        }
    }

    /// Runs the next pending step and stores its version; returns that version, or nil when
    /// there is nothing to do. Runs inside the caller's transaction.
    private func stepUp(_ connection: Connection) throws -> String? {
        let index: Int
        switch try SchemaVersionTable.state(in: connection) {
        case .empty:
            try SchemaVersionTable.write(latestVersion, in: connection)
            return nil
        case .unversioned:
            try SchemaVersionTable.write(initialVersion, in: connection)
            index = 0
        case .versioned(let version):
            index = try self.index(ofStored: version)
        }
        guard index < steps.count else { return nil }
        let step = steps[index]
        do {
            try step.up(connection)
            try ForeignKeys.check(connection)
        } catch {
            throw DatabaseError.migrationFailed("migrating up to version \"\(step.version)\"", underlying: error)
        }
        try SchemaVersionTable.write(step.version, in: connection)
        return step.version
    }

    /// Undoes the step of the stored version if it is above `target`; returns that version,
    /// or nil when the database is at `target`. Runs inside the caller's transaction.
    private func stepDown(_ connection: Connection, to target: Int) throws -> String? {
        let index = try storedIndex(in: connection)
        guard index > target else { return nil }
        let step = steps[index - 1]
        let down = try Self.down(of: step)
        do {
            try down(connection)
            try ForeignKeys.check(connection)
        } catch {
            throw DatabaseError.migrationFailed("migrating down from version \"\(step.version)\"", underlying: error)
        }
        try SchemaVersionTable.write(versions[index - 1], in: connection)
        return step.version
    }

    /// The position in ``versions`` of the stored version.
    private func storedIndex(in connection: Connection) throws -> Int {
        guard let version = try storedVersion(in: connection) else {
            throw DatabaseError.unknownSchemaVersion("the database has no stored schema version")
        }
        return try index(ofStored: version)
    }

    func index(ofStored version: String) throws -> Int {
        guard let index = versions.firstIndex(of: version) else {
            throw DatabaseError.unknownSchemaVersion(
                "the stored schema version \"\(version)\" is not one of the migrator's versions \(versions)")
        }
        return index
    }

    private static func down(of step: MigrationStep) throws -> @Sendable (Connection) throws -> Void {
        guard let down = step.down else {
            throw DatabaseError(
                kind: .migrationFailed, message: "version \"\(step.version)\" has no down step to migrate back")
        }
        return down
    }

    func validate() throws {
        let all = versions
        if all.contains(where: \.isEmpty) {
            throw DatabaseError.configuration("a migrator version is empty")
        }
        if Set(all).count != all.count {
            throw DatabaseError.configuration("the migrator's versions \(all) repeat a version")
        }
    }
}
