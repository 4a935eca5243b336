// The encrypting VFS: a shim over the platform's VFS ("unix") through which
// SQLite reads and writes an encrypted Realm's files, so that everything
// above the file system works as on a plain file.
//
// Main database file. SQLite reads and writes whole pages of
// CSTORAGE_PAGE_SIZE bytes at page boundaries; each is sealed on the way out
// and opened (authenticated, then decrypted) on the way in (PageCipher.h).
// The few reads of part of a page (the 100-byte header when the file is
// opened) are served by opening the whole page.
//
// Write-ahead log. A frame is a 24-byte header (page number, database size
// at commit, two salts, SQLite's checksum) then the page. The page is sealed
// as in the main file, under the page number its header names. SQLite's
// checksum is computed over the plain page, so it would let a reader of the
// log test guesses of a page's content: it is masked (XOR) with eight bytes of
// the key stream that follows the page's ciphertext under the page's IV.
// SQLite writes a frame's header and its page in two calls, header first; the
// header is held until the page arrives and both go out in one write, masked
// under the page's new IV. A page rewritten in place (SQLite does that to a
// frame of the transaction it is writing) has its header unmasked under the
// old IV and masked again under the new one.
//
// Recovery. SQLite rebuilds the log's index by reading it frame by frame
// and stops at the first frame whose checksum fails, which is how a frame
// torn by a power loss is dropped. A frame that fails authentication is
// handed to SQLite as zeros, which ends the log there the same way, unless
// the log shows the frame was durable: two later commit frames of the same
// log generation that authenticate prove, when every commit syncs the log
// (synchronous = FULL), that the frame was written and synced before them,
// so its failure is damage, reported as such.
//
// Other files (the rollback journal, statement journals, temporary
// databases, sorter spills) are kept in memory and never reach the disk. An
// encrypted file is always in WAL mode; the rollback journal exists only for
// the one transaction that switches a new, empty file to WAL, and holds
// nothing to roll back.
//
// Checkpoints copy pages from the log to the main file by reading each page
// and writing it back: the sealed page read from the log is kept, and when the
// same plain page is written to the main file, the sealed one is written as
// it is. Its MAC covers the page number, not the file, so it is as valid in
// the main file as in the log.

#include "CStorage.h"
#include "PageCipher.h"

#include <openssl/crypto.h>
#include <pthread.h>
#include <string.h>

#define CSTORAGE_FRAME_HEADER 24
#define CSTORAGE_FRAME_SIZE (CSTORAGE_FRAME_HEADER + CSTORAGE_PAGE_SIZE)
#define CSTORAGE_LOG_HEADER 32

_Static_assert(CSTORAGE_PAGE_SIZE == CSTORAGE_ENCRYPTED_PAGE_SIZE, "one page size");
_Static_assert(CSTORAGE_PAGE_RESERVE == CSTORAGE_ENCRYPTION_RESERVED_BYTES, "one reserve");

enum file_kind { FILE_MAIN, FILE_LOG, FILE_MEMORY };

typedef struct encrypted_file encrypted_file;

struct encrypted_file {
    sqlite3_file base;
    /// The platform's file, in the same allocation, right after this one.
    sqlite3_file *lower;
    enum file_kind kind;
    /// The main file's own; the log uses its main file's (both are used by
    /// one connection, on one thread at a time).
    cstorage_page_cipher own_cipher;
    cstorage_page_cipher *cipher;
    /// Main: one page. Log: two frames.
    uint8_t *buffer;
    /// Whether every commit syncs the log (see "Recovery" above).
    int commits_sync_log;

    // The main file, during a checkpoint: the page last read from the log.
    int checkpointing;
    int transit_valid;
    uint32_t transit_page;
    uint8_t *transit_sealed;
    uint8_t *transit_plain;

    // The log: its main file, and a frame header waiting for its page.
    encrypted_file *database;
    int pending;
    sqlite3_int64 pending_offset;
    uint8_t pending_header[CSTORAGE_FRAME_HEADER];

    // A file kept in memory.
    uint8_t *bytes;
    sqlite3_int64 size;
    sqlite3_int64 capacity;
};

#define LOWER_OFFSET ((sizeof(encrypted_file) + 7) & ~(size_t)7)

// MARK: Opening and failures

/// What `cstorage_open_encrypted` passes to the main file's xOpen, which
/// SQLite calls on the same thread, inside sqlite3_open_v2.
typedef struct opening {
    const uint8_t *key;
    int commits_sync_log;
} opening;

static _Thread_local const opening *current_opening;
static _Thread_local cstorage_encryption_failure last_failure;
static _Thread_local int has_failure;

static void note_failure(int reason, int in_log, sqlite3_int64 page) {
    last_failure.reason = reason;
    last_failure.in_log = in_log;
    last_failure.page = page;
    has_failure = 1;
}

int cstorage_encryption_take_failure(cstorage_encryption_failure *failure) {
    if (!has_failure) return 0;
    *failure = last_failure;
    has_failure = 0;
    return 1;
}

