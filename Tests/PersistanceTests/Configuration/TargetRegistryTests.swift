import Foundation
import Testing

@testable import Persistance

@Suite struct TargetRegistryTests {
    struct Target_game: ConfigurationTarget {}
    struct Target_chat: ConfigurationTarget {
        func secretKeys(for database: String) -> [String] { ["chat-key"] }
    }
    struct Target_with_underscore: ConfigurationTarget {}
    struct GameTarget: ConfigurationTarget {}

    @Test(arguments: [
        "aaa.sqlite", "aaa_bbb.sqlite", "aaa_bbb", "aaa.abc.sqlite", "aaa", "aaa_b.c_d", "sub/dir/aaa_bbb.sqlite",
        "x_y/aaa.sqlite",
    ])
    func databaseNamesMapToTheirTargetName(databaseName: String) throws {
        #expect(try TargetRegistry.targetName(forDatabase: databaseName) == "aaa")
    }

    @Test(arguments: ["", "/abs/game.sqlite", "a//game.sqlite", "../game.sqlite", "a/./game.sqlite", "dir/", "game\0.sqlite"])
    func invalidDatabaseNamesAreRejected(databaseName: String) throws {
        expectThrows(.configuration) { try TargetRegistry.targetName(forDatabase: databaseName) }
        expectThrows(.configuration) { try TargetRegistry().target(forDatabase: databaseName) }
    }

    @Test func registersByTypeNameAndFindsByDatabaseName() throws {
        let registry = TargetRegistry()
        try registry.register(Target_game())
        try registry.register(Target_chat())
        #expect(try registry.target(forDatabase: "game_main.sqlite") is Target_game)
        #expect(try registry.target(forDatabase: "saves/game.v2.sqlite") is Target_game)
        #expect(try registry.target(forDatabase: "chat_2024")?.secretKeys(for: "chat_2024") == ["chat-key"])
        #expect(try registry.target(forDatabase: "other.sqlite") == nil)
    }

    @Test func lookupIsCaseSensitive() throws {
        let registry = TargetRegistry()
        try registry.register(Target_game())
        #expect(try registry.target(forDatabase: "Game.sqlite") == nil)
        #expect(try registry.target(forDatabase: "GAME") == nil)
        #expect(try registry.target(forDatabase: "game") != nil)
    }

    @Test func typesNotNamedTargetUnderscoreNameAreRejected() throws {
        let registry = TargetRegistry()
        let wrongPrefix = expectThrows(.configuration) { try registry.register(GameTarget()) }
        #expect(wrongPrefix?.message.contains("GameTarget") == true)
        expectThrows(.configuration) { try registry.register(Target_with_underscore()) }
        #expect(try TargetRegistry.targetName(of: Target_game.self) == "game")
    }

    @Test(arguments: ["", "a_b", "a.b", "a/b", "a\0b"])
    func namesNoDatabaseCanMapToAreRejected(name: String) throws {
        let registry = TargetRegistry()
        expectThrows(.configuration) { try registry.register(Target_game(), as: name) }
    }

    @Test func registeringAgainReplacesAndUnregisterRemoves() throws {
        let registry = TargetRegistry()
        try registry.register(Target_game(), as: "app")
        try registry.register(Target_chat(), as: "app")
        #expect(registry.target(named: "app") is Target_chat)
        #expect(registry.unregister("app") is Target_chat)
        #expect(registry.target(named: "app") == nil)
        #expect(registry.unregister("app") == nil)
    }

    @Test func registryIsSafeToUseFromManyThreads() throws {
        let registry = TargetRegistry()
        let failures = Guarded(0)
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            do {
                try registry.register(Target_game(), as: "t\(index)")
                if try registry.target(forDatabase: "t\(index)_db.sqlite") == nil {
                    failures.withLock { $0 += 1 }
                }
                if index.isMultiple(of: 2) { registry.unregister("t\(index)") }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect((0..<200).filter { registry.target(named: "t\($0)") != nil }.count == 100)
    }
}
