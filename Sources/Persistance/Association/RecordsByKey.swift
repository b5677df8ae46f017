/// Records grouped by key as the rows of an association's query are read. The rows mostly
/// come in runs of one key (the key column's index is scanned key by key), so each run is
/// collected, then filed under its key at once rather than record by record.
@usableFromInline
struct RecordsByKey<Record> {
    /// The records filed so far.
    @usableFromInline var grouped: [DatabaseValue: [Record]]
    /// The records of the current run, all of key `runKey`.
    @usableFromInline var run: [Record] = []
    @usableFromInline var runKey: DatabaseValue?

    @inlinable
    init(keyCount: Int) {
        grouped = [DatabaseValue: [Record]](minimumCapacity: keyCount)
    }

    /// Adds `record`, whose key is `key`, after the records added before it.
    @inlinable
    mutating func add(_ record: Record, key: DatabaseValue) {
        if key != runKey {
            fileRun()
            runKey = key
        }
        run.append(record)
    }

    /// Every record added, by key, each key's in the order they were added.
    @inlinable
    mutating func finish() -> [DatabaseValue: [Record]] {
        fileRun()
        return grouped
    }

    /// Files the current run under its key: moved in when the key has no records yet, else
    /// appended to them.
    @inlinable
    mutating func fileRun() {
        guard let runKey else { return }
        if let index = grouped.index(forKey: runKey) {
            grouped.values[index].append(contentsOf: run)
            run.removeAll(keepingCapacity: true)
        } else {
            grouped[runKey] = run
            run = []
        }
        self.runKey = nil
    }
}
