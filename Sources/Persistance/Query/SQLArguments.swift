/// The values a rendered statement binds: the `?` parameters in the order they appear, and
/// the named parameters of raw fragments.
struct SQLArguments {
    /// The values of the `?` parameters, in the order they appear.
    private(set) var values: [DatabaseValue] = []
    /// The values of the named parameters of raw fragments.
    private var namedValues: [String: DatabaseValue] = [:]

    /// No arguments yet.
    init() {}

    /// No arguments yet, the positional ones to be kept in `buffer`, an empty array (whose
    /// capacity is used).
    init(buffer: consuming [DatabaseValue]) {
        values = buffer
    }

    mutating func append(_ value: DatabaseValue) {
        values.append(value)
    }

    /// Takes a raw fragment's own arguments: positional ones in order, named ones by name
    /// (the same name twice must have the same value).
    mutating func append(_ arguments: StatementArguments, of fragment: String) throws {
        if let failure = arguments.conversionError {
            throw DatabaseError(kind: .encoding, message: failure, sql: fragment)
        }
        switch arguments.storage {
        case .positional(let positional):
            values.append(contentsOf: positional)
        case .named(let named):
            for (name, value) in named {
                if let existing = namedValues.updateValue(value, forKey: name), existing != value {
                    throw DatabaseError.invalidQuery("parameter :\(name) is given two different values", sql: fragment)
                }
            }
        }
    }

    /// Binds every parameter of `statement`: positional values in order, named ones by name.
    func bind(to statement: Statement) throws {
        guard !namedValues.isEmpty else {
            guard values.count == statement.parameterCount else {
                throw argumentError(statement, "statement takes \(statement.parameterCount) argument(s), \(values.count) given")
            }
            for (offset, value) in values.enumerated() {
                try statement.bind(value, at: offset + 1)
            }
            return
        }
        var positional = values.makeIterator()
        var usedNames = Set<String>()
        for (offset, name) in statement.parameterNames.enumerated() {
            let value: DatabaseValue
            if let name {
                guard let named = namedValues[name] else { throw argumentError(statement, "no argument for parameter :\(name)") }
                value = named
                usedNames.insert(name)
            } else {
                guard let next = positional.next() else { throw argumentError(statement, "not enough positional arguments") }
                value = next
            }
            try statement.bind(value, at: offset + 1)
        }
        if positional.next() != nil {
            throw argumentError(statement, "too many positional arguments")
        }
        if let unknown = namedValues.keys.sorted().first(where: { !usedNames.contains($0) }) {
            throw argumentError(statement, "statement has no parameter named \"\(unknown)\"")
        }
    }

    private func argumentError(_ statement: Statement, _ message: String) -> DatabaseError {
        DatabaseError(kind: .invalidArguments, message: message, sql: statement.sql)
    }
}