static uint32_t read_be32(const uint8_t *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

/// Whether the `length` bytes at `bytes` are all zero.
static int all_zero(const uint8_t *bytes, size_t length) {
    uint8_t any = 0;
    for (size_t index = 0; index < length; index++) any |= bytes[index];
    return any == 0;
}

// MARK: Main database file

static int main_read_page(encrypted_file *self, uint32_t page, uint8_t *out) {
    sqlite3_int64 offset = (sqlite3_int64)(page - 1) * CSTORAGE_PAGE_SIZE;
    int rc = self->lower->pMethods->xRead(self->lower, out, CSTORAGE_PAGE_SIZE, offset);
    if (rc == SQLITE_IOERR_SHORT_READ) {
        // Past the end there is no page (SQLite reads the header of a new,
        // empty file so); a page the end cuts through was truncated.
        sqlite3_int64 size = 0;
        if (self->lower->pMethods->xFileSize(self->lower, &size) == SQLITE_OK && size <= offset) {
            memset(out, 0, CSTORAGE_PAGE_SIZE);
            return SQLITE_IOERR_SHORT_READ;
        }
        note_failure(CSTORAGE_FAILURE_TRUNCATED, 0, page);
        return SQLITE_IOERR_DATA;
    }
    if (rc != SQLITE_OK) return rc;
    int opened = cstorage_page_open(self->cipher, page, out, out);
    if (opened != 0) {
        // SQLite drops a page whose read failed; still, hand it no bytes
        // that did not authenticate.
        memset(out, 0, CSTORAGE_PAGE_SIZE);
        note_failure(opened > 0 ? CSTORAGE_FAILURE_AUTHENTICATION : CSTORAGE_FAILURE_CRYPTO, 0, page);
        return SQLITE_IOERR_DATA;
    }
    return SQLITE_OK;
}

static int main_read(sqlite3_file *file, void *out, int amount, sqlite3_int64 offset) {
    encrypted_file *self = (encrypted_file *)file;
    if (amount == CSTORAGE_PAGE_SIZE && offset % CSTORAGE_PAGE_SIZE == 0) {
        return main_read_page(self, (uint32_t)(offset / CSTORAGE_PAGE_SIZE) + 1, out);
    }
    uint8_t *destination = out;
    int result = SQLITE_OK;
    while (amount > 0) {
        uint32_t page = (uint32_t)(offset / CSTORAGE_PAGE_SIZE) + 1;
        int within = (int)(offset % CSTORAGE_PAGE_SIZE);
        int length = amount < CSTORAGE_PAGE_SIZE - within ? amount : CSTORAGE_PAGE_SIZE - within;
        int rc = main_read_page(self, page, self->buffer);
        if (rc == SQLITE_IOERR_SHORT_READ) {
            result = rc;
        } else if (rc != SQLITE_OK) {
            return rc;
        }
        memcpy(destination, self->buffer + within, (size_t)length);
        destination += length;
        offset += length;
        amount -= length;
    }
    return result;
}

/// Whether page 1, as SQLite writes it, has the page size and reserved
/// bytes the format needs: a file made without them would not be readable.
static int header_fits_format(const uint8_t *header) {
    return header[16] == (CSTORAGE_PAGE_SIZE >> 8) && header[17] == (CSTORAGE_PAGE_SIZE & 0xff)
        && header[20] == CSTORAGE_PAGE_RESERVE;
}

static int main_write(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset) {
    encrypted_file *self = (encrypted_file *)file;
    uint32_t page = (uint32_t)(offset / CSTORAGE_PAGE_SIZE) + 1;
    const uint8_t *plain = data;
    if (amount != CSTORAGE_PAGE_SIZE || offset % CSTORAGE_PAGE_SIZE != 0
        || (page == 1 && !header_fits_format(plain))) {
        note_failure(CSTORAGE_FAILURE_UNSUPPORTED_WRITE, 0, page);
        return SQLITE_IOERR_WRITE;
    }
    const uint8_t *sealed = self->buffer;
    if (self->checkpointing && self->transit_valid && self->transit_page == page
        && memcmp(self->transit_plain, plain, CSTORAGE_PAGE_DATA) == 0) {
        sealed = self->transit_sealed;
    } else if (cstorage_page_seal(self->cipher, page, plain, self->buffer) != 0) {
        note_failure(CSTORAGE_FAILURE_CRYPTO, 0, page);
        return SQLITE_IOERR_WRITE;
    }
    self->transit_valid = 0;
    return self->lower->pMethods->xWrite(self->lower, sealed, CSTORAGE_PAGE_SIZE, offset);
}

static int main_file_control(sqlite3_file *file, int op, void *argument) {
    encrypted_file *self = (encrypted_file *)file;
    if (op == SQLITE_FCNTL_CKPT_START || op == SQLITE_FCNTL_CKPT_DONE) {
        self->checkpointing = op == SQLITE_FCNTL_CKPT_START;
        self->transit_valid = 0;
    }
    return self->lower->pMethods->xFileControl(self->lower, op, argument);
}

static int main_device_characteristics(sqlite3_file *file) {
    encrypted_file *self = (encrypted_file *)file;
    // Pages are sealed whole, so SQLite must never pad a log write to a
    // sector boundary with part of a page, which it does only for devices
    // that lack this property (the unix VFS claims it by default).
    return self->lower->pMethods->xDeviceCharacteristics(self->lower) | SQLITE_IOCAP_POWERSAFE_OVERWRITE;
}

// MARK: Write-ahead log

static sqlite3_int64 frame_start(sqlite3_int64 frame) {
    return CSTORAGE_LOG_HEADER + frame * CSTORAGE_FRAME_SIZE;
}

/// XORs a frame header's checksum (its last eight bytes) with the mask the
/// page's IV gives.
static int mask_checksum(encrypted_file *self, uint8_t *header, const uint8_t *iv) {
    uint8_t mask[8];
    if (cstorage_page_mask(self->cipher, iv, mask) != 0) return -1;
    for (int index = 0; index < 8; index++) header[16 + index] ^= mask[index];
    return 0;
}

/// Writes the header waiting for its page, masked under whatever IV its
/// frame holds on disk; the page, when it comes, is treated as a rewrite of
/// that frame, so both agree. SQLite always writes the page next; this runs
/// only if something else came first.
static int log_flush(encrypted_file *self) {
    if (!self->pending) return SQLITE_OK;
    self->pending = 0;
    uint8_t iv[CSTORAGE_IV_SIZE];
    int rc = self->lower->pMethods->xRead(self->lower, iv, CSTORAGE_IV_SIZE,
                                          self->pending_offset + CSTORAGE_FRAME_HEADER + CSTORAGE_PAGE_DATA);
    if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) return rc;
    if (mask_checksum(self, self->pending_header, iv) != 0) {
        note_failure(CSTORAGE_FAILURE_CRYPTO, 1, 0);
        return SQLITE_IOERR_WRITE;
    }
    return self->lower->pMethods->xWrite(self->lower, self->pending_header, CSTORAGE_FRAME_HEADER, self->pending_offset);
}

