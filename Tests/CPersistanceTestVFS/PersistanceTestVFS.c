/* The reliability tests' VFS: the default VFS (normally "unix") wrapped so that a test can
 * cut the power at a chosen write or sync call, or make the Nth read, write, sync, lock,
 * truncate, file-size or access call fail, the way SQLite's own crash and ioerr tests do.
 *
 * The power-loss model:
 * - Every xWrite and xTruncate of a named file records what it changes (the bytes it
 *   overwrites or cuts off and the file's previous size). A successful xSync of the file
 *   (on any of its handles: an fsync covers the whole file) makes those changes durable and
 *   forgets them.
 * - The cut happens at the chosen xWrite or xSync call, which is not performed; from then on
 *   every I/O call fails (reads, writes, syncs, truncations, sizes, locks, shared-memory maps
 *   and locks, opens, deletes, access checks), as if the machine had stopped. Closing files
 *   and releasing locks still work, so the test can close its connections.
 * - Applying the power loss undoes, newest first, every change not made durable, through a
 *   descriptor of the file's own (so a file renamed meanwhile, like a backup moved into place,
 *   is still the one restored); in torn mode each file's last unsynced write is then put
 *   back in part (its first bytes: a partial sector). The "-shm" file of every main database
 *   opened is deleted: shared memory does not survive a power loss.
 *
 * Simplifications (the model is kinder than a real disk in these ways):
 * - Creating, deleting and renaming files is taken as durable at once (no directory sync is
 *   needed), and a file deleted through xDelete loses its pending changes with it.
 * - Writes are lost whole, or kept only for the last one of a file in torn mode: a real disk
 *   may also keep any subset of the unsynced writes, in any order.
 * - Memory-mapped I/O is turned off (xFetch hands out no pages), so every change is an
 *   xWrite; SQLITE_FCNTL_SIZE_HINT is ignored (it could grow a file outside xWrite).
 * - Files without a name (temporary files) and files this process may not write are not
 *   tracked: they do not outlive a crash anyway, or cannot change.
 */
#if defined(PERSISTANCE_TEST_VFS_SQLCIPHER)
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif
#include <sqlcipher/sqlite3.h>
#else
#include <sqlite3.h>
#endif

#include "CPersistanceTestVFS.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How many bytes of a file's last write are kept for the torn mode. */
#define TORN_MAX 4096
/* The number of kinds of calls in the header's mask. */
#define KIND_COUNT 7

/* A change not yet synced: putting `old` back at `offset` after cutting or extending the file
   to `previous_size` undoes it. */
typedef struct {
    sqlite3_int64 offset;
    unsigned char *old;
    int old_length;
    sqlite3_int64 previous_size;
} undo_record;

/* A file (an inode) written through the VFS, and its changes not yet synced. */
typedef struct tracked_file {
    struct tracked_file *next;
    char *path;
    dev_t device;
    ino_t inode;
    int descriptor;
    int is_main_database;
    undo_record *records;
    int count, capacity;
    unsigned char last_write[TORN_MAX];
    int last_write_length;
    sqlite3_int64 last_write_offset;
} tracked_file;

struct persistance_test_vfs {
    sqlite3_vfs base;
    sqlite3_vfs *real;
    char *name;
    pthread_mutex_t mutex;
    tracked_file *files;
    long counts[KIND_COUNT];
    long cut_countdown;
    int power_cut;
    unsigned fault_kinds;
    long fault_countdown;
    int fault_persistent;
    long faults_injected;
    long successful_syncs;
};

typedef struct {
    sqlite3_file base;
    persistance_test_vfs *vfs;
    tracked_file *tracked;
    sqlite3_file *real;
} test_file;

static persistance_test_vfs *vfs_of(sqlite3_file *file) { return ((test_file *)file)->vfs; }
static sqlite3_file *real_of(sqlite3_file *file) { return ((test_file *)file)->real; }

/* Counts a call of `kind` and returns the code it must fail with, or SQLITE_OK. Called with
   the mutex held. */
