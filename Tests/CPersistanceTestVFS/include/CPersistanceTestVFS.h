#ifndef PERSISTANCE_TEST_VFS_H
#define PERSISTANCE_TEST_VFS_H
/* A SQLite VFS for the reliability tests: it wraps the default VFS (normally "unix") and can
   simulate a power cut or inject I/O errors. See PersistanceTestVFS.c for the model.
   The header uses no SQLite type, so Swift sees it apart from the SQLite module. */

/* One registered instance of the test VFS, with its own fault state and its own name. */
typedef struct persistance_test_vfs persistance_test_vfs;

/* The kinds of calls a fault or a counter selects (a bit mask). */
enum {
    PERSISTANCE_TEST_VFS_READ = 1,      /* xRead: fails with SQLITE_IOERR_READ */
    PERSISTANCE_TEST_VFS_WRITE = 2,     /* xWrite: SQLITE_IOERR_WRITE */
    PERSISTANCE_TEST_VFS_SYNC = 4,      /* xSync: SQLITE_IOERR_FSYNC */
    PERSISTANCE_TEST_VFS_LOCK = 8,      /* xLock: SQLITE_IOERR_LOCK */
    PERSISTANCE_TEST_VFS_TRUNCATE = 16, /* xTruncate: SQLITE_IOERR_TRUNCATE */
    PERSISTANCE_TEST_VFS_FILE_SIZE = 32,/* xFileSize: SQLITE_IOERR_FSTAT */
    PERSISTANCE_TEST_VFS_ACCESS = 64,   /* xAccess: SQLITE_IOERR_ACCESS */
};

/* Registers a new instance named `name` (not the default VFS). NULL when `name` is taken or
   memory runs out. */
persistance_test_vfs *persistance_test_vfs_create(const char *name);

/* Unregisters and frees the instance. No connection may still use it. */
void persistance_test_vfs_destroy(persistance_test_vfs *vfs);

/* Cuts the power at the `calls`-th xWrite or xSync call from now (1 is the next one): that
   call and every I/O call after it fail with SQLITE_IOERR_*, as if the machine had stopped.
   0 cancels a scheduled cut. */
void persistance_test_vfs_schedule_power_cut(persistance_test_vfs *vfs, long calls);

/* Whether the scheduled cut has happened. */
int persistance_test_vfs_power_is_cut(persistance_test_vfs *vfs);

/* Applies the power loss to the files on disk, once every connection using the instance is
   closed: drops every write and truncation not covered by a later successful xSync of its
   file, keeping the first `torn_bytes` bytes of each file's last unsynced write when
   `torn_bytes` > 0 (a torn write), and deletes the "-shm" file of every main database
   opened. Then the power is back: nothing fails, nothing is pending. Returns 0, or the errno
   of a file that could not be restored. */
int persistance_test_vfs_apply_power_loss(persistance_test_vfs *vfs, int torn_bytes);

/* Takes everything written so far as durable (as if every file had been synced). */
void persistance_test_vfs_mark_durable(persistance_test_vfs *vfs);

/* Makes the `call`-th call (1 is the next one) of the kinds in `kinds` fail with its I/O error
   code; with `persistent`, every later call of those kinds fails too, until cleared. */
void persistance_test_vfs_inject_fault(persistance_test_vfs *vfs, unsigned kinds, long call, int persistent);

/* Stops injecting faults. */
void persistance_test_vfs_clear_fault(persistance_test_vfs *vfs);

/* How many calls failed by injection since the fault was set. */
long persistance_test_vfs_faults_injected(persistance_test_vfs *vfs);

/* How many calls of the kinds in `kinds` were made since the instance was created or its
   counters reset (counted whether they failed or not). */
long persistance_test_vfs_call_count(persistance_test_vfs *vfs, unsigned kinds);

/* How many xSync calls succeeded since the instance was created or its counters reset. */
long persistance_test_vfs_successful_syncs(persistance_test_vfs *vfs);

/* Sets every call counter (and the count of successful syncs) to zero. */
void persistance_test_vfs_reset_counts(persistance_test_vfs *vfs);

#endif