/// Reads the frame at `start` into `frame` and opens it in place: the
/// header's checksum unmasked, the page authenticated and decrypted.
static int log_read_plain_frame(encrypted_file *self, sqlite3_int64 start, uint8_t *frame) {
    int rc = self->lower->pMethods->xRead(self->lower, frame, CSTORAGE_FRAME_SIZE, start);
    sqlite3_int64 number = (start - CSTORAGE_LOG_HEADER) / CSTORAGE_FRAME_SIZE + 1;
    if (rc == SQLITE_IOERR_SHORT_READ) {
        note_failure(CSTORAGE_FAILURE_TRUNCATED, 1, number);
        return SQLITE_IOERR_DATA;
    }
    if (rc != SQLITE_OK) return rc;
    uint8_t *page = frame + CSTORAGE_FRAME_HEADER;
    if (mask_checksum(self, frame, page + CSTORAGE_PAGE_DATA) != 0) {
        note_failure(CSTORAGE_FAILURE_CRYPTO, 1, number);
        return SQLITE_IOERR_READ;
    }
    int opened = cstorage_page_open(self->cipher, read_be32(frame), page, page);
    if (opened != 0) {
        note_failure(opened > 0 ? CSTORAGE_FAILURE_AUTHENTICATION : CSTORAGE_FAILURE_CRYPTO, 1, number);
        return SQLITE_IOERR_DATA;
    }
    return SQLITE_OK;
}