static int check_call(persistance_test_vfs *vfs, unsigned kind, int code) {
    vfs->counts[__builtin_ctz(kind)] += 1;
    if (vfs->power_cut) return code;
    if ((kind & (PERSISTANCE_TEST_VFS_WRITE | PERSISTANCE_TEST_VFS_SYNC)) && vfs->cut_countdown > 0
        && --vfs->cut_countdown == 0) {
        vfs->power_cut = 1;
        return code;
    }
    if (vfs->fault_kinds & kind) {
        if (vfs->fault_countdown > 0 && --vfs->fault_countdown == 0) {
            vfs->faults_injected += 1;
            return code;
        }
        if (vfs->fault_countdown == 0 && vfs->fault_persistent) {
            vfs->faults_injected += 1;
            return code;
        }
    }
    return SQLITE_OK;
}

static int checked(persistance_test_vfs *vfs, unsigned kind, int code) {
    pthread_mutex_lock(&vfs->mutex);
    int rc = check_call(vfs, kind, code);
    pthread_mutex_unlock(&vfs->mutex);
    return rc;
}

static int power_is_cut(persistance_test_vfs *vfs) {
    pthread_mutex_lock(&vfs->mutex);
    int cut = vfs->power_cut;
    pthread_mutex_unlock(&vfs->mutex);
    return cut;
}

static void forget_changes(tracked_file *file) {
    for (int i = 0; i < file->count; i++) free(file->records[i].old);
    file->count = 0;
    file->last_write_length = 0;
}

static void free_tracked(tracked_file *file) {
    forget_changes(file);
    free(file->records);
    if (file->descriptor >= 0) close(file->descriptor);
    free(file->path);
    free(file);
}

/* Records what changing [offset, offset + length) of the file, or its size, overwrites: the
   bytes there and the size before. Called with the mutex held. Returns an SQLite code. */
static int record_change(tracked_file *file, sqlite3_int64 offset, sqlite3_int64 length) {
    struct stat status;
    if (fstat(file->descriptor, &status) != 0) return SQLITE_IOERR;
    sqlite3_int64 size = status.st_size;
    if (file->count == file->capacity) {
        int capacity = file->capacity ? file->capacity * 2 : 16;
        undo_record *records = realloc(file->records, sizeof(undo_record) * (size_t)capacity);
        if (!records) return SQLITE_NOMEM;
        file->records = records;
        file->capacity = capacity;
    }
    undo_record *record = &file->records[file->count];
    record->offset = offset;
    record->previous_size = size;
    record->old_length = 0;
    record->old = NULL;
    sqlite3_int64 kept = offset < size ? (size - offset < length ? size - offset : length) : 0;
    if (kept > 0) {
        record->old = malloc((size_t)kept);
        if (!record->old) return SQLITE_NOMEM;
        if (pread(file->descriptor, record->old, (size_t)kept, offset) != kept) {
            free(record->old);
            return SQLITE_IOERR;
        }
        record->old_length = (int)kept;
    }
    file->count += 1;
    return SQLITE_OK;
}

/* Undoes the file's unsynced changes, newest first, then writes back the first `torn_bytes`
   of its last write. Returns 0 or an errno. */
static int undo_changes(tracked_file *file, int torn_bytes) {
    for (int i = file->count - 1; i >= 0; i--) {
        undo_record *record = &file->records[i];
        if (ftruncate(file->descriptor, record->previous_size) != 0) return errno;
        if (record->old_length > 0
            && pwrite(file->descriptor, record->old, (size_t)record->old_length, record->offset) != record->old_length) {
            return errno ? errno : EIO;
        }
    }
    if (torn_bytes > 0 && file->last_write_length > 0) {
        int length = torn_bytes < file->last_write_length ? torn_bytes : file->last_write_length;
        if (pwrite(file->descriptor, file->last_write, (size_t)length, file->last_write_offset) != length) {
            return errno ? errno : EIO;
        }
    }
    return 0;
}

/* MARK: File methods */

static int test_close(sqlite3_file *file) {
    return real_of(file)->pMethods->xClose(real_of(file));
}

static int test_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    int rc = checked(vfs_of(file), PERSISTANCE_TEST_VFS_READ, SQLITE_IOERR_READ);
    if (rc != SQLITE_OK) return rc;
    return real_of(file)->pMethods->xRead(real_of(file), buffer, amount, offset);
}

