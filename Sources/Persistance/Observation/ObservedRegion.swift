/// What one value observation last fetched: the tables it read and the last commit its
/// value reflects; and whether it must fetch (again): before its first fetch, or once a
/// later commit touched those tables.
struct ObservedRegion: Sendable {
    /// The lowercased names of the tables the last fetch read; nil when unknown (any change
    /// counts) or before the first fetch.
    private(set) var tables: Set<String>?
    /// The sequence number of the last commit the last fetch saw.
    private var fetchedSequence: UInt64 = 0
    /// Whether the observation has to fetch: it never did, or a commit it did not see
    /// touched what it read.
    private(set) var needsFetch = true

    /// Notes commits that `touched` tables: the observation has to fetch again if its last
    /// fetch did not see one that touched the tables it read.
    mutating func note(_ touched: TouchedTables) {
        if !needsFetch, touched.touch(tables, after: fetchedSequence) { needsFetch = true }
    }

    /// Records a fetch that read `tables` (nil: unknown) in a snapshot that saw every commit
    /// up to `sequence` and none after. The commits after it are noted later (a round of
    /// fetches notes the commits announced while it ran once it is over).
    mutating func didFetch(tables: Set<String>?, sequence: UInt64) {
        self.tables = tables
        fetchedSequence = sequence
        needsFetch = false
    }
}