/// Seals `plain` as the page of the frame at `start` and writes the frame
/// with its header (given, pending, or read back from the file) masked under
/// the new IV, in one write.
static int log_write_frame(encrypted_file *self, sqlite3_int64 start, const uint8_t *given_header, const uint8_t *plain) {
    uint8_t header[CSTORAGE_FRAME_HEADER];
    sqlite3_int64 number = (start - CSTORAGE_LOG_HEADER) / CSTORAGE_FRAME_SIZE + 1;
    if (given_header != NULL) {
        memcpy(header, given_header, sizeof header);
    } else if (self->pending && self->pending_offset == start) {
        memcpy(header, self->pending_header, sizeof header);
        self->pending = 0;
    } else {
        // A page rewritten in place: its header is on disk, masked under the
        // IV the page had.
        int rc = log_flush(self);
        if (rc != SQLITE_OK) return rc;
        uint8_t old[CSTORAGE_FRAME_HEADER + CSTORAGE_IV_SIZE];
        rc = self->lower->pMethods->xRead(self->lower, old, CSTORAGE_FRAME_HEADER, start);
        if (rc == SQLITE_OK) {
            rc = self->lower->pMethods->xRead(self->lower, old + CSTORAGE_FRAME_HEADER, CSTORAGE_IV_SIZE,
                                              start + CSTORAGE_FRAME_HEADER + CSTORAGE_PAGE_DATA);
        }
        if (rc != SQLITE_OK) return rc == SQLITE_IOERR_SHORT_READ ? SQLITE_IOERR_WRITE : rc;
        if (mask_checksum(self, old, old + CSTORAGE_FRAME_HEADER) != 0) {
            note_failure(CSTORAGE_FAILURE_CRYPTO, 1, number);
            return SQLITE_IOERR_WRITE;
        }
        memcpy(header, old, sizeof header);
    }
    if (!all_zero(plain + CSTORAGE_PAGE_DATA, CSTORAGE_PAGE_RESERVE)) {
        // SQLite's checksum covers these bytes as it wrote them, and a read
        // gives them back as zeros: anything else would fail recovery.
        note_failure(CSTORAGE_FAILURE_UNSUPPORTED_WRITE, 1, number);
        return SQLITE_IOERR_WRITE;
    }
    int rc = log_flush(self);
    if (rc != SQLITE_OK) return rc;
    uint8_t *frame = self->buffer;
    memcpy(frame, header, sizeof header);
    uint8_t *page = frame + CSTORAGE_FRAME_HEADER;
    if (cstorage_page_seal(self->cipher, read_be32(header), plain, page) != 0
        || mask_checksum(self, frame, page + CSTORAGE_PAGE_DATA) != 0) {
        note_failure(CSTORAGE_FAILURE_CRYPTO, 1, number);
        return SQLITE_IOERR_WRITE;
    }
    return self->lower->pMethods->xWrite(self->lower, frame, CSTORAGE_FRAME_SIZE, start);
}

static int log_write(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset) {
    encrypted_file *self = (encrypted_file *)file;
    const uint8_t *bytes = data;
    if (offset + amount <= CSTORAGE_LOG_HEADER) {
        int rc = log_flush(self);
        return rc != SQLITE_OK ? rc : self->lower->pMethods->xWrite(self->lower, data, amount, offset);
    }
    sqlite3_int64 relative = offset - CSTORAGE_LOG_HEADER;
    sqlite3_int64 start = frame_start(relative / CSTORAGE_FRAME_SIZE);
    sqlite3_int64 within = relative % CSTORAGE_FRAME_SIZE;
    if (relative >= 0 && within == 0 && amount == CSTORAGE_FRAME_HEADER) {
        int rc = log_flush(self);
        if (rc != SQLITE_OK) return rc;
        memcpy(self->pending_header, bytes, CSTORAGE_FRAME_HEADER);
        self->pending_offset = start;
        self->pending = 1;
        return SQLITE_OK;
    }
    if (relative >= 0 && within == CSTORAGE_FRAME_HEADER && amount == CSTORAGE_PAGE_SIZE) {
        return log_write_frame(self, start, NULL, bytes);
    }
    if (relative >= 0 && within == 0 && amount == CSTORAGE_FRAME_SIZE) {
        return log_write_frame(self, start, bytes, bytes + CSTORAGE_FRAME_HEADER);
    }
    note_failure(CSTORAGE_FAILURE_UNSUPPORTED_WRITE, 1, relative / CSTORAGE_FRAME_SIZE + 1);
    return SQLITE_IOERR_WRITE;
}

/// Whether two commit frames of the log's current generation after
/// `frame` authenticate: then `frame` was synced before them (see
/// "Recovery" above).
static int log_later_commits_authenticate(encrypted_file *self, sqlite3_int64 frame) {
    uint8_t header[CSTORAGE_LOG_HEADER];
    sqlite3_int64 size = 0;
    if (self->lower->pMethods->xRead(self->lower, header, CSTORAGE_LOG_HEADER, 0) != SQLITE_OK
        || self->lower->pMethods->xFileSize(self->lower, &size) != SQLITE_OK) {
        return 0;
    }
    uint8_t *later = self->buffer + CSTORAGE_FRAME_SIZE;
    int commits = 0;
    for (sqlite3_int64 next = frame + 1; frame_start(next) + CSTORAGE_FRAME_SIZE <= size; next++) {
        if (self->lower->pMethods->xRead(self->lower, later, CSTORAGE_FRAME_SIZE, frame_start(next)) != SQLITE_OK) break;
        int sameGeneration = memcmp(later + 8, header + 16, 8) == 0;
        int isCommit = read_be32(later + 4) != 0;
        if (sameGeneration && isCommit
            && cstorage_page_check(self->cipher, read_be32(later), later + CSTORAGE_FRAME_HEADER) == 0
            && ++commits == 2) {
            return 1;
        }
    }
    return 0;
}

