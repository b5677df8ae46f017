import Foundation
import Testing

@testable import Persistance

/// Where `ContainerKeeper` stores the keyed containers it decodes from.
private final class KeptContainers: @unchecked Sendable {
    var containers: [Any] = []
    /// The superclass decoders of `SuperContainerKeeper`, not retained.
    var superDecoders: [() -> AnyObject?] = []
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

/// A record that decodes its name through `superDecoder()` and keeps that decoder's container.
private struct SuperContainerKeeper: Decodable {
    var name: String

    init(from decoder: any Decoder) throws {
        let superDecoder = try decoder.container(keyedBy: ContainerKeeper.CodingKeys.self).superDecoder()
        let container = try superDecoder.container(keyedBy: ContainerKeeper.CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        keptContainers.containers.append(container)
        weak let unretained = superDecoder as AnyObject
        keptContainers.superDecoders.append { unretained }
    }
}

private struct PlainName: Decodable {
    var name: String
}

/// The row decoder's keyed container refers to its decoder without retaining it; the
/// decoder must be freed with its statement's record decoder, unless a record kept the container.
@Suite struct KeptDecodingContainerTests {
    /// Decodes every row of `names` as `Element` and returns the row decoder, weakly.
    private func decodeAll<Element: Decodable>(_ type: Element.Type, _ conn: Connection) throws -> (
        names: [String], rowDecoder: () -> CodableRowDecoder?
    ) {
        let statement = try conn.prepare("SELECT name FROM names ORDER BY name")
        weak var rowDecoder: CodableRowDecoder?
        var decoded = [Element]()
        do {
            let decoder = CodableRecordDecoder<Element>(statement: statement, dateStrategy: .text)
            rowDecoder = decoder.decoder
            while try statement.step() {
                decoded.append(try decoder.decode(statement))
            }
        }
        let names = decoded.map {
            ($0 as? ContainerKeeper)?.name ?? ($0 as? SuperContainerKeeper)?.name ?? ($0 as? PlainName)?.name ?? "?"
        }
        return (names, { rowDecoder })
    }

    @Test func theRowDecoderIsFreedWithItsRecordDecoder() throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("CREATE TABLE names(name TEXT NOT NULL); INSERT INTO names VALUES ('a'), ('b')")
            let (names, rowDecoder) = try decodeAll(PlainName.self, conn)
            #expect(names == ["a", "b"])
            #expect(rowDecoder() == nil)
        }
    }

    @Test func aKeptContainerKeepsTheRowDecoderAlive() throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("CREATE TABLE names(name TEXT NOT NULL); INSERT INTO names VALUES ('a'), ('b')")
            let (names, rowDecoder) = try decodeAll(ContainerKeeper.self, conn)
            #expect(names == ["a", "b"])
            #expect(keptContainers.containers.count >= 2)
            #expect(rowDecoder() != nil)
        }
    }

    @Test func aContainerKeptFromTheSuperclassDecoderKeepsThatDecoderAlive() throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("CREATE TABLE names(name TEXT NOT NULL); INSERT INTO names VALUES ('a'), ('b')")
            let before = keptContainers.superDecoders.count
            let (names, _) = try decodeAll(SuperContainerKeeper.self, conn)
            #expect(names == ["a", "b"])
            let superDecoders = keptContainers.superDecoders[before...].map { $0() }
            #expect(superDecoders.count == 2)
            let allAlive = superDecoders.allSatisfy { $0 != nil }
            #expect(allAlive)
        }
    }

    @Test func aContainerKeptAcrossKeyTypesKeepsTheRowDecoderAlive() throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("CREATE TABLE names(name TEXT NOT NULL); INSERT INTO names VALUES ('a')")
            let statement = try conn.prepare("SELECT name FROM names")
            weak var rowDecoder: CodableRowDecoder?
            var kept: KeyedDecodingContainer<ContainerKeeper.CodingKeys>?
            do {
                let decoder = CodableRowDecoder(source: .statement(statement), dateStrategy: .text)
                rowDecoder = decoder
                #expect(try statement.step())
                kept = decoder.container(keyedBy: ContainerKeeper.CodingKeys.self)
                // Another key type replaces the kept container while `kept` still holds it.
                _ = try decoder.decode(PlainName.self)
            }
            #expect(rowDecoder != nil)
            #expect(try kept?.decode(String.self, forKey: .name) == "a")
        }
    }
}
