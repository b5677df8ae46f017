#if PostgreSQL
import Persistance
import PersistancePostgres
import Testing

@Suite struct PostgresConfigurationTests {
    @Test func aURLGivesEveryPart() throws {
        let configuration = try PostgresConfiguration(url: "postgres://app%40x:p%2Fss@db.internal:6543/game%20main?sslmode=require")
        #expect(configuration.username == "app@x")
        #expect(configuration.password == "p/ss")
        #expect(configuration.host == "db.internal")
        #expect(configuration.port == 6543)
        #expect(configuration.database == "game main")
        #expect(configuration.tls == .require)
        #expect(configuration.address == "db.internal:6543")
    }

    @Test func defaultsFillWhatTheURLLeavesOut() throws {
        let configuration = try PostgresConfiguration(url: "postgresql://app@localhost")
        #expect(configuration.port == 5432)
        #expect(configuration.password == nil)
        #expect(configuration.database == nil)
        #expect(configuration.tls == .prefer)
        #expect(configuration.transactionRetries == 3)
        #expect(configuration.isolationLevel == .readCommitted)
        #expect(configuration.statementTimeout == nil)
    }

    @Test func theDescriptionMasksThePassword() throws {
        let configuration = try PostgresConfiguration(url: "postgres://app:hunter2-secret@h:1/db")
        #expect(configuration.description == "postgres://app:***@h:1/db")
        #expect(try PostgresConfiguration(url: "postgres://app@h/db").description == "postgres://app@h:5432/db")
    }

    @Test(arguments: [
        "mysql://app:hunter2-secret@h/db", "postgres://:hunter2-secret@h/db", "postgres://app:hunter2-secret@/db",
        "postgres://app:hunter2-secret@h:70000/db", "postgres://app:hunter2-secret@h/db?sslmode=sometimes", "not a url",
    ])
    func aMalformedURLIsAConfigurationErrorWithoutThePassword(url: String) {
        do {
            _ = try PostgresConfiguration(url: url)
            Issue.record("expected \(url) to be refused")
        } catch let error as DatabaseError {
            #expect(error.kind == .configuration)
            #expect(!error.description.contains("hunter2-secret"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
#endif
