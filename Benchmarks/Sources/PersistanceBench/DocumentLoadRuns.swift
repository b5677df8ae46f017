import Foundation

/// `persistance-bench documents [runs] [--load 0,1,2]`: the document loop benchmark
/// (`runDocumentLoopBenchmark`), once per background load (`BackgroundLoad`), one after
/// another; without `--load`, once on the machine as it is.
func runDocumentLoopBenchmarkUnderLoads(_ arguments: [String]) -> Int32 {
    var runs = 5
    var factors: [Int]?
    var remaining = arguments[...]
    do {
        while let argument = remaining.popFirst() {
            if argument == "--load" {
                guard let value = remaining.popFirst() else { throw Options.UsageError(description: "--load needs a value") }
                factors = try Options.loadFactors(value.split(separator: ",").map(String.init))
            } else if let count = Int(argument), count >= 1 {
                runs = count
            } else {
                throw Options.UsageError(description: "documents: unknown argument '\(argument)'")
            }
        }
    } catch {
        FileHandle.standardError.write(Data("persistance-bench \(error)\nUSAGE: persistance-bench documents [runs] [--load 0,1,2]\n".utf8))
        return 2
    }
    guard let factors else { return runDocumentLoopBenchmark(runs: runs) }
    for factor in factors {
        let status = BackgroundLoad.with(factor: factor) { load in
            print("== \(load.label)")
            return runDocumentLoopBenchmark(runs: runs)
        }
        guard status == 0 else { return status }
    }
    return 0
}
