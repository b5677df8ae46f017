import Foundation

/// Writes `line` to standard output with one unbuffered `write`, so that a line the test
/// reads was reported before the process died, in full.
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