static int test_write(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    persistance_test_vfs *vfs = vfs_of(file);
    tracked_file *tracked = ((test_file *)file)->tracked;
    pthread_mutex_lock(&vfs->mutex);
    int rc = check_call(vfs, PERSISTANCE_TEST_VFS_WRITE, SQLITE_IOERR_WRITE);
    if (rc == SQLITE_OK && tracked) {
        rc = record_change(tracked, offset, amount);
        if (rc == SQLITE_OK) {
            tracked->last_write_length = amount < TORN_MAX ? amount : TORN_MAX;
            tracked->last_write_offset = offset;
            memcpy(tracked->last_write, buffer, (size_t)tracked->last_write_length);
        }
    }
    if (rc == SQLITE_OK) rc = real_of(file)->pMethods->xWrite(real_of(file), buffer, amount, offset);
    pthread_mutex_unlock(&vfs->mutex);
    return rc;
}

static int test_truncate(sqlite3_file *file, sqlite3_int64 size) {
    persistance_test_vfs *vfs = vfs_of(file);
    tracked_file *tracked = ((test_file *)file)->tracked;
    pthread_mutex_lock(&vfs->mutex);
    int rc = check_call(vfs, PERSISTANCE_TEST_VFS_TRUNCATE, SQLITE_IOERR_TRUNCATE);
    if (rc == SQLITE_OK && tracked) {
        struct stat status;
        sqlite3_int64 current = fstat(tracked->descriptor, &status) == 0 ? status.st_size : 0;
        if (current > size) rc = record_change(tracked, size, current - size);
        else rc = record_change(tracked, size, 0);
    }
    if (rc == SQLITE_OK) rc = real_of(file)->pMethods->xTruncate(real_of(file), size);
    pthread_mutex_unlock(&vfs->mutex);
    return rc;
}

static int test_sync(sqlite3_file *file, int flags) {
    persistance_test_vfs *vfs = vfs_of(file);
    tracked_file *tracked = ((test_file *)file)->tracked;
    pthread_mutex_lock(&vfs->mutex);
    int rc = check_call(vfs, PERSISTANCE_TEST_VFS_SYNC, SQLITE_IOERR_FSYNC);
    if (rc == SQLITE_OK) rc = real_of(file)->pMethods->xSync(real_of(file), flags);
    if (rc == SQLITE_OK) {
        vfs->successful_syncs += 1;
        if (tracked) forget_changes(tracked);
    }
    pthread_mutex_unlock(&vfs->mutex);
    return rc;
}

static int test_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    int rc = checked(vfs_of(file), PERSISTANCE_TEST_VFS_FILE_SIZE, SQLITE_IOERR_FSTAT);
    if (rc != SQLITE_OK) return rc;
    return real_of(file)->pMethods->xFileSize(real_of(file), size);
}

static int test_lock(sqlite3_file *file, int level) {
    int rc = checked(vfs_of(file), PERSISTANCE_TEST_VFS_LOCK, SQLITE_IOERR_LOCK);
    if (rc != SQLITE_OK) return rc;
    return real_of(file)->pMethods->xLock(real_of(file), level);
}

static int test_unlock(sqlite3_file *file, int level) {
    return real_of(file)->pMethods->xUnlock(real_of(file), level);
}

static int test_check_reserved_lock(sqlite3_file *file, int *result) {
    if (power_is_cut(vfs_of(file))) return SQLITE_IOERR_CHECKRESERVEDLOCK;
    return real_of(file)->pMethods->xCheckReservedLock(real_of(file), result);
}

static int test_file_control(sqlite3_file *file, int op, void *argument) {
    if (op == SQLITE_FCNTL_SIZE_HINT) return SQLITE_OK;
    return real_of(file)->pMethods->xFileControl(real_of(file), op, argument);
}

static int test_sector_size(sqlite3_file *file) {
    return real_of(file)->pMethods->xSectorSize(real_of(file));
}

static int test_device_characteristics(sqlite3_file *file) {
    return real_of(file)->pMethods->xDeviceCharacteristics(real_of(file));
}

static int test_shm_map(sqlite3_file *file, int region, int size, int extend, void volatile **memory) {
    if (power_is_cut(vfs_of(file))) return SQLITE_IOERR_SHMMAP;
    sqlite3_file *real = real_of(file);
    if (real->pMethods->iVersion < 2 || !real->pMethods->xShmMap) return SQLITE_IOERR_SHMMAP;
    return real->pMethods->xShmMap(real, region, size, extend, memory);
}

