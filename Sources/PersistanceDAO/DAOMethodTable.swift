/// A module's methods by id. Most modules declare a few, and comparing a few short ids
/// costs less than hashing one, so a table of up to 16 methods is scanned in order; a
/// larger one is a dictionary.
struct DAOMethodTable: Sendable {
    private static let largestScanned = 16
    private let scanned: [DAOMethod]
    private let hashed: [String: DAOMethod]

    init(_ methods: [String: DAOMethod]) {
        if methods.count <= Self.largestScanned {
            scanned = Array(methods.values)
            hashed = [:]
        } else {
            scanned = []
            hashed = methods
        }
    }

    /// The method `id`, if the module has one.
    subscript(id: String) -> DAOMethod? {
        hashed.isEmpty ? scanned.first { $0.id == id } : hashed[id]
    }
}
