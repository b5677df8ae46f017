import Persistance

/// Brings a DAO's table to the module's version before its first call, one step per write
/// transaction (the seed's "execute the upgrade step by step"): creates it with the
/// initializer, resets it (drop and create) when the module asks for that, or runs the next
/// pending `<upgrade>` block and records its version.
struct DAOTablePreparation {
    /// What one step did.
    enum Step {
        /// The table is at the module's version.
        case prepared
        /// One upgrade block ran and its version is recorded: run the next step.
        case upgraded
        /// An upgrade block failed and was undone; the table stays at the version before it.
        case failed(DAOError)
    }

    let context: DAOCallContext
    let connection: Connection
    let report: (DAOEvent) -> Void

    private var module: DAOModule { context.module }
    private var runner: DAOMethodRunner { DAOMethodRunner(context: context, connection: connection) }

    /// Runs the next step; `announced` says whether `shouldUpgrade` was already reported.
    func step(announced: Bool) throws -> Step {
        guard let table = context.tableName, let version = module.version else {
            try runInitializer(table: context.tableName)
            return .prepared
        }
        guard let stored = try DAOTableVersions.version(of: table, in: connection) else {
            try runInitializer(table: table)
            try DAOTableVersions.setVersion(version, of: table, in: connection)
            return .prepared
        }
        guard stored != version else { return .prepared }
        guard stored < version else {
            throw DAOError(
                .versionDowngrade, "table \(table) is at version \(stored), newer than module \(module.name)'s \(version)")
        }
        if !announced { report(.shouldUpgrade(table: table, from: stored, to: version)) }
        if module.resets(from: stored) {
            try connection.execute("DROP TABLE IF EXISTS \(table)")
            report(.tableDeleted(table: table))
            try runInitializer(table: table)
            try DAOTableVersions.setVersion(version, of: table, in: connection)
            return .prepared
        }
        guard let upgrade = module.upgrades.first(where: { stored < $0.version }) else {
            // No block between the last one and the module's version.
            try DAOTableVersions.setVersion(version, of: table, in: connection)
            return .prepared
        }
        do {
            try connection.savepoint {
                let scope = DAOScope(arguments: DAOArguments([:]), globals: context.globals)
                _ = try runner.runOnce(upgrade.method, in: scope)
                try DAOTableVersions.setVersion(upgrade.version, of: table, in: connection)
            }
        } catch {
            report(.upgradeFailed(table: table, from: stored, to: upgrade.version, message: "\(error)"))
            var failure = DAOError(
                .upgradeFailed, "upgrading table \(table) from \(stored) to \(upgrade.version) failed: \(error)",
                at: upgrade.location, underlying: error)
            failure.module = module.name
            return .failed(failure)
        }
        return .upgraded
    }

    private func runInitializer(table: String?) throws {
        guard let initializer = module.initializer, let method = module.methods[initializer] else { return }
        let existed = try table.map { try DAOTableVersions.tableExists($0, in: connection) } ?? true
        _ = try runner.run(method, arguments: DAOArguments([:]))
        if let table, !existed, try DAOTableVersions.tableExists(table, in: connection) {
            report(.tableCreated(table: table))
        }
    }
}
