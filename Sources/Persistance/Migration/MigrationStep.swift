/// One step of a ``Migrator``: how the schema moves up to ``version`` from the version
/// before it, and optionally back down.
///
/// A step runs inside a transaction together with the update of the stored version, on the
/// connection it is given: use that connection directly (and tables with it), never open
/// the same database again from inside a step. Statements that cannot run in a transaction
/// (`VACUUM`, `PRAGMA foreign_keys`, `PRAGMA journal_mode`) do not belong in a step.
///
/// ```swift
/// MigrationStep("2") { conn in
///     try conn.execute("ALTER TABLE player ADD COLUMN level INTEGER NOT NULL DEFAULT 1")
/// }
/// ```
public struct MigrationStep: Sendable {
    /// The version the database is at once the step has run.
    public let version: String
    /// Moves the schema from the previous version up to ``version``.
    public let up: @Sendable (Connection) throws -> Void
    /// Moves the schema from ``version`` back down to the previous version, if the step can.
    public let down: (@Sendable (Connection) throws -> Void)?
    /// The SQL statements the step runs, in order, when it was made from SQL text
    /// (`init(_:sql:)`): only such steps run on any engine (see `Migrator.migrate(_:reconciling:)`
    /// on an `AsyncDatabase`). Nil for a step written as a block on a `Connection`.
    public let statements: [String]?

    /// A step up to `version`, with an optional way back down.
    public init(
        _ version: String,
        up: @escaping @Sendable (Connection) throws -> Void,
        down: (@Sendable (Connection) throws -> Void)? = nil
    ) {
        self.version = version
        self.up = up
        self.down = down
        statements = nil
    }

    /// A step up to `version` that runs `statements` in order: it runs on any engine, so the
    /// statements must be SQL that every engine the app uses accepts.
    ///
    /// ```swift
    /// MigrationStep("2", sql: ["ALTER TABLE player ADD COLUMN level INTEGER NOT NULL DEFAULT 1"])
    /// ```
    public init(_ version: String, sql statements: [String]) {
        self.version = version
        up = { connection in
            for sql in statements {
                try connection.execute(sql)
            }
        }
        down = nil
        self.statements = statements
    }
}
