import Foundation
import Hummingbird
import ServiceLifecycle

/// Adds the notes service's routes to `router`: `POST /notes` adds a note whose text is the
/// request's body and answers it as JSON; `GET /notes/events` streams the latest notes as
/// server-sent events (see `addNoteEventsRoute(to:store:streams:)`).
public func addNotesRoutes(to router: Router<some RequestContext>, store: NotesStore, streams: OpenEventStreams) {
    router.post("notes") { request, _ -> Note in
        let text = String(buffer: try await request.body.collect(upTo: 64 * 1024))
        return try await store.add(text)
    }
    addNoteEventsRoute(to: router, store: store, streams: streams)
}

/// Adds `GET /notes/events` to `router`: `text/event-stream`, one `data:` event (the latest
/// notes as a JSON array) for the current notes, then one after each commit that changed them.
/// The observation ends when the client disconnects (the loop is cancelled and its iterator
/// released) or when the server shuts down gracefully (the loop ends and the response
/// finishes); `streams` counts the streams open.
public func addNoteEventsRoute(to router: Router<some RequestContext>, store: NotesStore, streams: OpenEventStreams) {
    router.get("notes/events") { request, _ -> Response in
        Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                streams.opened()
                defer { streams.closed() }
                // The client's disconnect cancels the loop; a graceful shutdown ends it.
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    for try await notes in store.latestNotes().cancelOnGracefulShutdown() {
                        let json = String(decoding: try JSONEncoder().encode(notes), as: UTF8.self)
                        try await writer.write(ByteBuffer(string: "data: \(json)\n\n"))
                    }
                }
                try await writer.finish(nil)
            })
    }
}
