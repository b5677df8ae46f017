/// A value observation as its database's `ObservationScheduler` sees it: something that
/// fetches its value on a connection and hands it to its receivers, and that may end.
protocol ScheduledObservation: AnyObject, Sendable {
    /// Whether anyone still receives the values (an ended observation is not fetched).
    var isActive: Bool { get }
    /// Runs the fetch on `connection` and hands its value on.
    /// - Throws: the fetch's error.
    func fetchAndDeliver(on connection: Connection) throws
    /// Ends the observation for everyone receiving it, with `error` or none.
    func end(with error: (any Error)?)
}