/// A whole frame, as recovery reads the log.
static int log_read_frame_for_recovery(encrypted_file *self, uint8_t *frame, sqlite3_int64 start) {
    sqlite3_int64 number = (start - CSTORAGE_LOG_HEADER) / CSTORAGE_FRAME_SIZE + 1;
    int rc = self->lower->pMethods->xRead(self->lower, frame, CSTORAGE_FRAME_SIZE, start);
    if (rc == SQLITE_IOERR_SHORT_READ) {
        memset(frame, 0, CSTORAGE_FRAME_SIZE);
        return rc;
    }
    if (rc != SQLITE_OK) return rc;
    uint8_t *page = frame + CSTORAGE_FRAME_HEADER;
    uint8_t iv[CSTORAGE_IV_SIZE];
    memcpy(iv, page + CSTORAGE_PAGE_DATA, sizeof iv);
    int opened = cstorage_page_open(self->cipher, read_be32(frame), page, page);
    if (opened == 0 && mask_checksum(self, frame, iv) == 0) return SQLITE_OK;
    // Whatever happens next, SQLite gets no bytes that did not authenticate.
    memset(frame, 0, CSTORAGE_FRAME_SIZE);
    if (opened != 1) {
        note_failure(CSTORAGE_FAILURE_CRYPTO, 1, number);
        return SQLITE_IOERR_READ;
    }
    if (self->commits_sync_log && log_later_commits_authenticate(self, number - 1)) {
        note_failure(CSTORAGE_FAILURE_AUTHENTICATION, 1, number);
        return SQLITE_IOERR_DATA;
    }
    // Torn by a power loss, or not provably otherwise: SQLite ends the log
    // before a frame of zeros.
    return SQLITE_OK;
}

static int log_read(sqlite3_file *file, void *out, int amount, sqlite3_int64 offset) {
    encrypted_file *self = (encrypted_file *)file;
    int rc = log_flush(self);
    if (rc != SQLITE_OK) return rc;
    if (offset + amount <= CSTORAGE_LOG_HEADER) {
        return self->lower->pMethods->xRead(self->lower, out, amount, offset);
    }
    sqlite3_int64 relative = offset - CSTORAGE_LOG_HEADER;
    sqlite3_int64 start = frame_start(relative / CSTORAGE_FRAME_SIZE);
    sqlite3_int64 within = relative % CSTORAGE_FRAME_SIZE;
    if (relative >= 0 && within == 0 && amount == CSTORAGE_FRAME_SIZE) {
        return log_read_frame_for_recovery(self, out, start);
    }
    if (relative >= 0 && within == CSTORAGE_FRAME_HEADER && amount == CSTORAGE_PAGE_SIZE) {
        // A page, as readers and checkpoints read it.
        rc = self->lower->pMethods->xRead(self->lower, self->buffer, CSTORAGE_FRAME_SIZE, start);
        sqlite3_int64 number = relative / CSTORAGE_FRAME_SIZE + 1;
        if (rc == SQLITE_IOERR_SHORT_READ) {
            note_failure(CSTORAGE_FAILURE_TRUNCATED, 1, number);
            return SQLITE_IOERR_DATA;
        }
        if (rc != SQLITE_OK) return rc;
        uint32_t page = read_be32(self->buffer);
        uint8_t *sealed = self->buffer + CSTORAGE_FRAME_HEADER;
        encrypted_file *database = self->database;
        database->transit_valid = 0;
        if (database->checkpointing) memcpy(database->transit_sealed, sealed, CSTORAGE_PAGE_SIZE);
        int opened = cstorage_page_open(self->cipher, page, sealed, out);
        if (opened != 0) {
            note_failure(opened > 0 ? CSTORAGE_FAILURE_AUTHENTICATION : CSTORAGE_FAILURE_CRYPTO, 1, number);
            return SQLITE_IOERR_DATA;
        }
        if (database->checkpointing) {
            memcpy(database->transit_plain, out, CSTORAGE_PAGE_DATA);
            database->transit_page = page;
            database->transit_valid = 1;
        }
        return SQLITE_OK;
    }
    // Any other part of the log: through whole plain frames.
    uint8_t *destination = out;
    uint8_t *frame = self->buffer;
    while (amount > 0) {
        if (offset < CSTORAGE_LOG_HEADER) {
            int length = (int)(CSTORAGE_LOG_HEADER - offset) < amount ? (int)(CSTORAGE_LOG_HEADER - offset) : amount;
            rc = self->lower->pMethods->xRead(self->lower, destination, length, offset);
            if (rc != SQLITE_OK) return rc;
            destination += length;
            offset += length;
            amount -= length;
            continue;
        }
        relative = offset - CSTORAGE_LOG_HEADER;
        start = frame_start(relative / CSTORAGE_FRAME_SIZE);
        within = relative % CSTORAGE_FRAME_SIZE;
        int length = amount < CSTORAGE_FRAME_SIZE - (int)within ? amount : CSTORAGE_FRAME_SIZE - (int)within;
        rc = log_read_plain_frame(self, start, frame);
        if (rc != SQLITE_OK) return rc;
        memcpy(destination, frame + within, (size_t)length);
        destination += length;
        offset += length;
        amount -= length;
    }
    return SQLITE_OK;
}