static int test_shm_lock(sqlite3_file *file, int offset, int count, int flags) {
    if ((flags & SQLITE_SHM_LOCK) && power_is_cut(vfs_of(file))) return SQLITE_IOERR_SHMLOCK;
    sqlite3_file *real = real_of(file);
    return real->pMethods->xShmLock(real, offset, count, flags);
}

static void test_shm_barrier(sqlite3_file *file) {
    sqlite3_file *real = real_of(file);
    real->pMethods->xShmBarrier(real);
}

static int test_shm_unmap(sqlite3_file *file, int delete_flag) {
    sqlite3_file *real = real_of(file);
    return real->pMethods->xShmUnmap(real, delete_flag);
}

static int test_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pages) {
    (void)file;
    (void)offset;
    (void)amount;
    *pages = 0;
    return SQLITE_OK;
}

static int test_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *pages) {
    (void)file;
    (void)offset;
    (void)pages;
    return SQLITE_OK;
}

static const sqlite3_io_methods test_methods = {
    3,
    test_close,
    test_read,
    test_write,
    test_truncate,
    test_sync,
    test_file_size,
    test_lock,
    test_unlock,
    test_check_reserved_lock,
    test_file_control,
    test_sector_size,
    test_device_characteristics,
    test_shm_map,
    test_shm_lock,
    test_shm_barrier,
    test_shm_unmap,
    test_fetch,
    test_unfetch,
};

/* MARK: VFS methods */

/* The tracked entry of the file at `path` (by inode), created if needed. NULL when the file
   cannot be written by this process. Called with the mutex held. */
static tracked_file *track(persistance_test_vfs *vfs, const char *path, int is_main_database) {
    struct stat status;
    if (stat(path, &status) != 0) return NULL;
    for (tracked_file *file = vfs->files; file; file = file->next) {
        if (file->device == status.st_dev && file->inode == status.st_ino) {
            file->is_main_database |= is_main_database;
            return file;
        }
    }
    int descriptor = open(path, O_RDWR | O_CLOEXEC);
    if (descriptor < 0) return NULL;
    tracked_file *file = calloc(1, sizeof(tracked_file));
    char *copy = strdup(path);
    if (!file || !copy) {
        free(file);
        free(copy);
        close(descriptor);
        return NULL;
    }
    file->path = copy;
    file->device = status.st_dev;
    file->inode = status.st_ino;
    file->descriptor = descriptor;
    file->is_main_database = is_main_database;
    file->next = vfs->files;
    vfs->files = file;
    return file;
}

static int vfs_open(sqlite3_vfs *base, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    persistance_test_vfs *vfs = base->pAppData;
    test_file *opened = (test_file *)file;
    opened->vfs = vfs;
    opened->tracked = NULL;
    opened->real = (sqlite3_file *)&opened[1];
    opened->real->pMethods = NULL;
    file->pMethods = NULL;
    if (power_is_cut(vfs)) return SQLITE_CANTOPEN;
    int rc = vfs->real->xOpen(vfs->real, name, opened->real, flags, out_flags);
    if (rc != SQLITE_OK) {
        if (opened->real->pMethods) opened->real->pMethods->xClose(opened->real);
        return rc;
    }
    if (name && !(flags & SQLITE_OPEN_DELETEONCLOSE)) {
        pthread_mutex_lock(&vfs->mutex);
        opened->tracked = track(vfs, name, (flags & SQLITE_OPEN_MAIN_DB) != 0);
        pthread_mutex_unlock(&vfs->mutex);
    }
    file->pMethods = &test_methods;
    return SQLITE_OK;
}

