/// The records an owner reaches through another association: a team's scores through its
/// players, a student's courses through their enrollments. Made by
/// `TableRecord.hasMany(_:through:using:)`; loads with one query per step.
///
/// Each owner gets the records of every intermediate record, in the order of the steps,
/// without duplicates removed (two enrollments in one course list it twice).
public struct HasManyThroughAssociation<Owner: Record, Item>: Association {
    public let ownerKey: String
    let path: any ThroughPath<Item>

    init<Middle: Record, Step: Association>(through: HasManyAssociation<Owner, Middle, Middle>, using step: Step)
    where Step.Owner == Middle, Step.Loaded: LoadedItems, Step.Loaded.Item == Item {
        ownerKey = through.ownerKey
        path = TwoSteps<Owner, Middle, Step>(path: through.including(step))
    }

    public var loadedWithoutRecords: [Item] { [] }

    public func load(forKeys keys: [DatabaseValue], in conn: Connection) throws -> [DatabaseValue: [Item]] {
        try path.load(forKeys: keys, in: conn)
    }
}

/// The items reached by a has-many-through association, by owner key.
protocol ThroughPath<Item>: Sendable {
    associatedtype Item
    func load(forKeys keys: [DatabaseValue], in conn: Connection) throws -> [DatabaseValue: [Item]]
}

/// The first step with the second included, flattened.
private struct TwoSteps<Owner: Record, Middle: Record, Step: Association>: ThroughPath
where Step.Owner == Middle, Step.Loaded: LoadedItems {
    let path: HasManyAssociation<Owner, Middle, (Middle, Step.Loaded)>

    func load(forKeys keys: [DatabaseValue], in conn: Connection) throws -> [DatabaseValue: [Step.Loaded.Item]] {
        try path.load(forKeys: keys, in: conn).mapValues { pairs in pairs.flatMap(\.1.loadedItems) }
    }
}

/// What a to-many or to-one association loads, as an array.
protocol LoadedItems {
    associatedtype Item
    var loadedItems: [Item] { get }
}

extension Array: LoadedItems {
    var loadedItems: [Element] { self }
}

extension Optional: LoadedItems {
    var loadedItems: [Wrapped] { map { [$0] } ?? [] }
}