static int log_truncate(sqlite3_file *file, sqlite3_int64 size) {
    encrypted_file *self = (encrypted_file *)file;
    if (self->pending && self->pending_offset + CSTORAGE_FRAME_HEADER > size) self->pending = 0;
    int rc = log_flush(self);
    return rc != SQLITE_OK ? rc : self->lower->pMethods->xTruncate(self->lower, size);
}

static int log_sync(sqlite3_file *file, int flags) {
    encrypted_file *self = (encrypted_file *)file;
    int rc = log_flush(self);
    return rc != SQLITE_OK ? rc : self->lower->pMethods->xSync(self->lower, flags);
}

static int log_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    encrypted_file *self = (encrypted_file *)file;
    int rc = log_flush(self);
    return rc != SQLITE_OK ? rc : self->lower->pMethods->xFileSize(self->lower, size);
}

// MARK: Pass-through methods of files on disk

static int disk_close(sqlite3_file *file) {
    encrypted_file *self = (encrypted_file *)file;
    int flushed = self->kind == FILE_LOG ? log_flush(self) : SQLITE_OK;
    int rc = self->lower->pMethods ? self->lower->pMethods->xClose(self->lower) : SQLITE_OK;
    if (self->kind == FILE_MAIN) cstorage_page_cipher_free(&self->own_cipher);
    // The buffers held plain pages.
    if (self->buffer) {
        size_t size = self->kind == FILE_MAIN ? 3 * CSTORAGE_PAGE_SIZE : 2 * CSTORAGE_FRAME_SIZE;
        OPENSSL_cleanse(self->buffer, size);
    }
    sqlite3_free(self->buffer);
    self->buffer = NULL;
    return flushed != SQLITE_OK ? flushed : rc;
}

#define LOWER(file) (((encrypted_file *)(file))->lower)

static int disk_truncate(sqlite3_file *file, sqlite3_int64 size) { return LOWER(file)->pMethods->xTruncate(LOWER(file), size); }
static int disk_sync(sqlite3_file *file, int flags) { return LOWER(file)->pMethods->xSync(LOWER(file), flags); }
static int disk_file_size(sqlite3_file *file, sqlite3_int64 *size) { return LOWER(file)->pMethods->xFileSize(LOWER(file), size); }
static int disk_lock(sqlite3_file *file, int level) { return LOWER(file)->pMethods->xLock(LOWER(file), level); }
static int disk_unlock(sqlite3_file *file, int level) { return LOWER(file)->pMethods->xUnlock(LOWER(file), level); }
static int disk_check_reserved_lock(sqlite3_file *file, int *out) { return LOWER(file)->pMethods->xCheckReservedLock(LOWER(file), out); }
static int disk_file_control(sqlite3_file *file, int op, void *argument) { return LOWER(file)->pMethods->xFileControl(LOWER(file), op, argument); }
static int disk_sector_size(sqlite3_file *file) { return LOWER(file)->pMethods->xSectorSize(LOWER(file)); }
static int disk_device_characteristics(sqlite3_file *file) { return LOWER(file)->pMethods->xDeviceCharacteristics(LOWER(file)); }
static int disk_shm_map(sqlite3_file *file, int region, int size, int extend, void volatile **out) {
    return LOWER(file)->pMethods->xShmMap(LOWER(file), region, size, extend, out);
}
static int disk_shm_lock(sqlite3_file *file, int offset, int count, int flags) {
    return LOWER(file)->pMethods->xShmLock(LOWER(file), offset, count, flags);
}
static void disk_shm_barrier(sqlite3_file *file) { LOWER(file)->pMethods->xShmBarrier(LOWER(file)); }
static int disk_shm_unmap(sqlite3_file *file, int delete_flag) { return LOWER(file)->pMethods->xShmUnmap(LOWER(file), delete_flag); }

/// Version 2: the shared-memory methods, and no xFetch, so that SQLite
/// never maps the file's (encrypted) bytes into memory in place of reading.
static const sqlite3_io_methods main_methods = {
    2, disk_close, main_read, main_write, disk_truncate, disk_sync, disk_file_size,
    disk_lock, disk_unlock, disk_check_reserved_lock, main_file_control, disk_sector_size,
    main_device_characteristics, disk_shm_map, disk_shm_lock, disk_shm_barrier, disk_shm_unmap,
    NULL, NULL,
};

static const sqlite3_io_methods log_methods = {
    1, disk_close, log_read, log_write, log_truncate, log_sync, log_file_size,
    disk_lock, disk_unlock, disk_check_reserved_lock, disk_file_control, disk_sector_size,
    disk_device_characteristics, NULL, NULL, NULL, NULL, NULL, NULL,
};

// MARK: Files kept in memory

static int memory_close(sqlite3_file *file) {
    encrypted_file *self = (encrypted_file *)file;
    if (self->bytes) OPENSSL_cleanse(self->bytes, (size_t)self->capacity);
    sqlite3_free(self->bytes);
    self->bytes = NULL;
    return SQLITE_OK;
}

