/// The column names of a result set, shared by every row read from it, found by name
/// case-insensitively (ASCII, like SQLite): by a scan for a few columns, by a map built once
/// for more (building a map for every small result costs more than scanning it).
final class RowColumns: Sendable {
    let names: [String]
    /// Folded name → first position, for more than ``scanLimit`` columns.
    private let indexByFoldedName: [String: Int]?

    /// The most columns looked up by a scan.
    static let scanLimit = 8

    init(names: [String]) {
        self.names = names
        guard names.count > Self.scanLimit else {
            indexByFoldedName = nil
            return
        }
        var index = [String: Int](minimumCapacity: names.count)
        for (position, name) in names.enumerated() where index[Self.fold(name)] == nil {
            index[Self.fold(name)] = position
        }
        indexByFoldedName = index
    }

    /// The position of the first column with this name, compared case-insensitively.
    func index(of name: String) -> Int? {
        guard let indexByFoldedName else {
            let length = name.utf8.count
            return names.firstIndex {
                $0 == name || ($0.utf8.count == length && $0.utf8.elementsEqual(name.utf8) { Self.fold($0) == Self.fold($1) })
            }
        }
        return indexByFoldedName[Self.fold(name)]
    }

    /// An ASCII upper-case letter lower-cased; any other byte as it is.
    private static func fold(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    /// ASCII lower-casing: SQLite compares identifiers case-insensitively for ASCII letters only.
    static func fold(_ name: String) -> String {
        guard name.utf8.contains(where: { fold($0) != $0 }) else { return name }
        return String(decoding: name.utf8.map(fold), as: UTF8.self)
    }
}
