/// A workload: one transaction shape, the same for every contender.
enum Workload: Hashable {
    /// The data set inserted into the empty table, one INSERT … RETURNING id each, in one transaction.
    case insert
    /// Every row fetched as records, in one read-only transaction.
    case fetchAll
    /// The lookups by primary key, split between `tasks` concurrent tasks, each in one
    /// read-only transaction.
    case lookups(tasks: Int)

    var name: String {
        switch self {
        case .insert: "insert"
        case .fetchAll: "fetch-all"
        case .lookups(let tasks): tasks == 1 ? "lookup-1task" : "lookup-\(tasks)tasks"
        }
    }

    /// What one operation is, in the report.
    var operation: String {
        switch self {
        case .insert, .fetchAll: "row"
        case .lookups: "lookup"
        }
    }

    /// The workloads of a run, in order, those `only` names (or names by prefix) when given.
    static func selected(by options: Options) -> [Workload] {
        let all = [.insert, .fetchAll] + options.tasks.map { Workload.lookups(tasks: $0) }
        guard let only = options.workloads else { return all }
        return all.filter { workload in only.contains { workload.name.hasPrefix($0) } }
    }
}
