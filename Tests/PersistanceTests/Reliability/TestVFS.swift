import CPersistanceTestVFS
import Foundation

@testable import Persistance

/// One registered instance of the test VFS (`Tests/CPersistanceTestVFS`): the default VFS
/// wrapped so that a test can cut the power at a chosen write or sync call, then apply the
/// power loss to the files (unsynced changes dropped, `-shm` deleted), or make the Nth call of
/// some kind fail with its I/O error. Each instance has its own name and state, so tests
/// running in parallel do not disturb each other. Close every connection opened through it
/// before applying a power loss and before it is released.
final class TestVFS: @unchecked Sendable {
    /// Kinds of VFS calls, to count or to fail.
    struct Kinds: OptionSet, Sendable, CustomStringConvertible {
        let rawValue: UInt32
        /// `xRead`, failing with `SQLITE_IOERR_READ`.
        static let read = Kinds(rawValue: UInt32(PERSISTANCE_TEST_VFS_READ))
        /// `xWrite`, failing with `SQLITE_IOERR_WRITE`.
        static let write = Kinds(rawValue: UInt32(PERSISTANCE_TEST_VFS_WRITE))
        /// `xSync`, failing with `SQLITE_IOERR_FSYNC`.
        static let sync = Kinds(rawValue: UInt32(PERSISTANCE_TEST_VFS_SYNC))
        /// `xLock`, failing with `SQLITE_IOERR_LOCK`.
        static let lock = Kinds(rawValue: UInt32(PERSISTANCE_TEST_VFS_LOCK))
        /// `xTruncate`, failing with `SQLITE_IOERR_TRUNCATE`.
        static let truncate = Kinds(rawValue: UInt32(PERSISTANCE_TEST_VFS_TRUNCATE))
        /// `xFileSize`, failing with `SQLITE_IOERR_FSTAT`.
        static let fileSize = Kinds(rawValue: UInt32(PERSISTANCE_TEST_VFS_FILE_SIZE))
        /// `xAccess`, failing with `SQLITE_IOERR_ACCESS`.
        static let access = Kinds(rawValue: UInt32(PERSISTANCE_TEST_VFS_ACCESS))

        /// Each kind on its own, in the order the header lists them.
        static let each: [Kinds] = [.read, .write, .sync, .lock, .truncate, .fileSize, .access]

        var description: String {
            let names = ["read", "write", "sync", "lock", "truncate", "fileSize", "access"]
            return zip(Self.each, names).filter { contains($0.0) }.map(\.1).joined(separator: "+")
        }
    }

    /// The name connections open it by (`Connection.Options.vfs`).
    let name: String
    private let handle: OpaquePointer

    init() throws {
        name = "persistance-crash-\(UUID().uuidString)"
        guard let handle = persistance_test_vfs_create(name) else {
            throw DatabaseError(kind: .misuse, message: "cannot register the test VFS \(name)")
        }
        self.handle = handle
    }

    deinit {
        persistance_test_vfs_destroy(handle)
    }

    /// Connection options that open files through this VFS.
    var options: Connection.Options {
        var options = Connection.Options()
        options.vfs = name
        return options
    }

    /// `configuration` with its connections opened through this VFS.
    func configuring(_ configuration: DatabaseConfiguration) -> DatabaseConfiguration {
        var configuration = configuration
        configuration.connectionOptions.vfs = name
        return configuration
    }

    // MARK: Power loss

    /// Cuts the power at the `call`-th write or sync from now (1: the next one); from there
    /// on every I/O call fails.
    func schedulePowerCut(atCall call: Int) {
        persistance_test_vfs_schedule_power_cut(handle, call)
    }

    /// Whether the scheduled power cut has happened.
    var powerIsCut: Bool { persistance_test_vfs_power_is_cut(handle) != 0 }

    /// Applies the power loss to the files, once every connection through this VFS is closed:
    /// unsynced writes and truncations are undone (in `torn` mode each file's last unsynced
    /// write keeps its first 512 bytes) and `-shm` files are deleted. Then the power is back.
    func applyPowerLoss(torn: Bool) throws {
        let error = persistance_test_vfs_apply_power_loss(handle, torn ? 512 : 0)
        guard error == 0 else {
            throw DatabaseError.fileSystem("applying the power loss failed: \(String(cString: strerror(error)))")
        }
    }

    /// Takes everything written so far as durable.
    func markDurable() {
        persistance_test_vfs_mark_durable(handle)
    }

    /// Forgets the files written so far, taking their changes as durable (and deleting their
    /// `-shm` files), once every connection through this VFS is closed.
    func forgetFiles() throws {
        markDurable()
        try applyPowerLoss(torn: false)
    }

    // MARK: I/O errors

    /// Makes the `call`-th call of `kinds` from now fail with its I/O error, and with
    /// `persistent` every later one too, until `clearFault()`.
    func injectFault(_ kinds: Kinds, atCall call: Int, persistent: Bool = false) {
        persistance_test_vfs_inject_fault(handle, kinds.rawValue, call, persistent ? 1 : 0)
    }

    /// Stops injecting faults.
    func clearFault() {
        persistance_test_vfs_clear_fault(handle)
    }

    /// How many calls failed by injection since the fault was set.
    var faultsInjected: Int { persistance_test_vfs_faults_injected(handle) }

    // MARK: Counters

    /// How many calls of `kinds` were made since the counters were reset.
    func callCount(_ kinds: Kinds) -> Int {
        persistance_test_vfs_call_count(handle, kinds.rawValue)
    }

    /// How many syncs succeeded since the counters were reset.
    var successfulSyncs: Int { persistance_test_vfs_successful_syncs(handle) }

    /// Sets the counters to zero.
    func resetCounts() {
        persistance_test_vfs_reset_counts(handle)
    }
}
