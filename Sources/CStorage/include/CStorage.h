// CStorage: the few things the SQLite and zlib C APIs ask of a caller that
// Swift cannot say directly or safely.
//
// SQLite's destructor sentinels (SQLITE_TRANSIENT, SQLITE_STATIC) are macros
// that cast integers to function pointers, which Swift cannot import; zlib's
// one-shot calls take `uLongf *` lengths whose width differs by platform;
// SQLite's update hook calls back once per row, where a C function costs a
// call and a Swift closure a context lookup. Everything here is a thin
// wrapper; only the rowid log allocates, and only its own buffer.

#ifndef CSTORAGE_H
#define CSTORAGE_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Binds UTF-8 text that SQLite copies before returning, so the caller's
/// buffer need only live for the duration of the call.
int cstorage_bind_text(sqlite3_stmt *statement, int index,
                       const char *bytes, int64_t length);

/// Binds a blob that SQLite copies before returning. A zero-length blob is
/// bound as an empty blob, never as NULL, whatever `bytes` is.
int cstorage_bind_blob(sqlite3_stmt *statement, int index,
                       const void *bytes, int64_t length);

/// The largest size `cstorage_compress` can produce for `length` input bytes.
size_t cstorage_compress_bound(size_t length);

/// Compresses `length` bytes of `source` into `destination` (zlib format).
/// On entry `*destination_length` is the buffer's capacity; on success it is
/// the compressed size. Returns 0 on success, or a negative zlib error code.
int cstorage_compress(const void *source, size_t length,
                      void *destination, size_t *destination_length,
                      int level);

/// Decompresses zlib data whose uncompressed size is known exactly.
/// Returns 0 when exactly `*destination_length` bytes were produced, or a
/// negative zlib error code (Z_DATA_ERROR for corrupt input, Z_BUF_ERROR
/// when the stated size is wrong).
int cstorage_uncompress(const void *source, size_t length,
                        void *destination, size_t *destination_length);

/// The rowids of the rows deleted while the log is attached to a
/// connection, in the order SQLite deleted them.
///
/// A DELETE that must report its rows could say RETURNING, but SQLite then
/// stores every returned row in a temporary table before returning the
/// first; the update hook hands over each rowid as the row goes.
typedef struct cstorage_rowid_log {
    int64_t *rowids;
    size_t count;
    size_t capacity;
    /// Set when growing the buffer failed: rowids were lost.
    int out_of_memory;
} cstorage_rowid_log;

/// Attaches `log` (zero-initialised, or emptied by
/// `cstorage_rowid_log_free`) to `db`: from now on every row deleted from a
/// rowid table of `db` is appended to it. Replaces any update hook.
void cstorage_rowid_log_attach(sqlite3 *db, cstorage_rowid_log *log);

/// Detaches whatever log is attached to `db`.
void cstorage_rowid_log_detach(sqlite3 *db);

/// Frees the log's buffer and empties it.
void cstorage_rowid_log_free(cstorage_rowid_log *log);

// MARK: Pipes

/// Writes `length` bytes to `descriptor` as `write(2)` does, except that a
/// pipe whose reader is gone fails with EPIPE instead of raising SIGPIPE,
/// whose default action would end the process: a peer's death must never
/// end this one. SIGPIPE is blocked for the calling thread only, around the
/// write, and one it raised is consumed; the process's signal handling is
/// left as it was.
ssize_t cstorage_write_without_sigpipe(int descriptor, const void *bytes, size_t length);

// MARK: Write-ahead log

/// How a connection keeps the write-ahead log bounded; see
/// `cstorage_wal_policy_install`.
typedef struct cstorage_wal_policy {
    /// Frames in the log past which a commit restarts it.
    int restart_frames;
    /// How long a restart waits for readers to move on, in milliseconds.
    int reader_wait_ms;
    /// The connection's busy timeout, set back after the wait.
    int busy_timeout_ms;
    /// Frames past which the next restart is tried: after one that readers
    /// prevented, not before the log grew by `restart_frames` again.
    int next_restart_frames;
    /// Restarts done and restarts readers prevented, for tests.
    int64_t restarts;
    int64_t blocked_restarts;
} cstorage_wal_policy;

