import Foundation

/// A `<module>` file, parsed and checked: its methods, maps, crypt rules and table upgrades.
///
/// Loading checks everything a module can get wrong on its own (XML, element and attribute
/// names, fragments and constants, expressions, result types, versions) and throws a
/// ``DAOError`` naming the file, line and column. A module is immutable and can serve many
/// ``DAO``s, e.g. one per chat table.
///
/// ```swift
/// let module = try DAOModule(xml: """
///     <module name="Demo" initializer="createTable" tableName="demoTable" version="1.0">
///       <update id="createTable">create table if not exists ${T} (id integer primary key, content text)</update>
///       <insert id="insertItem" arguments="content">insert into ${T} (content) values (#{content})</insert>
///     </module>
///     """)
/// ```
public struct DAOModule: Sendable {
    /// The module's `name`.
    public let name: String
    /// The file it was loaded from (or the name given to a string).
    public let file: String
    /// The `tableName`: the default `${T}` of every DAO made from it.
    public let tableName: String?
    /// The `version`, when the module versions its table.
    public let version: DAOVersion?
    /// The `initializer`: the method that creates the table.
    public let initializer: String?
    /// `resetOnUpgrade`: an older table is dropped and created again instead of upgraded.
    public let resetOnUpgrade: Bool
    /// `upgradeMinVersion`: a table older than this is dropped and created again.
    public let upgradeMinVersion: DAOVersion?
    /// The ids of the module's methods, in the order the module declares them.
    public let methodNames: [String]
    /// The fields `crypt` rules encrypt.
    public let encryptedFields: Set<DAOField>
    /// The names the module reads that are neither an argument of their method nor a
    /// `foreach` item around the read: a DAO's ``DAO/globalArguments`` must provide them.
    public let globalArgumentNames: Set<String>

    let methods: DAOMethodTable
    let maps: [String: DAOMap]
    let upgrades: [DAOUpgrade]
    /// The statements whose SQL depends on nothing but the table name (see ``DAOStatementTemplate/staticIndex``).
    let staticStatements: [DAOStaticStatement]

    /// Loads the module in `xml`.
    /// - Parameters:
    ///   - xml: the module's XML text.
    ///   - file: the name errors give the module.
    ///   - globalArgumentNames: when given, the names the DAOs' global arguments provide: a
    ///     name the module reads that is neither an argument of its method, a `foreach` item
    ///     nor one of these is an error now rather than when a call reads it.
    /// - Throws: ``DAOError`` naming where the module is wrong.
    public init(xml: String, file: String = "<string>", globalArgumentNames: Set<String>? = nil) throws {
        try self.init(data: Data(xml.utf8), file: file, globalArgumentNames: globalArgumentNames)
    }

    /// Loads the module file at `path` (see ``init(xml:file:globalArgumentNames:)``).
    /// - Throws: ``DAOError`` naming where the module is wrong; a Foundation error when the
    ///   file cannot be read.
    public init(path: String, globalArgumentNames: Set<String>? = nil) throws {
        try self.init(
            data: Data(contentsOf: URL(fileURLWithPath: path)), file: path, globalArgumentNames: globalArgumentNames)
    }

    /// Loads the module file at `url` (see ``init(xml:file:globalArgumentNames:)``).
    public init(contentsOf url: URL, globalArgumentNames: Set<String>? = nil) throws {
        try self.init(
            data: Data(contentsOf: url), file: url.isFileURL ? url.path : url.absoluteString,
            globalArgumentNames: globalArgumentNames)
    }

    /// Loads the module in `data` (UTF-8 XML); `file` names it in errors (see
    /// ``init(xml:file:globalArgumentNames:)``).
    public init(data: Data, file: String, globalArgumentNames: Set<String>? = nil) throws {
        let root = try XMLModuleReader.read(data, file: file)
        var checker = DAOModuleChecker(root: root)
        let checked = try checker.check()
        if let globalArgumentNames {
            try checked.globalReferences.check(declared: globalArgumentNames)
        }
        self.file = file
        name = checked.name
        tableName = checked.tableName
        version = checked.version
        initializer = checked.initializer
        resetOnUpgrade = checked.resetOnUpgrade
        upgradeMinVersion = checked.upgradeMinVersion
        methodNames = checked.methodNames
        encryptedFields = checked.encryptedFields
        self.globalArgumentNames = checked.globalReferences.names
        methods = DAOMethodTable(checked.methods)
        maps = checked.maps
        upgrades = checked.upgrades
        staticStatements = checked.staticStatements
    }

    /// Whether a table at `stored` is dropped and created again rather than upgraded
    /// (`resetOnUpgrade`, or older than `upgradeMinVersion`).
    func resets(from stored: DAOVersion) -> Bool {
        resetOnUpgrade || upgradeMinVersion.map { stored < $0 } == true
    }

    /// The SQL of each static statement for the table `tableName`, by static index; nil for
    /// a statement that needs a table name when there is none.
    func staticSQL(tableName: String?) -> [String?] {
        staticStatements.map { $0.sql(tableName: tableName) }
    }
}
