/// The values bound to a statement's parameters: positional (`?`) or named
/// (`:name`, `@name`, `$name`).
///
/// ```swift
/// try conn.execute("INSERT INTO t(a, b) VALUES (?, ?)", [1, "one"])
/// try conn.execute("UPDATE t SET b = :b WHERE a = :a", ["a": 1, "b": "uno"])
/// ```
/// Values are converted when the arguments are made; a value that cannot be stored
/// (see `DatabaseValueConvertible`) makes binding throw an encoding error.
public struct StatementArguments: Sendable, Hashable {
    enum Storage: Sendable, Hashable {
        case positional([DatabaseValue])
        case named([String: DatabaseValue])
    }

    var storage: Storage
    /// The first conversion failure, reported when the arguments are bound.
    var conversionError: String?

    /// No arguments.
    public init() {
        storage = .positional([])
    }

    /// Positional arguments, bound to `?` parameters in order.
    public init(_ values: [(any DatabaseValueConvertible)?]) {
        var converted = [DatabaseValue]()
        converted.reserveCapacity(values.count)
        var error: String?
        for value in values {
            converted.append(Self.convert(value, error: &error))
        }
        storage = .positional(converted)
        conversionError = error
    }

    /// Named arguments, bound to `:name`, `@name` or `$name` parameters.
    /// Keys may be written with or without the prefix.
    public init(_ values: [String: (any DatabaseValueConvertible)?]) {
        var converted = [String: DatabaseValue](minimumCapacity: values.count)
        var error: String?
        for (name, value) in values {
            converted[Self.bareName(name)] = Self.convert(value, error: &error)
        }
        storage = .named(converted)
        conversionError = error
    }

    /// Whether there is no argument at all.
    public var isEmpty: Bool {
        switch storage {
        case .positional(let values): values.isEmpty
        case .named(let values): values.isEmpty
        }
    }

    /// The parameter name without its `:`, `@` or `$` prefix.
    static func bareName(_ name: String) -> String {
        guard let first = name.unicodeScalars.first, ":@$".unicodeScalars.contains(first) else { return name }
        return String(name.unicodeScalars.dropFirst())
    }

    static func convert(_ value: (any DatabaseValueConvertible)?, error: inout String?) -> DatabaseValue {
        guard let value else { return .null }
        do {
            return try value.databaseValue
        } catch let failure {
            if error == nil { error = (failure as? DatabaseError)?.message ?? String(describing: failure) }
            return .null
        }
    }
}

extension StatementArguments: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.init(elements)
    }
}

extension StatementArguments: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
