/// The name a module uses for a Swift type (in `result`, `map` and `crypt`): the type's
/// unqualified name, e.g. `MessageModel`.
enum DAOTypeName {
    static func of(_ type: Any.Type) -> String {
        let full = String(describing: type)
        return full.split(separator: ".").last.map(String.init) ?? full
    }
}
