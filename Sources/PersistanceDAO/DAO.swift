import Foundation
import Persistance

/// A data access object: the methods of a ``DAOModule`` run against a `Database`.
///
/// ```swift
/// let dao = try DAO(module: DAOModule(path: "demo.xml"), database: db)
/// try await dao.call("insertItem", ["content": "something"])
/// let id = try await dao.lastInsertRowID()
/// let content = try await dao.call("getItem", ["index": .integer(id)]).decode(String?.self)
/// ```
///
/// Each call is one transaction: a `select` runs on a reader connection, every other method
/// on the writer; a `foreach` method runs all its iterations, and a method with `step`s all
/// its steps, in that one transaction, which rolls back when a statement fails (a
/// `resumable` step's failure is undone alone and the method goes on). Before the first
/// call for a table name, the table is created or upgraded to the module's version, one
/// `<upgrade>` block per transaction. When any DAO on the database drops tables
/// (``deleteTable()``, ``deleteTables(matching:vacuum:progress:)``), every DAO on it prepares
/// its table again on its next call. A DAO is `Sendable`; its settings (table name, global arguments, cipher, event handler)
/// can change at any time and apply to the calls that start afterwards.
public final class DAO: Sendable {
    /// The module whose methods the DAO runs.
    public let module: DAOModule
    /// The database the methods run against.
    public let database: Database

    private struct Settings {
        // Changing any setting a call's context holds drops the kept context.
        var tableName: String? { didSet { context = nil } }
        var globalArguments: [String: DAOValue] = [:] { didSet { context = nil } }
        var fieldCipher: (any DAOFieldCipher)? { didSet { context = nil } }
        var eventHandler: (@Sendable (DAOEvent) -> Void)?
        var recordTypes: [String: DAORecordDecoder] = [:] { didSet { context = nil } }
        /// The table names already brought to the module's version by this DAO, with the SQL
        /// of the module's static statements for each.
        var preparedTables: [String?: [String?]] = [:] { didSet { context = nil } }
        /// The context of the calls to the current, prepared table, made once and shared by
        /// every call until a setting changes.
        var context: DAOCallContext?
        /// The database's count of table drops when `preparedTables` was last valid.
        var dropCount = 0
    }

    private let settings: DAOLocked<Settings>
    /// The drops of tables in the DAO's database file, by any DAO.
    private let drops: DAOTableDrops

    /// A DAO for `module` on `database`.
    ///
    /// When the module has `crypt` rules, the field cipher is the one the configuration target
    /// of the database's name in `registry` returns, when that target adopts
    /// ``DAOFieldCipherProviding``; set ``fieldCipher`` to use another. Without either, a call
    /// that encrypts or decrypts a field throws `DAOError.Kind.missingFieldCipher`.
    /// - Parameters:
    ///   - module: the loaded XML module whose methods the DAO runs.
    ///   - database: the database the DAO's table lives in.
    ///   - tableName: the table `${T}` names; by default the module's `tableName`. A name
    ///     that is not an identifier (`[A-Za-z_][A-Za-z0-9_]*`) makes every call throw
    ///     `DAOError.Kind.invalidTableName` before any SQL runs.
    ///   - registry: where the configuration target that provides the field cipher is found.
    public init(module: DAOModule, database: Database, tableName: String? = nil, registry: TargetRegistry = .shared) {
        self.module = module
        self.database = database
        var settings = Settings(tableName: tableName ?? module.tableName)
        if !module.encryptedFields.isEmpty,
            let target = try? registry.target(forDatabase: database.configuration.name) as? any DAOFieldCipherProviding
        {
            settings.fieldCipher = target.fieldCipher(for: database.configuration.name)
        }
        drops = DAOTableDrops.of(database)
        settings.dropCount = drops.count
        self.settings = DAOLocked(settings)
    }

    /// The table `${T}` and `${t}` name; set it to use the module for another table of the
    /// same shape (one chat table per conversation). A new table is created on its first call.
    /// It must be an identifier (`[A-Za-z_][A-Za-z0-9_]*`): `${T}` writes it into the SQL as
    /// it is; calls with another name throw `DAOError.Kind.invalidTableName` before any SQL runs.
    public var tableName: String? {
        get { settings.withLock { $0.tableName } }
        set { settings.withLock { $0.tableName = newValue } }
    }

    /// Arguments every method sees (after its own arguments), as `#{name}`, `@{name}` or in expressions.
    public var globalArguments: [String: DAOValue] {
        get { settings.withLock { $0.globalArguments } }
        set { settings.withLock { $0.globalArguments = newValue } }
    }

    /// Encrypts and decrypts the fields the module's `crypt` rules name.
    public var fieldCipher: (any DAOFieldCipher)? {
        get { settings.withLock { $0.fieldCipher } }
        set { settings.withLock { $0.fieldCipher = newValue } }
    }

    /// Called with the events of the DAO's tables: upgrades, creation, deletion.
    public var eventHandler: (@Sendable (DAOEvent) -> Void)? {
        get { settings.withLock { $0.eventHandler } }
        set { settings.withLock { $0.eventHandler = newValue } }
    }

    /// Makes `type` available to results and maps that name it (by default by its
    /// unqualified type name, as `result="MessageModel"` does).
    public func register<R: Record & Decodable & Sendable>(_ type: R.Type, as name: String? = nil) {
        settings.withLock { $0.recordTypes[name ?? DAOTypeName.of(type)] = DAORecordDecoder(type) }
    }

    /// The ids of the module's methods, in declaration order (the seed's `allMethodsList`).
    public var methodNames: [String] { module.methodNames }

    /// The path of the database file.
    public var databasePath: String { database.path }

