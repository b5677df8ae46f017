/// The configuration targets an app has registered, found by database name. Thread-safe.
///
/// A database name maps to a target name by its last path component, cut at the first `_`,
/// then at the first `.` (`"game_main.sqlite"` → `"game"`). Lookups are case-sensitive,
/// like file systems on Linux. A database whose target is not registered gets the defaults:
/// a file in the registry's directory, no migrator, no key.
///
/// ```swift
/// struct Target_game: ConfigurationTarget { … }
/// try TargetRegistry.shared.register(Target_game())            // by type: "Target_game" → "game"
/// try TargetRegistry.shared.register(ChatTarget(), as: "chat")  // by name
/// let configuration = try DatabaseConfiguration.resolve("game_main.sqlite")
/// ```
///
/// Use ``shared`` in apps; create separate registries where isolation matters (tests, tools).
public final class TargetRegistry: Sendable {
    /// The registry `Database.open(_:)` uses unless told otherwise.
    public static let shared = TargetRegistry()

    private struct State: Sendable {
        var targets: [String: any ConfigurationTarget] = [:]
        var defaultDirectory: String?
    }

    private let state: Guarded<State>

    /// A registry with no targets. `defaultDirectory` nil uses ``DatabaseDirectory/current``.
    public init(defaultDirectory: String? = nil) {
        state = Guarded(State(defaultDirectory: defaultDirectory))
    }

    /// The directory for databases whose target answers no path, for this registry only;
    /// nil (the default) uses ``DatabaseDirectory/current``.
    public var defaultDirectory: String? {
        get { state.withLock { $0.defaultDirectory } }
        set { state.withLock { $0.defaultDirectory = newValue } }
    }

    /// The directory this registry places default database files in right now.
    public var directory: String {
        defaultDirectory ?? DatabaseDirectory.current
    }

    /// Registers `target` for the databases that map to `name`, replacing any target
    /// registered under that name before.
    ///
    /// - Throws: `.configuration` when `name` is empty or contains `_`, `.`, `/` or NUL
    ///   (no database name could map to it).
    public func register(_ target: some ConfigurationTarget, as name: String) throws {
        try DatabaseName.validateTargetName(name)
        state.withLock { $0.targets[name] = target }
    }

    /// Registers `target` under the name its type spells after `Target_`: an instance of
    /// `Target_game` serves the databases that map to `game`. Replaces any target
    /// registered under that name before.
    ///
    /// - Throws: `.configuration` when the type's name is not `Target_<name>` with a valid name.
    public func register<Target: ConfigurationTarget>(_ target: Target) throws {
        try register(target, as: Self.targetName(of: Target.self))
    }

    /// Removes the target registered under `name` and returns it, if any.
    @discardableResult
    public func unregister(_ name: String) -> (any ConfigurationTarget)? {
        state.withLock { $0.targets.removeValue(forKey: name) }
    }

    /// The target registered under exactly `name` (case-sensitive), if any.
    public func target(named name: String) -> (any ConfigurationTarget)? {
        state.withLock { $0.targets[name] }
    }

    /// The target that configures the database `databaseName`, if one is registered.
    ///
    /// - Throws: `.configuration` when `databaseName` is not a valid database name.
    public func target(forDatabase databaseName: String) throws -> (any ConfigurationTarget)? {
        target(named: try Self.targetName(forDatabase: databaseName))
    }

    /// The target name a database name maps to: `"saves/game_main.sqlite"` → `"game"`.
    ///
    /// - Throws: `.configuration` when `databaseName` is empty, absolute, contains NUL, or has
    ///   an empty, `.` or `..` path component.
    public static func targetName(forDatabase databaseName: String) throws -> String {
        try DatabaseName.validate(databaseName)
        return DatabaseName.targetName(of: databaseName)
    }

    /// The target name a target type registers under: `Target_game` → `"game"`.
    ///
    /// - Throws: `.configuration` when the type's name does not start with `Target_` or the
    ///   rest is not a valid target name.
    public static func targetName<Target: ConfigurationTarget>(of type: Target.Type) throws -> String {
        let typeName = String(describing: type)
        let prefix = "Target_"
        guard typeName.hasPrefix(prefix) else {
            throw DatabaseError.configuration(
                "the type \(typeName) is not named Target_<name>; register it with register(_:as:)")
        }
        let name = String(typeName.dropFirst(prefix.count))
        try DatabaseName.validateTargetName(name)
        return name
    }
}
