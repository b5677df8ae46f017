import AsyncHTTPClient
import Foundation
import NIOCore
import NotesServer
import Testing

/// A real HTTP client of the notes service on 127.0.0.1:`port`.
struct NotesClient {
    let port: Int

    /// Adds a note through `POST /notes` and returns the note the server answered.
    func add(_ text: String) async throws -> Note {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/notes")
        request.method = .POST
        request.body = .bytes(ByteBuffer(string: text))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        #expect(response.status == .ok)
        let body = try await response.body.collect(upTo: 64 * 1024)
        return try JSONDecoder().decode(Note.self, from: Data(body.readableBytesView))
    }

    /// Opens `GET /notes/events`.
    func events() async throws -> NoteEvents {
        let request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/notes/events")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        #expect(response.status == .ok)
        #expect(response.headers["content-type"] == ["text/event-stream"])
        return NoteEvents(body: response.body.makeAsyncIterator())
    }
}

/// The server-sent events of `GET /notes/events` as they arrive: each event's notes.
struct NoteEvents {
    private var body: HTTPClientResponse.Body.AsyncIterator
    private var pending = ""

    init(body: HTTPClientResponse.Body.AsyncIterator) {
        self.body = body
    }

    /// The notes of the next event, or nil once the server ended the stream.
    mutating func next() async throws -> [Note]? {
        while true {
            if let end = pending.range(of: "\n\n") {
                let event = String(pending[..<end.lowerBound])
                pending.removeSubrange(..<end.upperBound)
                let data = try #require(event.hasPrefix("data: ") ? event.dropFirst(6) : nil)
                return try JSONDecoder().decode([Note].self, from: Data(data.utf8))
            }
            guard let chunk = try await body.next() else {
                #expect(pending.isEmpty)
                return nil
            }
            pending += String(buffer: chunk)
        }
    }
}
