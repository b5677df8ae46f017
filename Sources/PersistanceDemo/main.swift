import Foundation
import Persistance

// The Persistance demo: each section shows one layer of the library at work.
let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("persistance-demo-\(ProcessInfo.processInfo.processIdentifier)").path
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }

print("Persistance demo — SQLite \(SQLiteEngine.version)"
    + (SQLiteEngine.sqlcipherVersion.map { ", SQLCipher \($0)" } ?? ""))
try runCoreDemo(in: directory)
try runConfigurationDemo(in: directory)
try runDeclaredSchemaDemo(in: directory)
try runRecordsDemo(in: directory)
try runQueryDemo(in: directory)
try runFullTextDemo(in: directory)
try runMacroRecordsDemo(in: directory)
try await runExecutorDemo(in: directory)
try await runDAODemo(in: directory)
try await runDocumentsDemo(in: directory)
print("\nDemo finished.")
