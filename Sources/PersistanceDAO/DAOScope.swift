import Persistance

/// The names a statement can refer to while it renders: `foreach` items (innermost first),
/// the call's arguments, then the DAO's global arguments.
struct DAOScope {
    var arguments: DAOArguments
    var globals: [String: DAOValue]
    private var items: [(name: String, value: DAOValue)] = []

    init(arguments: DAOArguments, globals: [String: DAOValue]) {
        self.arguments = arguments
        self.globals = globals
    }

    /// A scope where `name` is also `value`, hiding any outer `name`.
    func binding(_ name: String, to value: DAOValue) -> DAOScope {
        var scope = self
        scope.items.append((name, value))
        return scope
    }

    /// The value `path` reaches, and the record field it was read from (for `crypt`), if any.
    /// As in the seed's Objective-C, a property of nil is nil, and its `count` is 0.
    /// - Throws: `undefinedReference` for a name nothing defines or a property a record lacks;
    ///   `expressionType` for a property of a value that has none.
    func resolve(_ path: DAOPath, at location: DAOSourceLocation?) throws -> (value: DAOValue, field: DAOField?) {
        guard var value = lookUp(path.root) else {
            throw DAOError(.undefinedReference, "\"\(path.root)\" is not an argument of the method", at: location)
        }
        var field: DAOField?
        for member in path.members {
            field = nil
            switch value {
            case .null:
                return (path.members.last == "count" ? .integer(0) : .null, nil)
            case .list(let elements) where member == "count":
                value = .integer(Int64(elements.count))
            case .dictionary(let entries):
                if let entry = entries[member] {
                    value = entry
                } else {
                    value = member == "count" ? .integer(Int64(entries.count)) : .null
                }
            case .record(let type, let fields):
                guard let entry = fields[member] else {
                    throw DAOError(.undefinedReference, "\(type) has no property \"\(member)\" (in \(path))", at: location)
                }
                value = entry
                field = DAOField(type: type, property: member)
            case .text(let text) where member == "count":
                value = .integer(Int64(text.count))
            case .blob(let data) where member == "count":
                value = .integer(Int64(data.count))
            default:
                throw DAOError(.expressionType, "\(value.kindName) has no property \"\(member)\" (in \(path))", at: location)
            }
        }
        return (value, field)
    }

    /// The SQL value `path` reaches, encrypted when it is an encrypted field.
    /// - Throws: as ``resolve(_:at:)``; `invalidCall` for a list, dictionary or record.
    func storableValue(_ path: DAOPath, crypt: DAOFieldCrypt, at location: DAOSourceLocation) throws -> DatabaseValue {
        let (value, field) = try resolve(path, at: location)
        guard let databaseValue = value.databaseValue else {
            throw DAOError(.invalidCall, "\(path) is \(value.kindName), which cannot be a SQL value", at: location)
        }
        if let field { return try crypt.encrypt(databaseValue, for: field) }
        return databaseValue
    }

    private func lookUp(_ name: String) -> DAOValue? {
        if let item = items.last(where: { $0.name == name }) { return item.value }
        return arguments[name] ?? globals[name]
    }
}
