import Foundation
import Testing

/// The README's server recipe shows this example's code: each of its Swift blocks appears,
/// line for line (re-indented as a whole), in one of the example's source files.
@Suite struct ReadmeServerRecipeTests {
    private static let exampleFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let recipeHeading = "### Server recipe: observations as server-sent events"

    /// The Swift code blocks of the README's server recipe subsection.
    private func recipeBlocks() throws -> [[String]] {
        let readme = try String(
            contentsOf: Self.exampleFolder.appendingPathComponent("../../README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: Self.recipeHeading))
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("#") && !$0.hasPrefix("####") } ?? lines.endIndex
        var blocks: [[String]] = []
        var current: [String]?
        for line in lines[(start + 1)..<end] {
            if line == "```swift" {
                current = []
            } else if line == "```", let block = current {
                blocks.append(block)
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The text of every Swift file under the example's `Sources`.
    private func exampleSources() throws -> [String] {
        let sources = Self.exampleFolder.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map { try String(contentsOf: $0, encoding: .utf8) }
    }

    /// Whether `block` is in `source` with each line indented by one same prefix.
    private func contains(_ source: String, _ block: [String]) -> Bool {
        guard let first = block.first else { return false }
        for line in source.components(separatedBy: "\n") where line.hasSuffix(first) {
            let indent = String(line.dropLast(first.count))
            guard indent.allSatisfy({ $0 == " " }) else { continue }
            let indented = block.map { $0.isEmpty ? "" : indent + $0 }.joined(separator: "\n")
            if source.contains(indented) { return true }
        }
        return false
    }

    @Test func everyCodeBlockOfTheRecipeIsTheExamplesCode() throws {
        let blocks = try recipeBlocks()
        #expect(blocks.count >= 2)
        let sources = try exampleSources()
        for block in blocks {
            let found = sources.contains { contains($0, block) }
            #expect(found, "not in Examples/NotesServer/Sources:\n\(block.joined(separator: "\n"))")
        }
    }
}