/// Replaces SQLite's automatic checkpoint on `db` with one that also keeps
/// the log bounded while readers refresh. After each commit: once the log
/// holds 1,000 frames, a passive checkpoint (as SQLite's own); once it
/// holds `restart_frames`, a restart checkpoint, which copies the log into
/// the file and waits up to `reader_wait_ms` for every reader to leave the
/// log's old snapshots, so that the next commit writes the log from its
/// start. A reader that keeps an old snapshot (a Realm that never
/// refreshes) still pins the log: the wait then gives up, and is tried
/// again only after the log grew by `restart_frames` more, so that such a
/// reader costs a writer one wait per step, not one per commit.
///
/// `policy` must outlive the connection, or the next install on it.
void cstorage_wal_policy_install(sqlite3 *db, cstorage_wal_policy *policy);

// MARK: SQL functions

/// Registers the project's SQL functions on `db`:
///
/// - `realm_sum(x)`, an aggregate: the sum of integers as Realm's core
///   computes it, in 64-bit two's complement that wraps around on
///   overflow; NULL for no rows. SQLite's `sum` fails on the first partial
///   sum that overflows, so that its answer depends on the order it reads
///   the rows in; a wrapping sum has one answer in any order.
///
/// Returns SQLite's result code.
int cstorage_register_functions(sqlite3 *db);

// MARK: Encryption

/// The bytes at the end of each page of an encrypted file that hold the
/// page's IV and MAC (SQLite's "reserved bytes").
#define CSTORAGE_ENCRYPTION_RESERVED_BYTES 48

/// The page size of an encrypted file.
#define CSTORAGE_ENCRYPTED_PAGE_SIZE 4096

/// The page cache of a connection to an encrypted file, in KiB (SQLite's
/// default is 2,000). Reading a page again from the file costs an
/// authentication and a decryption, where a plain file costs a copy from the
/// OS's cache: encrypted connections keep more decrypted pages. The cache
/// grows only as pages are read.
#define CSTORAGE_ENCRYPTED_CACHE_KIB 65536

/// Opens `path` as `sqlite3_open_v2` does with `flags`, through the
/// encrypting VFS (registered on first use) with `key`, 64 bytes: the first
/// 32 key AES-256, the last 32 HMAC-SHA-256. A new file is given the
/// reserved bytes each page's IV and MAC need; the caller then sets
/// `PRAGMA page_size` to CSTORAGE_ENCRYPTED_PAGE_SIZE (for a new file) and
/// `PRAGMA cache_size` to -CSTORAGE_ENCRYPTED_CACHE_KIB, once its busy
/// handler is in place: both read the schema, which needs a lock.
/// `commits_sync_log` says whether every commit syncs the write-ahead log
/// (synchronous = FULL), which lets recovery tell a damaged frame from one
/// torn by a power loss (see EncryptedVFS.c). The key is copied into
/// OpenSSL's contexts; the caller may wipe it on return.
///
/// Returns SQLite's result code; `*db` is set as `sqlite3_open_v2` sets it
/// (to be closed by the caller even on failure). A wrong key fails with
/// SQLITE_IOERR_DATA when the first page is read, which may be here.
int cstorage_open_encrypted(const char *path, int flags, const uint8_t *key,
                            int commits_sync_log, sqlite3 **db);

/// Why the encrypting VFS refused a read or a write.
enum {
    /// A page or frame failed its MAC: a wrong key, a plain file, bytes
    /// changed on disk, pages moved or swapped.
    CSTORAGE_FAILURE_AUTHENTICATION = 1,
    /// The file ends inside a page or frame.
    CSTORAGE_FAILURE_TRUNCATED = 2,
    /// SQLite wrote what the format cannot hold (part of a page, another
    /// page size, a file without reserved bytes).
    CSTORAGE_FAILURE_UNSUPPORTED_WRITE = 3,
    /// OpenSSL failed.
    CSTORAGE_FAILURE_CRYPTO = 4,
};

/// The last refusal of the encrypting VFS on the calling thread.
typedef struct cstorage_encryption_failure {
    /// One of the CSTORAGE_FAILURE_ values.
    int reason;
    /// 1 when it concerns the write-ahead log, 0 for the main file.
    int in_log;
    /// The page number (main file) or frame number (log), from 1; 0 when
    /// unknown.
    int64_t page;
} cstorage_encryption_failure;

/// Moves the calling thread's last refusal into `*failure` and returns 1,
/// or returns 0 when there is none. SQLite reports a refusal as
/// SQLITE_IOERR_DATA or SQLITE_IOERR_WRITE; this says which page and why.
int cstorage_encryption_take_failure(cstorage_encryption_failure *failure);

#ifdef __cplusplus
}
#endif

#endif
