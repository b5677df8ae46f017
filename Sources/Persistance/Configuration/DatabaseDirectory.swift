import Foundation

/// The directory that holds databases whose target answers no file path.
///
/// The first of these wins:
/// 1. ``override``, when set (for example by an app at launch, or by a test);
/// 2. the `PERSISTANCE_DIRECTORY` environment variable, when set and not empty;
/// 3. the platform default:
///    - Linux and other non-Apple systems follow the XDG base-directory convention:
///      `$XDG_DATA_HOME/persistance` when `XDG_DATA_HOME` is an absolute path, otherwise
///      `$HOME/.local/share/persistance`;
///    - Apple platforms use `Application Support/Persistance` in the user's (or the app
///      container's) Library.
///
/// The directory must be an absolute path; it and any subfolders of a database name are
/// created when the database is first opened.
public enum DatabaseDirectory {
    /// The environment variable that overrides the platform default: `PERSISTANCE_DIRECTORY`.
    public static let environmentVariable = "PERSISTANCE_DIRECTORY"

    private static let overrideStorage = Guarded<String?>(nil)

    /// A directory that wins over the environment variable and the platform default; nil
    /// (the default) to use them.
    public static var override: String? {
        get { overrideStorage.withLock { $0 } }
        set { overrideStorage.withLock { $0 = newValue } }
    }

    /// The directory in use now.
    public static var current: String {
        resolve(override: override, environment: ProcessInfo.processInfo.environment)
    }

    /// The directory for an override and an environment, following the rules above.
    static func resolve(override: String?, environment: [String: String]) -> String {
        if let override { return override }
        if let variable = environment[environmentVariable], !variable.isEmpty { return variable }
        return platformDefault(environment: environment)
    }

    /// The platform default directory for an environment.
    static func platformDefault(environment: [String: String]) -> String {
        #if canImport(Darwin)
        let library = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
        return library.appendingPathComponent("Persistance").path
        #else
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return URL(fileURLWithPath: dataHome).appendingPathComponent("persistance").path
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/persistance").path
        #endif
    }
}
