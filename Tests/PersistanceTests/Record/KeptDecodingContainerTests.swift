import Foundation
import Testing

@testable import Persistance

/// Where `ContainerKeeper` stores the keyed containers it decodes from.
private final class KeptContainers: @unchecked Sendable {
    var containers: [Any] = []
}

private let keptContainers = KeptContainers()

/// A record that decodes with the row decoder and keeps each keyed container it was given.
private struct ContainerKeeper: Decodable {
    var name: String

    enum CodingKeys: String, CodingKey {
        case name
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        keptContainers.containers.append(container)
    }
}

private struct PlainName: Decodable {
    var name: String
}

/// The row decoder's keyed container refers to its plan without retaining it; the plan
/// must be freed with the decoder, unless a record kept the container.
@Suite struct KeptDecodingContainerTests {
    /// Decodes every row of `names` as `Element` and returns the decoder's plan, weakly.
    private func decodeAll<Element: Decodable>(_ type: Element.Type, _ conn: Connection) throws -> (
        names: [String], plan: () -> RowDecodingPlan?
    ) {
        let statement = try conn.prepare("SELECT name FROM names ORDER BY name")
        weak var plan: RowDecodingPlan?
        var decoded = [Element]()
        do {
            let decoder = CodableRecordDecoder<Element>(statement: statement, dateStrategy: .text)
            plan = decoder.plan
            while try statement.step() {
                decoded.append(try decoder.decode(statement))
            }
        }
        let names = decoded.map { ($0 as? ContainerKeeper)?.name ?? ($0 as? PlainName)?.name ?? "?" }
        return (names, { plan })
    }

    @Test func thePlanIsFreedWithItsDecoder() throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("CREATE TABLE names(name TEXT NOT NULL); INSERT INTO names VALUES ('a'), ('b')")
            let (names, plan) = try decodeAll(PlainName.self, conn)
            #expect(names == ["a", "b"])
            #expect(plan() == nil)
        }
    }

    @Test func aKeptContainerKeepsThePlanAlive() throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("CREATE TABLE names(name TEXT NOT NULL); INSERT INTO names VALUES ('a'), ('b')")
            let (names, plan) = try decodeAll(ContainerKeeper.self, conn)
            #expect(names == ["a", "b"])
            #expect(keptContainers.containers.count >= 2)
            #expect(plan() != nil)
        }
    }
}
