/// Generates `<Protocol>DAO`, an implementation of the protocol that runs a DAO module's
/// methods: each protocol method calls the module method of the same name, passing its
/// parameters as the arguments of the same names, and converts the result to its return type
/// (see `DAOResult.decode(_:)`). Methods must be `async throws`; parameters must be
/// ``DAOValueConvertible``. An `<insert>` method declared as returning `Int64` returns the
/// id of the row it inserted (`Int64?`: nil when it inserted none); `Int`, the rows changed.
///
/// ```swift
/// @DAOInterface
/// protocol Demo {
///     func insertItem(content: String) async throws
///     func getItem(index: Int64) async throws -> String?
/// }
/// let demo = DemoDAO(dao: dao)
/// try await demo.insertItem(content: "something")
/// ```
@attached(peer, names: suffixed(DAO))
public macro DAOInterface() = #externalMacro(module: "PersistanceMacroPlugin", type: "DAOInterfaceMacro")

/// What every generated DAO interface offers besides the module's methods (the seed's
/// `APDAOProtocol`): the DAO itself, and its common operations. A protocol can inherit it to
/// expose them.
public protocol DAOBacked: Sendable {
    /// The DAO the methods run on.
    var dao: DAO { get }
}

extension DAOBacked {
    /// The rowid of the last row the database's writer inserted.
    ///
    /// - Warning: Racy, as ``DAO/lastInsertRowID()``: with concurrent calls it may be another
    ///   call's row. Declare the `<insert>` method as returning `Int64` instead: it returns
    ///   the id of the row it inserted, read inside the same write.
    public func lastInsertRowID() async throws -> Int64 {
        try await dao.lastInsertRowID()
    }

    /// The ids of the module's methods.
    public var methodNames: [String] { dao.methodNames }
}
