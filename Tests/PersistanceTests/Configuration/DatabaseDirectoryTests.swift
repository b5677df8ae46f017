import Foundation
import Testing

@testable import Persistance

@Suite struct DatabaseDirectoryTests {
    @Test func overrideWinsOverEnvironmentAndPlatform() {
        let environment = ["PERSISTANCE_DIRECTORY": "/srv/env", "XDG_DATA_HOME": "/xdg", "HOME": "/home/ann"]
        #expect(DatabaseDirectory.resolve(override: "/srv/override", environment: environment) == "/srv/override")
    }

    @Test func environmentVariableWinsOverThePlatformDefault() {
        #expect(DatabaseDirectory.resolve(override: nil, environment: ["PERSISTANCE_DIRECTORY": "/srv/db"]) == "/srv/db")
        let empty = DatabaseDirectory.resolve(override: nil, environment: ["PERSISTANCE_DIRECTORY": "", "HOME": "/h"])
        #expect(empty == DatabaseDirectory.platformDefault(environment: ["HOME": "/h"]))
    }

    #if !canImport(Darwin)
    @Test func linuxFollowsXDGDataHome() {
        #expect(DatabaseDirectory.platformDefault(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/ann"])
            == "/data/persistance")
    }

    @Test func linuxFallsBackToTheHomeDirectoryWhenXDGDataHomeIsUnsetOrRelative() {
        #expect(DatabaseDirectory.platformDefault(environment: ["HOME": "/home/ann"])
            == "/home/ann/.local/share/persistance")
        #expect(DatabaseDirectory.platformDefault(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/ann"])
            == "/home/ann/.local/share/persistance")
    }
    #endif

    @Test func currentIsAbsoluteAndUsedByRegistriesWithoutTheirOwnDirectory() {
        #expect(DatabaseDirectory.current.hasPrefix("/"))
        #expect(TargetRegistry().directory == DatabaseDirectory.current)
        #expect(TargetRegistry(defaultDirectory: "/srv/tests").directory == "/srv/tests")
    }
}
