/// Every contender, by name, in report order.
enum ContenderRegistry {
    static let names = ["raw", "fluent", "persistance"]
    /// Contenders that run only when named (`--contenders`): experiments, not the published comparison.
    static let experiments = StatementStyle.allCases.map(\.rawValue)

    /// Opens the contenders `names` on the benchmark's database, each with a pool of `connections`.
    static func open(_ names: [String], on address: ServerAddress, connections: Int) async throws -> [any Contender] {
        var contenders: [any Contender] = []
        for name in names {
            switch name {
            case "raw": contenders.append(RawPostgresContender(server: address, connections: connections))
            case "fluent": contenders.append(FluentContender(server: address, connections: connections))
            case "persistance": contenders.append(try await PersistanceContender.open(server: address, connections: connections))
            default:
                guard let style = StatementStyle(rawValue: name) else {
                    throw BenchError("unknown contender \(name); known: \((Self.names + Self.experiments).joined(separator: ", "))")
                }
                contenders.append(StatementStyleContender(style: style, server: address, connections: connections))
            }
        }
        return contenders
    }
}