    /// The most reader connections selects run on concurrently (the seed's parallel connections):
    /// the database's reader pool, which opens them as reads need them and keeps them.
    public var maximumReaderCount: Int { database.maximumReaderCount }

    /// Runs the method `id` with `arguments` (by the names its `arguments` attribute gives;
    /// a missing argument is nil) and returns its result: for a write that inserted a row,
    /// that row's id (``DAOResult/insertedRowID``), read in the same write.
    /// - Throws: ``DAOError`` for a call that does not fit the method or a result that does
    ///   not fit its type; `DatabaseError` from SQLite. Nothing the call wrote stays.
    @discardableResult
    public func call(_ id: String, _ arguments: [String: DAOValue] = [:]) async throws -> DAOResult {
        try await call(id, with: DAOArguments(arguments))
    }

    /// Runs the method `id` like ``call(_:_:)``, its arguments passed as name–value pairs
    /// (what `@DAOInterface` methods pass): a method takes a few, and finding them by
    /// comparing names costs less than building a dictionary and hashing them.
    /// - Throws: as ``call(_:_:)``; `DAOError.Kind.invalidCall` for a name passed twice.
    @discardableResult
    public func call(_ id: String, arguments: KeyValuePairs<String, DAOValue>) async throws -> DAOResult {
        try await call(id, with: DAOArguments(arguments))
    }

    /// Both `call`s, inlined into each so that neither adds an async frame.
    @inline(__always)
    private func call(_ id: String, with arguments: DAOArguments) async throws -> DAOResult {
        let method = try method(id)
        let context = try await preparedContext()
        let body: @Sendable (Connection) throws -> DAOResult = { connection in
            try DAOMethodRunner(context: context, connection: connection).run(method, arguments: arguments)
        }
        return method.kind == .select ? try await database.read(body) : try await database.write(body)
    }

    /// Runs `body` in one write transaction; its calls (``DAOTransaction/call(_:_:)``) commit
    /// together, or all roll back when it throws (the seed's `daoTransaction`).
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (DAOTransaction) throws -> T) async throws -> T {
        let context = try await preparedContext()
        return try await database.write { connection in
            try body(DAOTransaction(dao: self, context: context, connection: connection))
        }
    }

    /// The rowid of the last row the database's writer inserted (`sqlite3_last_insert_rowid`),
    /// the seed's `lastInsertRowId`.
    ///
    /// - Warning: This is racy: it is whatever the writer inserted last, which, when several
    ///   tasks share the database, may be another call's row. Read the row id an insert
    ///   returns instead: ``DAOResult/insertedRowID`` of ``call(_:_:)``, or declare a
    ///   `@DAOInterface` method on an `<insert>` as returning `Int64`.
    public func lastInsertRowID() async throws -> Int64 {
        try await database.write { $0.lastInsertRowID }
    }

    func method(_ id: String) throws -> DAOMethod {
        guard let method = module.methods[id] else {
            throw DAOError(.invalidCall, "module \(module.name) has no method \"\(id)\"")
        }
        return method
    }

    func report(_ event: DAOEvent) {
        settings.withLock { $0.eventHandler }?(event)
    }

    /// The settings for a call, as they are now, whether its table is prepared, and the
    /// database's count of table drops that tells.
    /// - Throws: `invalidTableName` for a table name that is not an identifier.
    func currentContext() throws -> (context: DAOCallContext, isPrepared: Bool, dropCount: Int) {
        let dropCount = drops.count
        return try settings.withLock { settings in
            if dropCount != settings.dropCount {
                // Some DAO dropped tables: every table is prepared again.
                settings.preparedTables = [:]
                settings.dropCount = dropCount
            }
            if let context = settings.context { return (context, true, dropCount) }
            try DAOTableName.checked(settings.tableName)
            let prepared = settings.preparedTables[settings.tableName]
            let context = DAOCallContext(
                module: module, tableName: settings.tableName, globals: settings.globalArguments,
                crypt: DAOFieldCrypt(fields: module.encryptedFields, cipher: settings.fieldCipher),
                recordTypes: settings.recordTypes,
                staticSQL: prepared ?? module.staticSQL(tableName: settings.tableName))
            if prepared != nil { settings.context = context }
            return (context, prepared != nil, dropCount)
        }
    }

    /// The settings for a call, after bringing the current table to the module's version.
    /// Inlined, so that a call to a prepared table makes no extra async call.
    @inline(__always)
    private func preparedContext() async throws -> DAOCallContext {
        let (context, isPrepared, dropCount) = try currentContext()
        return isPrepared ? context : try await prepare(context, dropCount: dropCount)
    }

    /// Brings `context`'s table to the module's version, one write transaction per step
    /// (creation, reset, or one `<upgrade>` block), and remembers it as prepared unless
    /// tables were dropped meanwhile.
    /// - Throws: `upgradeFailed` when an upgrade block fails (the blocks before it stay).
    private func prepare(_ context: DAOCallContext, dropCount: Int) async throws -> DAOCallContext {
        var announced = false
        preparing: while true {
            let step = try await database.write { [announced] connection in
                try DAOTablePreparation(context: context, connection: connection, report: self.report)
                    .step(announced: announced)
            }
            switch step {
            case .prepared: break preparing
            case .upgraded: announced = true
            case .failed(let error): throw error
            }
        }
        settings.withLock { settings in
            if settings.dropCount == dropCount { settings.preparedTables[context.tableName] = context.staticSQL }
        }
        return context
    }

    /// Tells every DAO on the database that tables were dropped, so each prepares its
    /// table again (creating it) on its next call.
    func tablesDropped() {
        drops.increment()
    }
}
