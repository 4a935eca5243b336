#include "CStorage.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

int cstorage_bind_text(sqlite3_stmt *statement, int index,
                       const char *bytes, int64_t length) {
    // sqlite3_bind_text64 takes the byte count as sqlite3_uint64 and rejects
    // oversize values with SQLITE_TOOBIG, so no narrowing happens here.
    return sqlite3_bind_text64(statement, index, bytes ? bytes : "",
                               (sqlite3_uint64)length, SQLITE_TRANSIENT,
                               SQLITE_UTF8);
}

int cstorage_bind_blob(sqlite3_stmt *statement, int index,
                       const void *bytes, int64_t length) {
    if (length == 0) {
        // A NULL pointer would bind SQL NULL; an empty Data is not nil.
        return sqlite3_bind_zeroblob(statement, index, 0);
    }
    return sqlite3_bind_blob64(statement, index, bytes,
                               (sqlite3_uint64)length, SQLITE_TRANSIENT);
}

size_t cstorage_compress_bound(size_t length) {
    return (size_t)compressBound((uLong)length);
}

int cstorage_compress(const void *source, size_t length,
                      void *destination, size_t *destination_length,
                      int level) {
    uLongf produced = (uLongf)*destination_length;
    int status = compress2((Bytef *)destination, &produced,
                           (const Bytef *)source, (uLong)length, level);
    if (status != Z_OK) {
        return status < 0 ? status : Z_STREAM_ERROR;
    }
    *destination_length = (size_t)produced;
    return 0;
}

int cstorage_uncompress(const void *source, size_t length,
                        void *destination, size_t *destination_length) {
    uLongf produced = (uLongf)*destination_length;
    uLong consumed = (uLong)length;
    int status = uncompress2((Bytef *)destination, &produced,
                             (const Bytef *)source, &consumed);
    if (status != Z_OK) {
        return status < 0 ? status : Z_STREAM_ERROR;
    }
    if (produced != (uLongf)*destination_length || consumed != (uLong)length) {
        // Trailing bytes or a short result: the caller's framing is wrong,
        // which for stored data means corruption.
        return Z_DATA_ERROR;
    }
    return 0;
}

static void cstorage_rowid_log_append(void *context, int operation,
                                      const char *database, const char *table,
                                      sqlite3_int64 rowid) {
    (void)database;
    (void)table;
    cstorage_rowid_log *log = context;
    if (operation != SQLITE_DELETE || log->out_of_memory) {
        return;
    }
    if (log->count == log->capacity) {
        size_t capacity = log->capacity ? log->capacity * 2 : 256;
        int64_t *grown = realloc(log->rowids, capacity * sizeof *grown);
        if (!grown) {
            log->out_of_memory = 1;
            return;
        }
        log->rowids = grown;
        log->capacity = capacity;
    }
    log->rowids[log->count++] = rowid;
}

void cstorage_rowid_log_attach(sqlite3 *db, cstorage_rowid_log *log) {
    sqlite3_update_hook(db, cstorage_rowid_log_append, log);
}

void cstorage_rowid_log_detach(sqlite3 *db) {
    sqlite3_update_hook(db, NULL, NULL);
}

void cstorage_rowid_log_free(cstorage_rowid_log *log) {
    free(log->rowids);
    log->rowids = NULL;
    log->count = 0;
    log->capacity = 0;
    log->out_of_memory = 0;
}

// MARK: Pipes

ssize_t cstorage_write_without_sigpipe(int descriptor, const void *bytes, size_t length) {
    sigset_t blocked, previous, pending;
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &blocked, &previous);
    // A SIGPIPE already pending for another reason is not ours to consume.
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);

    ssize_t written = write(descriptor, bytes, length);
    int saved = errno;
    if (written < 0 && saved == EPIPE && !was_pending) {
        // The write raised SIGPIPE while it was blocked: consume it, so
        // that unblocking does not deliver it.
        struct timespec now = {0, 0};
        while (sigtimedwait(&blocked, NULL, &now) < 0 && errno == EINTR) {}
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    errno = saved;
    return written;
}

// MARK: Write-ahead log

static int cstorage_wal_hook(void *context, sqlite3 *db, const char *name, int frames) {
    cstorage_wal_policy *policy = context;
    if (frames >= policy->next_restart_frames) {
        sqlite3_busy_timeout(db, policy->reader_wait_ms);
        int status = sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_RESTART, NULL, NULL);
        sqlite3_busy_timeout(db, policy->busy_timeout_ms);
        if (status == SQLITE_OK) {
            policy->restarts++;
            policy->next_restart_frames = policy->restart_frames;
        } else {
            policy->blocked_restarts++;
            policy->next_restart_frames = frames + policy->restart_frames;
        }
    } else if (frames >= 1000) {
        // SQLite's automatic checkpoint, which a WAL hook replaces.
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    }
    // A checkpoint's failure is no failure of the commit, which is done.
    return SQLITE_OK;
}

void cstorage_wal_policy_install(sqlite3 *db, cstorage_wal_policy *policy) {
    if (policy->next_restart_frames <= 0) policy->next_restart_frames = policy->restart_frames;
    sqlite3_wal_hook(db, cstorage_wal_hook, policy);
}

// MARK: SQL functions

/// The state of one realm_sum: the sum so far, kept unsigned so that it
/// wraps around as Realm's 64-bit sums do (signed overflow is undefined in
/// C), and whether any row counted.
typedef struct cstorage_wrapping_sum {
    uint64_t total;
    int has_values;
} cstorage_wrapping_sum;

static void cstorage_wrapping_sum_step(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
    cstorage_wrapping_sum *sum = sqlite3_aggregate_context(context, sizeof *sum);
    if (sum == NULL) {
        sqlite3_result_error_nomem(context);
        return;
    }
    sum->total += (uint64_t)sqlite3_value_int64(argv[0]);
    sum->has_values = 1;
}

static void cstorage_wrapping_sum_final(sqlite3_context *context) {
    cstorage_wrapping_sum *sum = sqlite3_aggregate_context(context, 0);
    if (sum == NULL || !sum->has_values) {
        sqlite3_result_null(context);
    } else {
        sqlite3_result_int64(context, (sqlite3_int64)sum->total);
    }
}

int cstorage_register_functions(sqlite3 *db) {
    return sqlite3_create_function_v2(db, "realm_sum", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                      NULL, NULL, cstorage_wrapping_sum_step, cstorage_wrapping_sum_final, NULL);
}
