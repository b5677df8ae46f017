import Foundation
import Persistance

// The SRPPlist loop of 1,000 `createOrUpdate(["data": i], where: nil)`, on a document
// collection in a fresh WAL file database (synchronous = NORMAL, the library's default):
// without the write-back cache (each call its own transaction) and with it (one `save()`).
// Targets: under 0.25 s and under 0.02 s. Each timed loop is a callgrind region (see
// profile.sh): `valgrind --tool=callgrind --dump-before='*timedRegionStart*'
// --dump-before='*timedRegionEnd*' .build/release/persistance-bench documents 1`.
//
//     swift run -c release --package-path Benchmarks persistance-bench documents [runs]

/// Runs the document loop benchmark `runs` times each way and prints min / median / max.
func runDocumentLoopBenchmark(runs: Int) -> Int32 {
    let outcome = OutcomeBox<Result<[String], any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let result = await Result { try await documentLoopReport(runs: runs) }
        outcome.set(result)
        done.signal()
    }
    done.wait()
    do {
        for line in try outcome.get()!.get() { print(line) }
        return 0
    } catch {
        FileHandle.standardError.write(Data("persistance-bench documents: \(error)\n".utf8))
        return 1
    }
}

private func documentLoopReport(runs: Int) async throws -> [String] {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("persistance-bench-documents-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var lines = ["documents: 1,000 createOrUpdate(where: nil), \(runs) runs each, seconds (min / median / max)"]
    for cached in [false, true] {
        var seconds: [Double] = []
        for run in 0..<runs {
            let path = directory.appendingPathComponent("\(cached ? "cached" : "direct")-\(run).sqlite").path
            let db = try await Database.open(configuration: DatabaseConfiguration(path: path))
            let collection = try await db.collection("db")
            timedRegionStart()
            let start = ContinuousClock.now
            let target = cached ? collection.beginCaching() : collection
            for index in 0..<1_000 {
                try await target.createOrUpdate(["data": .int(Int64(index))], where: nil)
            }
            if cached { try await target.save() }
            let elapsed = ContinuousClock.now - start
            timedRegionEnd()
            // Verify: every document is stored.
            guard try await collection.count() == 1_000, try await collection.count(where: DocumentField("data") == 999) == 1 else {
                throw DocumentBenchmarkFailure(description: "the loop did not store 1,000 documents")
            }
            try await db.close()
            seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        seconds.sort()
        let figures = [seconds.first!, seconds[seconds.count / 2], seconds.last!].map { String(format: "%.4f", $0) }
        lines.append("  \(cached ? "with cache   " : "without cache"): \(figures.joined(separator: " / "))"
            + "  (target < \(cached ? "0.02" : "0.25"))")
    }
    return lines
}

private struct DocumentBenchmarkFailure: Error, CustomStringConvertible {
    let description: String
}

/// A value set once from another thread and read after a semaphore.
private final class OutcomeBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked: written once before `done.signal()`, read after `done.wait()`.
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ newValue: Value) { value = newValue }
    func get() -> Value { value }
}

extension Result where Failure == any Error {
    fileprivate init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
