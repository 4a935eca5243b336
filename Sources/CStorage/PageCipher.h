// The cipher of an encrypted Realm's pages: AES-256 in counter mode under the
// key's first 32 bytes, then HMAC-SHA-256 under its last 32 bytes over the
// page number, a check value of the cipher key, the IV and the ciphertext
// (encrypt-then-MAC). The check value (the first key-stream block under a
// zero IV) makes a key whose cipher half alone is wrong fail authentication,
// as one whose MAC half is wrong does, instead of decrypting to garbage; it
// is never stored.
//
// A sealed page keeps SQLite's page size. Its first CSTORAGE_PAGE_DATA
// bytes are the ciphertext of the page's usable bytes; the reserved bytes at
// its end (which SQLite leaves alone once told to reserve them) hold the IV
// and the MAC:
//
//     0                    4048          4064                 4096
//     | ciphertext          | IV (16)      | HMAC-SHA-256 (32)  |
//
// Docs/Encryption.md gives the reasoning; this header is private to CStorage.

#ifndef CSTORAGE_PAGE_CIPHER_H
#define CSTORAGE_PAGE_CIPHER_H

#include <openssl/evp.h>
#include <stdint.h>

#define CSTORAGE_PAGE_SIZE 4096
#define CSTORAGE_PAGE_RESERVE 48
#define CSTORAGE_PAGE_DATA (CSTORAGE_PAGE_SIZE - CSTORAGE_PAGE_RESERVE)
#define CSTORAGE_IV_SIZE 16
#define CSTORAGE_MAC_SIZE 32
#define CSTORAGE_KEY_SIZE 64

/// One key's cipher and MAC contexts, keyed once; each seal or open only
/// sets a new IV. Used by one thread at a time, like the file that owns it.
typedef struct cstorage_page_cipher {
    EVP_CIPHER_CTX *cipher;
    EVP_MAC_CTX *mac;
    uint8_t key_check[16];
} cstorage_page_cipher;

/// Keys `cipher` with a 64-byte key. Returns 0, or -1 when OpenSSL failed
/// (the contexts are then freed).
int cstorage_page_cipher_init(cstorage_page_cipher *cipher, const uint8_t key[CSTORAGE_KEY_SIZE]);

/// Frees the contexts (OpenSSL wipes their key schedules).
void cstorage_page_cipher_free(cstorage_page_cipher *cipher);

/// Seals the usable bytes of `plain` as page `page_number` into `sealed`
/// (CSTORAGE_PAGE_SIZE bytes, not overlapping `plain`), under a fresh random
/// IV. Returns 0, or -1 when OpenSSL failed.
int cstorage_page_seal(cstorage_page_cipher *cipher, uint32_t page_number,
                       const uint8_t *plain, uint8_t *sealed);

/// Checks the MAC of `sealed` as page `page_number`, then decrypts it into
/// `plain` (which may be `sealed`), with the reserved bytes zeroed, as SQLite
/// wrote them. Returns 0, 1 when the page fails authentication (`plain` is
/// then untouched), or -1 when OpenSSL failed.
int cstorage_page_open(cstorage_page_cipher *cipher, uint32_t page_number,
                       const uint8_t *sealed, uint8_t *plain);

/// Whether `sealed`'s MAC is right for page `page_number`: 0 yes, 1 no, -1
/// when OpenSSL failed.
int cstorage_page_check(cstorage_page_cipher *cipher, uint32_t page_number, const uint8_t *sealed);

/// Eight bytes of the key stream that follows the page's ciphertext under
/// `iv`: the mask that hides a WAL frame's checksum (see EncryptedVFS.c).
int cstorage_page_mask(cstorage_page_cipher *cipher, const uint8_t iv[CSTORAGE_IV_SIZE], uint8_t mask[8]);

#endif
