/// A configuration prints, dumps and reflects without its keys, so logging it never leaks them.
extension DatabaseConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        let migration = migrator.map { "migrator to \"\($0.latestVersion)\"" } ?? "no migrator"
        return "DatabaseConfiguration(\(name) at \(path), \(secretKeys.count) key(s) redacted, \(migration))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "name": name, "path": path, "secretKeyCount": secretKeys.count,
            "latestVersion": migrator?.latestVersion as Any,
        ])
    }
}
