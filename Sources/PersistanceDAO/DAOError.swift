/// An error of the DAO layer: a module that does not parse or check, a call that does not
/// fit its method, a value that does not fit its result, or a field that does not decrypt.
///
/// Errors found in a module name the place (`location`) where the module says the wrong
/// thing. Errors from SQLite itself are `DatabaseError`s and pass through unchanged.
public struct DAOError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The module file is not well-formed XML.
        public static let malformedXML = Kind(rawValue: "malformedXML")
        /// An element or attribute the module language does not have, or one in the wrong place.
        public static let invalidModule = Kind(rawValue: "invalidModule")
        /// A reference to an argument, constant, fragment, map or method that is not defined.
        public static let undefinedReference = Kind(rawValue: "undefinedReference")
        /// SQL fragments that reference each other in a cycle.
        public static let fragmentCycle = Kind(rawValue: "fragmentCycle")
        /// `${T}` with no table name set.
        public static let missingTableName = Kind(rawValue: "missingTableName")
        /// A table name (a module's `tableName`, or one set on a DAO) that is not an
        /// identifier, `[A-Za-z_][A-Za-z0-9_]*`: `${T}` writes it into the SQL as it is.
        public static let invalidTableName = Kind(rawValue: "invalidTableName")
        /// An `<upgrade>` block failed: the table stays at the last version that upgraded,
        /// ``DAOError/underlying`` holds the SQL error, and the next call tries again.
        public static let upgradeFailed = Kind(rawValue: "upgradeFailed")
        /// A rendered statement holds more than one SQL statement (`@{x no ""}` inlined
        /// text with a `;`): it does not run.
        public static let multipleStatements = Kind(rawValue: "multipleStatements")
        /// An `if`/`when` expression that does not parse.
        public static let expressionSyntax = Kind(rawValue: "expressionSyntax")
        /// An expression whose operands do not fit its operator.
        public static let expressionType = Kind(rawValue: "expressionType")
        /// Nil passed for a `$` argument.
        public static let nilArgument = Kind(rawValue: "nilArgument")
        /// A call naming no method of the module, or passing an argument it does not declare.
        public static let invalidCall = Kind(rawValue: "invalidCall")
        /// `foreach` over a value that is not a collection.
        public static let notACollection = Kind(rawValue: "notACollection")
        /// A row value that does not fit the method's `result`.
        public static let resultTypeMismatch = Kind(rawValue: "resultTypeMismatch")
        /// The table's stored version is newer than the module's.
        public static let versionDowngrade = Kind(rawValue: "versionDowngrade")
        /// A crypt field with no cipher to encrypt or decrypt it: no ``DAO/fieldCipher`` set and
        /// no ``DAOFieldCipherProviding`` target for the database.
        public static let missingFieldCipher = Kind(rawValue: "missingFieldCipher")
        /// A crypt field that does not decrypt: a wrong key or damaged data.
        public static let decryptionFailed = Kind(rawValue: "decryptionFailed")

        /// Matches a `DAOError` of this kind, for `catch` clauses and `#expect(throws:)`.
        public static func ~= (pattern: Kind, error: any Error) -> Bool {
            (error as? DAOError)?.kind == pattern
        }
    }

    /// What went wrong.
    public var kind: Kind
    /// A sentence saying what went wrong; never contains argument values or keys.
    public var message: String
    /// Where in the module, when known.
    public var location: DAOSourceLocation?
    /// The module whose call failed, for errors raised while a call runs.
    public var module: String?
    /// The method whose call failed, for errors raised while a call runs.
    public var method: String?
    /// The error that caused this one: the SQL error of a failed upgrade block.
    public var underlying: (any Error)?

    /// An error of `kind`.
    public init(
        _ kind: Kind, _ message: String, at location: DAOSourceLocation? = nil, underlying: (any Error)? = nil
    ) {
        self.kind = kind
        self.message = message
        self.location = location
        self.underlying = underlying
    }

    public var description: String {
        var text = location.map { "\($0): " } ?? ""
        text += "\(kind): \(message)"
        switch (module, method) {
        case let (module?, method?): text += " (module \(module), method \(method))"
        case let (module?, nil): text += " (module \(module))"
        case let (nil, method?): text += " (method \(method))"
        case (nil, nil): break
        }
        return text
    }

    /// This error with the module, method and location of the call it was raised in, where
    /// it does not name them already.
    func within(module: String, method: String, at location: DAOSourceLocation) -> DAOError {
        var error = self
        if error.module == nil { error.module = module }
        if error.method == nil { error.method = method }
        if error.location == nil { error.location = location }
        return error
    }
}
