import Persistance

/// Brings a DAO's table to the module's version before its first call: creates it with the
/// initializer, upgrades it block by block, or resets it (drop and create) when the module
/// asks for that; then stamps the version. Runs inside one write transaction.
struct DAOTablePreparation {
    let context: DAOCallContext
    let connection: Connection
    let report: (DAOEvent) -> Void

    private var module: DAOModule { context.module }
    private var runner: DAOMethodRunner { DAOMethodRunner(context: context, connection: connection) }

    func prepare() throws {
        guard let table = context.tableName, let version = module.version else {
            try runInitializer(table: context.tableName)
            return
        }
        guard let stored = try DAOTableVersions.version(of: table, in: connection) else {
            try runInitializer(table: table)
            try DAOTableVersions.setVersion(version, of: table, in: connection)
            return
        }
        guard stored != version else { return }
        guard stored < version else {
            throw DAOError(
                .versionDowngrade, "table \(table) is at version \(stored), newer than module \(module.name)'s \(version)")
        }
        report(.shouldUpgrade(table: table, from: stored, to: version))
        do {
            try connection.savepoint {
                if module.resetOnUpgrade || module.upgradeMinVersion.map({ stored < $0 }) == true {
                    try connection.execute("DROP TABLE IF EXISTS \(DAOStatementRenderer.quotedIdentifier(table))")
                    report(.tableDeleted(table: table))
                    try runInitializer(table: table)
                } else {
                    for upgrade in module.upgrades where stored < upgrade.version && upgrade.version <= version {
                        let method = DAOMethod(
                            id: "upgrade to \(upgrade.version)", kind: .update, arguments: [], result: .none,
                            iteration: nil, statements: upgrade.statements, location: upgrade.location)
                        _ = try runner.runOnce(method, in: DAOScope(arguments: DAOArguments([:]), globals: context.globals))
                    }
                }
                try DAOTableVersions.setVersion(version, of: table, in: connection)
            }
        } catch {
            report(.upgradeFailed(table: table, from: stored, to: version, message: "\(error)"))
            throw error
        }
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
