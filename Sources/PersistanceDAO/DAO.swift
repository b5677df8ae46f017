import Foundation
import Persistance

/// A data access object: the methods of a ``DAOModule`` run against a ``Database``.
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
/// call for a table name, the table is created or upgraded to the module's version.
/// A DAO is `Sendable`; its settings (table name, global arguments, cipher, event handler)
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
    }

    private let settings: DAOLocked<Settings>

    /// A DAO for `module` on `database`.
    ///
    /// When the module has `crypt` rules, the default field cipher is an
    /// ``AESGCMFieldCipher`` keyed by the configuration target of the database's name in
    /// `registry`, when that target adopts ``DAOFieldKeyProviding``; set ``fieldCipher`` to
    /// use another.
    /// - Parameter tableName: the table `${T}` names; by default the module's `tableName`.
    public init(module: DAOModule, database: Database, tableName: String? = nil, registry: TargetRegistry = .shared) {
        self.module = module
        self.database = database
        var settings = Settings(tableName: tableName ?? module.tableName)
        if !module.encryptedFields.isEmpty,
            let target = try? registry.target(forDatabase: database.configuration.name) as? any DAOFieldKeyProviding,
            let secret = target.fieldEncryptionKey(for: database.configuration.name)
        {
            settings.fieldCipher = AESGCMFieldCipher(secret: secret)
        }
        self.settings = DAOLocked(settings)
    }

    /// The table `${T}` and `${t}` name; set it to use the module for another table of the
    /// same shape (one chat table per conversation). A new table is created on its first call.
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
    /// a missing argument is nil) and returns its result.
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

    /// The rowid of the last row the database's writer inserted (`sqlite3_last_insert_rowid`).
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

    /// The settings for a call, as they are now, and whether its table is prepared.
    private func currentContext() -> (context: DAOCallContext, isPrepared: Bool) {
        settings.withLock { settings in
            if let context = settings.context { return (context, true) }
            let prepared = settings.preparedTables[settings.tableName]
            let context = DAOCallContext(
                module: module, tableName: settings.tableName, globals: settings.globalArguments,
                crypt: DAOFieldCrypt(fields: module.encryptedFields, cipher: settings.fieldCipher),
                recordTypes: settings.recordTypes,
                staticSQL: prepared ?? module.staticSQL(tableName: settings.tableName))
            if prepared != nil { settings.context = context }
            return (context, prepared != nil)
        }
    }

    /// The settings for a call, as they are now.
    func settingsContext() -> DAOCallContext {
        currentContext().context
    }

    /// The settings for a call, after bringing the current table to the module's version.
    /// Inlined, so that a call to a prepared table makes no extra async call.
    @inline(__always)
    private func preparedContext() async throws -> DAOCallContext {
        let (context, isPrepared) = currentContext()
        return isPrepared ? context : try await prepare(context)
    }

    /// Brings `context`'s table to the module's version and remembers it as prepared.
    private func prepare(_ context: DAOCallContext) async throws -> DAOCallContext {
        try await database.write { connection in
            try DAOTablePreparation(context: context, connection: connection, report: self.report).prepare()
        }
        settings.withLock { $0.preparedTables[context.tableName] = context.staticSQL }
        return context
    }

    /// Forgets that `tables` were prepared, so their next call creates them again.
    func forgetPrepared(_ tables: [String]) {
        settings.withLock { settings in
            for table in tables { settings.preparedTables[table] = nil }
        }
    }
}
