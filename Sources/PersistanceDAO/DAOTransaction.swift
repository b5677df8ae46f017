import Persistance

/// The calls of one ``DAO/transaction(_:)`` block, all in its write transaction. Valid only
/// inside the block.
public struct DAOTransaction {
    let dao: DAO
    let context: DAOCallContext
    /// The writer connection of the transaction, for SQL the module does not have.
    public let connection: Connection

    /// Runs the method `id` like ``DAO/call(_:_:)``, inside the transaction. A failing call
    /// undoes only its own changes (it runs in a savepoint); throwing from the block undoes all.
    @discardableResult
    public func call(_ id: String, _ arguments: [String: DAOValue] = [:]) throws -> DAOResult {
        let method = try dao.method(id)
        return try connection.savepoint {
            try DAOMethodRunner(context: context, connection: connection).run(method, arguments: DAOArguments(arguments))
        }
    }
}