static int vfs_delete(sqlite3_vfs *base, const char *name, int sync_directory) {
    persistance_test_vfs *vfs = base->pAppData;
    if (power_is_cut(vfs)) return SQLITE_IOERR_DELETE;
    struct stat status;
    if (stat(name, &status) == 0) {
        pthread_mutex_lock(&vfs->mutex);
        for (tracked_file **link = &vfs->files; *link; link = &(*link)->next) {
            tracked_file *file = *link;
            /* A deleted file is not the main database, which holds the process's locks: its
               descriptor may close. */
            if (file->device == status.st_dev && file->inode == status.st_ino && !file->is_main_database) {
                *link = file->next;
                free_tracked(file);
                break;
            }
        }
        pthread_mutex_unlock(&vfs->mutex);
    }
    return vfs->real->xDelete(vfs->real, name, sync_directory);
}

static int vfs_access(sqlite3_vfs *base, const char *name, int flags, int *result) {
    persistance_test_vfs *vfs = base->pAppData;
    int rc = checked(vfs, PERSISTANCE_TEST_VFS_ACCESS, SQLITE_IOERR_ACCESS);
    if (rc != SQLITE_OK) return rc;
    return vfs->real->xAccess(vfs->real, name, flags, result);
}

static sqlite3_vfs *real_vfs(sqlite3_vfs *base) { return ((persistance_test_vfs *)base->pAppData)->real; }

static int vfs_full_pathname(sqlite3_vfs *base, const char *name, int size, char *output) {
    return real_vfs(base)->xFullPathname(real_vfs(base), name, size, output);
}

static void *vfs_dl_open(sqlite3_vfs *base, const char *name) {
    return real_vfs(base)->xDlOpen(real_vfs(base), name);
}

static void vfs_dl_error(sqlite3_vfs *base, int size, char *message) {
    real_vfs(base)->xDlError(real_vfs(base), size, message);
}

static void (*vfs_dl_sym(sqlite3_vfs *base, void *handle, const char *symbol))(void) {
    return real_vfs(base)->xDlSym(real_vfs(base), handle, symbol);
}

static void vfs_dl_close(sqlite3_vfs *base, void *handle) {
    real_vfs(base)->xDlClose(real_vfs(base), handle);
}

static int vfs_randomness(sqlite3_vfs *base, int size, char *output) {
    return real_vfs(base)->xRandomness(real_vfs(base), size, output);
}

static int vfs_sleep(sqlite3_vfs *base, int microseconds) {
    return real_vfs(base)->xSleep(real_vfs(base), microseconds);
}

static int vfs_current_time(sqlite3_vfs *base, double *now) {
    return real_vfs(base)->xCurrentTime(real_vfs(base), now);
}

static int vfs_get_last_error(sqlite3_vfs *base, int size, char *message) {
    return real_vfs(base)->xGetLastError ? real_vfs(base)->xGetLastError(real_vfs(base), size, message) : 0;
}

static int vfs_current_time_int64(sqlite3_vfs *base, sqlite3_int64 *now) {
    return real_vfs(base)->xCurrentTimeInt64(real_vfs(base), now);
}

/* MARK: The test interface */

persistance_test_vfs *persistance_test_vfs_create(const char *name) {
    sqlite3_vfs *real = sqlite3_vfs_find(NULL);
    if (!real || sqlite3_vfs_find(name)) return NULL;
    persistance_test_vfs *vfs = calloc(1, sizeof(persistance_test_vfs));
    char *copy = strdup(name);
    if (!vfs || !copy) {
        free(vfs);
        free(copy);
        return NULL;
    }
    vfs->real = real;
    vfs->name = copy;
    pthread_mutex_init(&vfs->mutex, NULL);
    sqlite3_vfs *base = &vfs->base;
    base->iVersion = real->iVersion < 2 ? real->iVersion : 2;
    base->szOsFile = (int)sizeof(test_file) + real->szOsFile;
    base->mxPathname = real->mxPathname;
    base->zName = copy;
    base->pAppData = vfs;
    base->xOpen = vfs_open;
    base->xDelete = vfs_delete;
    base->xAccess = vfs_access;
    base->xFullPathname = vfs_full_pathname;
    base->xDlOpen = vfs_dl_open;
    base->xDlError = vfs_dl_error;
    base->xDlSym = vfs_dl_sym;
    base->xDlClose = vfs_dl_close;
    base->xRandomness = vfs_randomness;
    base->xSleep = vfs_sleep;
    base->xCurrentTime = vfs_current_time;
    base->xGetLastError = vfs_get_last_error;
    if (base->iVersion >= 2) base->xCurrentTimeInt64 = vfs_current_time_int64;
    if (sqlite3_vfs_register(base, 0) != SQLITE_OK) {
        pthread_mutex_destroy(&vfs->mutex);
        free(copy);
        free(vfs);
        return NULL;
    }
    return vfs;
}