static int memory_read(sqlite3_file *file, void *out, int amount, sqlite3_int64 offset) {
    encrypted_file *self = (encrypted_file *)file;
    sqlite3_int64 available = offset < self->size ? self->size - offset : 0;
    if (available >= amount) {
        memcpy(out, self->bytes + offset, (size_t)amount);
        return SQLITE_OK;
    }
    if (available > 0) memcpy(out, self->bytes + offset, (size_t)available);
    memset((uint8_t *)out + available, 0, (size_t)(amount - available));
    return SQLITE_IOERR_SHORT_READ;
}

static int memory_write(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset) {
    encrypted_file *self = (encrypted_file *)file;
    sqlite3_int64 end = offset + amount;
    if (end > self->capacity) {
        sqlite3_int64 capacity = self->capacity > 0 ? self->capacity : 16 * 1024;
        while (capacity < end) capacity *= 2;
        uint8_t *grown = sqlite3_malloc64((sqlite3_uint64)capacity);
        if (grown == NULL) return SQLITE_IOERR_NOMEM;
        if (self->bytes) {
            memcpy(grown, self->bytes, (size_t)self->size);
            OPENSSL_cleanse(self->bytes, (size_t)self->capacity);
            sqlite3_free(self->bytes);
        }
        self->bytes = grown;
        self->capacity = capacity;
    }
    if (offset > self->size) memset(self->bytes + self->size, 0, (size_t)(offset - self->size));
    memcpy(self->bytes + offset, data, (size_t)amount);
    if (end > self->size) self->size = end;
    return SQLITE_OK;
}

static int memory_truncate(sqlite3_file *file, sqlite3_int64 size) {
    encrypted_file *self = (encrypted_file *)file;
    if (size < self->size) self->size = size;
    return SQLITE_OK;
}

static int memory_sync(sqlite3_file *file, int flags) { (void)file; (void)flags; return SQLITE_OK; }
static int memory_file_size(sqlite3_file *file, sqlite3_int64 *size) { *size = ((encrypted_file *)file)->size; return SQLITE_OK; }
static int memory_lock(sqlite3_file *file, int level) { (void)file; (void)level; return SQLITE_OK; }
static int memory_check_reserved_lock(sqlite3_file *file, int *out) { (void)file; *out = 0; return SQLITE_OK; }
static int memory_file_control(sqlite3_file *file, int op, void *argument) { (void)file; (void)op; (void)argument; return SQLITE_NOTFOUND; }
static int memory_sector_size(sqlite3_file *file) { (void)file; return CSTORAGE_PAGE_SIZE; }
static int memory_device_characteristics(sqlite3_file *file) {
    (void)file;
    return SQLITE_IOCAP_ATOMIC | SQLITE_IOCAP_POWERSAFE_OVERWRITE | SQLITE_IOCAP_SAFE_APPEND | SQLITE_IOCAP_SEQUENTIAL;
}

static const sqlite3_io_methods memory_methods = {
    1, memory_close, memory_read, memory_write, memory_truncate, memory_sync, memory_file_size,
    memory_lock, memory_lock, memory_check_reserved_lock, memory_file_control, memory_sector_size,
    memory_device_characteristics, NULL, NULL, NULL, NULL, NULL, NULL,
};

// MARK: The VFS

#define LOWER_VFS(vfs) ((sqlite3_vfs *)(vfs)->pAppData)

static int vfs_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    encrypted_file *self = (encrypted_file *)file;
    memset(self, 0, sizeof *self);
    self->lower = (sqlite3_file *)((char *)file + LOWER_OFFSET);
    const sqlite3_io_methods *methods;
    if (flags & SQLITE_OPEN_MAIN_DB) {
        const opening *request = current_opening;
        if (request == NULL) return SQLITE_CANTOPEN;
        if (cstorage_page_cipher_init(&self->own_cipher, request->key) != 0) return SQLITE_CANTOPEN;
        self->kind = FILE_MAIN;
        self->cipher = &self->own_cipher;
        self->commits_sync_log = request->commits_sync_log;
        self->buffer = sqlite3_malloc(3 * CSTORAGE_PAGE_SIZE);
        if (self->buffer == NULL) {
            cstorage_page_cipher_free(&self->own_cipher);
            return SQLITE_NOMEM;
        }
        self->transit_sealed = self->buffer + CSTORAGE_PAGE_SIZE;
        self->transit_plain = self->buffer + 2 * CSTORAGE_PAGE_SIZE;
        methods = &main_methods;
    } else if (flags & SQLITE_OPEN_WAL) {
        encrypted_file *database = (encrypted_file *)sqlite3_database_file_object(name);
        if (database == NULL || database->base.pMethods != &main_methods) return SQLITE_CANTOPEN;
        self->kind = FILE_LOG;
        self->database = database;
        self->cipher = database->cipher;
        self->commits_sync_log = database->commits_sync_log;
        self->buffer = sqlite3_malloc(2 * CSTORAGE_FRAME_SIZE);
        if (self->buffer == NULL) return SQLITE_NOMEM;
        methods = &log_methods;
    } else {
        self->kind = FILE_MEMORY;
        self->base.pMethods = &memory_methods;
        if (out_flags) *out_flags = flags;
        return SQLITE_OK;
    }
    sqlite3_vfs *lower = LOWER_VFS(vfs);
    int rc = lower->xOpen(lower, name, self->lower, flags, out_flags);
    if (rc != SQLITE_OK) {
        if (self->kind == FILE_MAIN) cstorage_page_cipher_free(&self->own_cipher);
        sqlite3_free(self->buffer);
        return rc;
    }
    self->base.pMethods = methods;
    return SQLITE_OK;
}

