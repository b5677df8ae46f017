/// The column names of a result set, shared by every row read from it, with a
/// case-insensitive (ASCII, like SQLite) name → index map built once.
final class RowColumns: Sendable {
    let names: [String]
    private let indexByFoldedName: [String: Int]

    init(names: [String]) {
        self.names = names
        var index = [String: Int](minimumCapacity: names.count)
        for (position, name) in names.enumerated() where index[Self.fold(name)] == nil {
            index[Self.fold(name)] = position
        }
        indexByFoldedName = index
    }

    /// The position of the first column with this name, compared case-insensitively.
    func index(of name: String) -> Int? {
        indexByFoldedName[Self.fold(name)]
    }

    /// ASCII lower-casing: SQLite compares identifiers case-insensitively for ASCII letters only.
    static func fold(_ name: String) -> String {
        guard name.utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return name }
        return String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
