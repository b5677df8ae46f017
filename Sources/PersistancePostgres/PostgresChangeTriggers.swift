#if PostgreSQL
import Logging
import Persistance
import PostgresNIO

/// The triggers that announce commits: on each observed table, one statement-level
/// `AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE` trigger, `persistance_notify_change`, calls
/// `pg_notify('persistance_changes', '<schema>.<table>')`.
///
/// PostgreSQL delivers a notification only when its transaction commits (never for one that
/// rolls back, nor for a savepoint rolled back), in commit order, and folds the notifications
/// of one transaction with the same channel and payload into one: a commit is announced once
/// per table it changed, however many statements changed it. A statement that changes no row
/// still fires a statement-level trigger, so it announces its table too. Notifications go to
/// the listeners of the same database only: the one channel serves the whole database, and the
/// payload names the schema.
enum PostgresChangeTriggers {
    /// The channel every trigger notifies and every `PostgresChangeNotifier` listens on.
    static let channel = "persistance_changes"

    /// The advisory lock under which triggers are installed, so that app instances installing
    /// them at once neither fail on each other's `CREATE` nor install a trigger twice.
    static let installLock: Int64 = 0x7065_7273_6973_7401

    private static let quietLogger = Logger(label: "persistance.postgres.quiet") { _ in SwiftLogNoOpLogHandler() }

    /// A table with its catalog identity: what triggers are installed on and notifications name.
    struct Table: Hashable, Sendable {
        /// The table's `oid`.
        let oid: Int64
        /// The name as the catalog spells it.
        let name: String
        /// `schema.table`, as the triggers' payload names the table.
        let qualifiedName: String
    }

    /// The tables `names` denote (SQL names, resolved through the search path like a query's:
    /// `player`, `game.player`, `"Player"`).
    /// - Throws: `DatabaseError.Kind.invalidArguments` for a name that denotes no table (a view, a
    ///   system catalog); `DatabaseError.Kind.postgres` for one that is no SQL name.
    static func tables(named names: [String], on connection: PostgresConnection) async throws -> [Table] {
        var tables: [Table] = []
        for name in names {
            let rows = try await connection.query(
                """
                SELECT c.oid::int8, c.relname::text, n.nspname::text, c.relkind::text
                FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE c.oid = to_regclass(\(name))
                """, logger: quietLogger
            ).collect()
            guard let row = rows.first else {
                throw DatabaseError(kind: .invalidArguments, message: "there is no table named \(name) to observe")
            }
            let (oid, relation, schema, kind) = try row.decode((Int64, String, String, String).self)
            guard kind == "r" || kind == "p" else {
                throw DatabaseError(kind: .invalidArguments, message: "\(name) is not a table: only tables can be observed")
            }
            guard schema != "pg_catalog", schema != "information_schema" else {
                throw DatabaseError(kind: .invalidArguments, message: "\(name) is a system catalog: it cannot be observed")
            }
            tables.append(Table(oid: oid, name: relation, qualifiedName: "\(schema).\(relation)"))
        }
        return tables
    }

    /// Installs the trigger on each of `tables` that lacks it (and the function it calls, in the
    /// table's schema), in one transaction under ``installLock``.
    static func install(on tables: some Collection<Table>, on connection: PostgresConnection) async throws {
        guard !tables.isEmpty else { return }
        // The tables go in as oids: numbers, so nothing of a name is spliced into the SQL.
        let oids = tables.map { String($0.oid) }.joined(separator: ",")
        let sql = """
            DO $persistance$
            DECLARE
                target regclass;
                target_schema name;
            BEGIN
                PERFORM pg_advisory_xact_lock(\(installLock));
                FOREACH target IN ARRAY ARRAY[\(oids)]::oid[]::regclass[] LOOP
                    SELECT n.nspname INTO target_schema
                    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = target;
                    EXECUTE format(
                        $f$CREATE OR REPLACE FUNCTION %I.persistance_notify_change() RETURNS trigger
                           LANGUAGE plpgsql AS $body$
                           BEGIN
                               PERFORM pg_notify('\(channel)', TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME);
                               RETURN NULL;
                           END
                           $body$$f$,
                        target_schema);
                    IF NOT EXISTS (
                        SELECT 1 FROM pg_trigger WHERE tgrelid = target AND tgname = 'persistance_notify_change'
                    ) THEN
                        EXECUTE format(
                            'CREATE TRIGGER persistance_notify_change '
                            'AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %s '
                            'FOR EACH STATEMENT EXECUTE FUNCTION %I.persistance_notify_change()',
                            target, target_schema);
                    END IF;
                END LOOP;
            END
            $persistance$
            """
        _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: quietLogger).collect()
    }

    /// The tables `transaction` has read or written so far: those it holds a lock on (every
    /// statement locks the tables it reads, through views and functions too, until the
    /// transaction ends). The catalog, temporary tables and materialized views are left out: no
    /// other session changes the first two, and a materialized view changes only when refreshed.
    static func tablesLocked(by transaction: PostgresTransaction) async throws -> Set<Table> {
        let rows = try await transaction.fetchAll("""
            SELECT DISTINCT c.oid::int8, c.relname::text, n.nspname::text
            FROM pg_locks l
            JOIN pg_class c ON c.oid = l.relation
            JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE l.locktype = 'relation' AND l.pid = pg_backend_pid()
              AND c.relkind IN ('r', 'p') AND c.relpersistence <> 't'
              AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'
            """)
        return Set(try rows.map { row in
            let name = try row.value(at: 1, as: String.self)
            return Table(
                oid: try row.value(at: 0, as: Int64.self), name: name,
                qualifiedName: "\(try row.value(at: 2, as: String.self)).\(name)")
        })
    }
}
#endif