static int vfs_delete(sqlite3_vfs *vfs, const char *name, int sync_directory) {
    int rc = LOWER_VFS(vfs)->xDelete(LOWER_VFS(vfs), name, sync_directory);
    // The rollback journal was kept in memory: there is nothing to delete.
    return rc == SQLITE_IOERR_DELETE_NOENT ? SQLITE_OK : rc;
}

static int vfs_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    return LOWER_VFS(vfs)->xAccess(LOWER_VFS(vfs), name, flags, out);
}
static int vfs_full_pathname(sqlite3_vfs *vfs, const char *name, int length, char *out) {
    return LOWER_VFS(vfs)->xFullPathname(LOWER_VFS(vfs), name, length, out);
}
static void *vfs_dl_open(sqlite3_vfs *vfs, const char *name) { return LOWER_VFS(vfs)->xDlOpen(LOWER_VFS(vfs), name); }
static void vfs_dl_error(sqlite3_vfs *vfs, int length, char *out) { LOWER_VFS(vfs)->xDlError(LOWER_VFS(vfs), length, out); }
static void (*vfs_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    return LOWER_VFS(vfs)->xDlSym(LOWER_VFS(vfs), handle, symbol);
}
static void vfs_dl_close(sqlite3_vfs *vfs, void *handle) { LOWER_VFS(vfs)->xDlClose(LOWER_VFS(vfs), handle); }
static int vfs_randomness(sqlite3_vfs *vfs, int length, char *out) { return LOWER_VFS(vfs)->xRandomness(LOWER_VFS(vfs), length, out); }
static int vfs_sleep(sqlite3_vfs *vfs, int microseconds) { return LOWER_VFS(vfs)->xSleep(LOWER_VFS(vfs), microseconds); }
static int vfs_current_time(sqlite3_vfs *vfs, double *out) { return LOWER_VFS(vfs)->xCurrentTime(LOWER_VFS(vfs), out); }
static int vfs_get_last_error(sqlite3_vfs *vfs, int length, char *out) { return LOWER_VFS(vfs)->xGetLastError(LOWER_VFS(vfs), length, out); }
static int vfs_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    return LOWER_VFS(vfs)->xCurrentTimeInt64(LOWER_VFS(vfs), out);
}

static sqlite3_vfs encrypted_vfs = {
    2, 0, 0, NULL, "realm-encrypted", NULL,
    vfs_open, vfs_delete, vfs_access, vfs_full_pathname,
    vfs_dl_open, vfs_dl_error, vfs_dl_sym, vfs_dl_close,
    vfs_randomness, vfs_sleep, vfs_current_time, vfs_get_last_error, vfs_current_time_int64,
    NULL, NULL, NULL,
};

static pthread_once_t registration = PTHREAD_ONCE_INIT;
static int registration_result = SQLITE_ERROR;

static void register_vfs(void) {
    sqlite3_vfs *lower = sqlite3_vfs_find(NULL);
    if (lower == NULL || lower->iVersion < 2) return;
    encrypted_vfs.pAppData = lower;
    encrypted_vfs.mxPathname = lower->mxPathname;
    encrypted_vfs.szOsFile = (int)(LOWER_OFFSET + (size_t)lower->szOsFile);
    registration_result = sqlite3_vfs_register(&encrypted_vfs, 0);
}

int cstorage_open_encrypted(const char *path, int flags, const uint8_t *key, int commits_sync_log, sqlite3 **db) {
    *db = NULL;
    pthread_once(&registration, register_vfs);
    if (registration_result != SQLITE_OK) return registration_result;
    opening request = { key, commits_sync_log };
    current_opening = &request;
    int rc = sqlite3_open_v2(path, db, flags, encrypted_vfs.zName);
    current_opening = NULL;
    if (rc != SQLITE_OK) return rc;
    // A new file takes the page size and reserved bytes the format needs;
    // an existing one keeps what its header says (checked on each write of
    // page 1).
    int reserve = CSTORAGE_PAGE_RESERVE;
    sqlite3_file_control(*db, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve);
    return SQLITE_OK;
}
