/// The arguments of one DAO call, by name: the caller's dictionary, or the name–value pairs
/// a `@DAOInterface` method passes. Pairs are found by comparing names rather than hashing
/// them: a method takes a few arguments, and comparing a few short names costs less than
/// building a dictionary and hashing a name for each look-up.
struct DAOArguments: Sendable {
    private enum Storage: Sendable {
        case dictionary([String: DAOValue])
        /// As passed: a name may come twice, which `DAOMethodRunner.checked` refuses.
        case pairs(KeyValuePairs<String, DAOValue>)
    }

    private let storage: Storage

    init(_ arguments: [String: DAOValue]) {
        storage = .dictionary(arguments)
    }

    init(_ arguments: KeyValuePairs<String, DAOValue>) {
        storage = .pairs(arguments)
    }

    /// The value passed for `name`, if any.
    subscript(name: String) -> DAOValue? {
        switch storage {
        case .dictionary(let arguments): arguments[name]
        case .pairs(let arguments): arguments.first { $0.key == name }?.value
        }
    }

    /// Whether these are exactly `method`'s declared arguments, each passed once, with no nil
    /// where it is refused: the usual call, which needs neither completing nor an error. Each
    /// passed name is compared with the few declared ones, without hashing.
    func passEveryArgument(to method: DAOMethod) -> Bool {
        let declared = method.arguments
        switch storage {
        case .dictionary(let arguments):
            guard arguments.count == declared.count else { return false }
            for (name, value) in arguments where !Self.accepts(name, value, declared) { return false }
        case .pairs(let arguments):
            guard arguments.count == declared.count else { return false }
            for index in arguments.indices {
                let (name, value) = arguments[index]
                guard Self.accepts(name, value, declared) else { return false }
                if arguments[..<index].contains(where: { $0.key == name }) { return false }
            }
        }
        return true
    }

    /// The arguments as a dictionary.
    /// - Throws: `invalidCall` for a name passed twice.
    func dictionary(for method: DAOMethod) throws -> [String: DAOValue] {
        switch storage {
        case .dictionary(let arguments):
            return arguments
        case .pairs(let arguments):
            var dictionary = [String: DAOValue](minimumCapacity: arguments.count)
            for (name, value) in arguments {
                guard dictionary.updateValue(value, forKey: name) == nil else {
                    throw DAOError(.invalidCall, "\(method.id) is passed \"\(name)\" twice", at: method.location)
                }
            }
            return dictionary
        }
    }

    /// Whether `name` is declared, and `value` allowed for it.
    @inline(__always)
    private static func accepts(_ name: String, _ value: DAOValue, _ declared: [DAOMethod.Argument]) -> Bool {
        guard let argument = declared.first(where: { $0.name == name }) else { return false }
        return !(argument.refusesNil && value.isNull)
    }
}