void persistance_test_vfs_destroy(persistance_test_vfs *vfs) {
    sqlite3_vfs_unregister(&vfs->base);
    while (vfs->files) {
        tracked_file *next = vfs->files->next;
        free_tracked(vfs->files);
        vfs->files = next;
    }
    pthread_mutex_destroy(&vfs->mutex);
    free(vfs->name);
    free(vfs);
}

void persistance_test_vfs_schedule_power_cut(persistance_test_vfs *vfs, long calls) {
    pthread_mutex_lock(&vfs->mutex);
    vfs->cut_countdown = calls > 0 ? calls : 0;
    pthread_mutex_unlock(&vfs->mutex);
}

int persistance_test_vfs_power_is_cut(persistance_test_vfs *vfs) { return power_is_cut(vfs); }

int persistance_test_vfs_apply_power_loss(persistance_test_vfs *vfs, int torn_bytes) {
    int failure = 0;
    pthread_mutex_lock(&vfs->mutex);
    while (vfs->files) {
        tracked_file *file = vfs->files;
        int error = undo_changes(file, torn_bytes);
        if (error && !failure) failure = error;
        if (file->is_main_database) {
            size_t length = strlen(file->path);
            char *shm = malloc(length + 5);
            if (shm) {
                memcpy(shm, file->path, length);
                memcpy(shm + length, "-shm", 5);
                if (unlink(shm) != 0 && errno != ENOENT && !failure) failure = errno;
                free(shm);
            }
        }
        vfs->files = file->next;
        free_tracked(file);
    }
    vfs->power_cut = 0;
    vfs->cut_countdown = 0;
    pthread_mutex_unlock(&vfs->mutex);
    return failure;
}

void persistance_test_vfs_mark_durable(persistance_test_vfs *vfs) {
    pthread_mutex_lock(&vfs->mutex);
    for (tracked_file *file = vfs->files; file; file = file->next) forget_changes(file);
    pthread_mutex_unlock(&vfs->mutex);
}

void persistance_test_vfs_inject_fault(persistance_test_vfs *vfs, unsigned kinds, long call, int persistent) {
    pthread_mutex_lock(&vfs->mutex);
    vfs->fault_kinds = kinds;
    vfs->fault_countdown = call > 0 ? call : 1;
    vfs->fault_persistent = persistent;
    vfs->faults_injected = 0;
    pthread_mutex_unlock(&vfs->mutex);
}

void persistance_test_vfs_clear_fault(persistance_test_vfs *vfs) {
    pthread_mutex_lock(&vfs->mutex);
    vfs->fault_kinds = 0;
    vfs->fault_countdown = 0;
    vfs->fault_persistent = 0;
    pthread_mutex_unlock(&vfs->mutex);
}

long persistance_test_vfs_faults_injected(persistance_test_vfs *vfs) {
    pthread_mutex_lock(&vfs->mutex);
    long injected = vfs->faults_injected;
    pthread_mutex_unlock(&vfs->mutex);
    return injected;
}

long persistance_test_vfs_call_count(persistance_test_vfs *vfs, unsigned kinds) {
    long total = 0;
    pthread_mutex_lock(&vfs->mutex);
    for (int i = 0; i < KIND_COUNT; i++) {
        if (kinds & (1u << i)) total += vfs->counts[i];
    }
    pthread_mutex_unlock(&vfs->mutex);
    return total;
}

long persistance_test_vfs_successful_syncs(persistance_test_vfs *vfs) {
    pthread_mutex_lock(&vfs->mutex);
    long syncs = vfs->successful_syncs;
    pthread_mutex_unlock(&vfs->mutex);
    return syncs;
}

void persistance_test_vfs_reset_counts(persistance_test_vfs *vfs) {
    pthread_mutex_lock(&vfs->mutex);
    memset(vfs->counts, 0, sizeof(vfs->counts));
    vfs->successful_syncs = 0;
    pthread_mutex_unlock(&vfs->mutex);
}
