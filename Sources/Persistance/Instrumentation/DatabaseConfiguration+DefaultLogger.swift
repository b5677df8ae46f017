import Foundation
import Logging

extension DatabaseConfiguration {
    /// The environment variable that turns on the default logger: `trace`, `debug`, `info`,
    /// `notice`, `warning`, `error` or `critical`.
    public static let logLevelEnvironmentVariable = "PERSISTANCE_LOG_LEVEL"

    /// The logger a configuration starts with, following the server-side convention that a
    /// library is silent unless asked: a logger that discards everything, unless the
    /// `PERSISTANCE_LOG_LEVEL` environment variable names a level, in which case it is
    /// `Logger(label: "persistance")` from the bootstrapped `LoggingSystem` at that level.
    /// Applications usually pass their own logger in ``DatabaseConfiguration/logger`` instead.
    public static var defaultLogger: Logger {
        let environment = ProcessInfo.processInfo.environment[logLevelEnvironmentVariable]
        guard let level = environment.flatMap({ Logger.Level(rawValue: $0.lowercased()) }) else {
            return Logger(label: "persistance", factory: { _ in SwiftLogNoOpLogHandler() })
        }
        var logger = Logger(label: "persistance")
        logger.logLevel = level
        return logger
    }
}
