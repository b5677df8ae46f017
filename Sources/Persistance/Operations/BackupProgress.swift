/// How far an online backup has come, reported after each step.
public struct BackupProgress: Sendable, Hashable {
    /// The pages copied so far.
    public let copiedPages: Int
    /// The pages the database had when the step ran.
    public let totalPages: Int

    /// The part copied, from 0 to 1.
    public var fractionCompleted: Double {
        totalPages == 0 ? 1 : Double(copiedPages) / Double(totalPages)
    }

    /// Whether every page has been copied.
    public var isComplete: Bool { copiedPages >= totalPages }
}
