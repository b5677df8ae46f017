import Foundation

/// Where a key comes from: an environment variable, else a prompt that does not echo when
/// standard input is a terminal. Never the command line, where other users can read it.
struct KeySource {
    /// The variable holding the file's key unless `--key-env` names another.
    static let defaultVariable = "PERSISTANCE_KEY"
    /// The variable holding a new key unless `--new-key-env` names another.
    static let defaultNewVariable = "PERSISTANCE_NEW_KEY"

    /// The environment variable to read.
    let variable: String
    /// What the prompt asks for.
    let prompt: String

    /// The key, if the variable holds one or the user typed one; nil otherwise.
    func key() throws -> String? {
        if let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty { return value }
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        return try Self.readWithoutEcho(prompt: prompt)
    }

    /// The key, or an error naming the variable to set.
    func requiredKey() throws -> String {
        guard let key = try key() else {
            throw CLIError("no key: set \(variable) (or run in a terminal to be asked)")
        }
        return key
    }

    /// A new key, typed twice when prompted, so a typo cannot lock the file.
    func confirmedKey() throws -> String {
        if let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty { return value }
        let first = try requiredKey()
        let second = try Self.readWithoutEcho(prompt: "Repeat it: ")
        guard first == second else { throw CLIError("the two keys typed differ") }
        return first
    }

    /// One line typed on the terminal with echo off, restored afterwards.
    private static func readWithoutEcho(prompt: String) throws -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw CLIError("no key typed")
        }
        return line
    }
}
