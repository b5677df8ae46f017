import Hummingbird

/// A note of the notes service: a row of the `note` table.
public struct Note: Codable, Equatable, Sendable, ResponseEncodable {
    /// The row id.
    public var id: Int64
    /// The text of the note.
    public var text: String

    /// A note with `id` and `text`.
    public init(id: Int64, text: String) {
        self.id = id
        self.text = text
    }
}
