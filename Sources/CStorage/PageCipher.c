#include "PageCipher.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <string.h>

// The ciphertext fills whole AES blocks, so the key stream block right after
// it is never used for data and can mask other bytes of the same write.
_Static_assert(CSTORAGE_PAGE_DATA % 16 == 0, "the page's usable bytes are whole AES blocks");
#define CSTORAGE_DATA_BLOCKS (CSTORAGE_PAGE_DATA / 16)

static int apply_key_stream(cstorage_page_cipher *cipher, const uint8_t *iv,
                            const uint8_t *input, uint8_t *output, int length);

int cstorage_page_cipher_init(cstorage_page_cipher *cipher, const uint8_t key[CSTORAGE_KEY_SIZE]) {
    static const uint8_t zero_iv[CSTORAGE_IV_SIZE] = {0};
    cipher->cipher = EVP_CIPHER_CTX_new();
    EVP_MAC *hmac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    cipher->mac = hmac ? EVP_MAC_CTX_new(hmac) : NULL;
    EVP_MAC_free(hmac);
    OSSL_PARAM parameters[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA256", 0),
        OSSL_PARAM_construct_end(),
    };
    if (cipher->cipher == NULL || cipher->mac == NULL
        || EVP_EncryptInit_ex(cipher->cipher, EVP_aes_256_ctr(), NULL, key, zero_iv) != 1
        || EVP_MAC_init(cipher->mac, key + 32, 32, parameters) != 1
        || apply_key_stream(cipher, zero_iv, zero_iv, cipher->key_check, sizeof cipher->key_check) != 0) {
        cstorage_page_cipher_free(cipher);
        return -1;
    }
    return 0;
}

void cstorage_page_cipher_free(cstorage_page_cipher *cipher) {
    OPENSSL_cleanse(cipher->key_check, sizeof cipher->key_check);
    EVP_CIPHER_CTX_free(cipher->cipher);
    EVP_MAC_CTX_free(cipher->mac);
    cipher->cipher = NULL;
    cipher->mac = NULL;
}

/// Counter mode is its own inverse: one function encrypts and decrypts.
static int apply_key_stream(cstorage_page_cipher *cipher, const uint8_t *iv,
                            const uint8_t *input, uint8_t *output, int length) {
    int produced = 0;
    if (EVP_EncryptInit_ex(cipher->cipher, NULL, NULL, NULL, iv) != 1
        || EVP_EncryptUpdate(cipher->cipher, output, &produced, input, length) != 1
        || produced != length) {
        return -1;
    }
    return 0;
}

/// HMAC-SHA-256 over the page number (big-endian), the cipher key's check
/// value, the IV and the ciphertext.
static int compute_mac(cstorage_page_cipher *cipher, uint32_t page_number,
                       const uint8_t *sealed, uint8_t mac[CSTORAGE_MAC_SIZE]) {
    const uint8_t number[4] = {
        (uint8_t)(page_number >> 24), (uint8_t)(page_number >> 16),
        (uint8_t)(page_number >> 8), (uint8_t)page_number,
    };
    size_t length = 0;
    // A NULL key re-initialises the context with the key it already has.
    if (EVP_MAC_init(cipher->mac, NULL, 0, NULL) != 1
        || EVP_MAC_update(cipher->mac, number, sizeof number) != 1
        || EVP_MAC_update(cipher->mac, cipher->key_check, sizeof cipher->key_check) != 1
        || EVP_MAC_update(cipher->mac, sealed + CSTORAGE_PAGE_DATA, CSTORAGE_IV_SIZE) != 1
        || EVP_MAC_update(cipher->mac, sealed, CSTORAGE_PAGE_DATA) != 1
        || EVP_MAC_final(cipher->mac, mac, &length, CSTORAGE_MAC_SIZE) != 1
        || length != CSTORAGE_MAC_SIZE) {
        return -1;
    }
    return 0;
}

int cstorage_page_seal(cstorage_page_cipher *cipher, uint32_t page_number,
                       const uint8_t *plain, uint8_t *sealed) {
    uint8_t *iv = sealed + CSTORAGE_PAGE_DATA;
    if (RAND_bytes(iv, CSTORAGE_IV_SIZE) != 1
        || apply_key_stream(cipher, iv, plain, sealed, CSTORAGE_PAGE_DATA) != 0
        || compute_mac(cipher, page_number, sealed, iv + CSTORAGE_IV_SIZE) != 0) {
        return -1;
    }
    return 0;
}

int cstorage_page_check(cstorage_page_cipher *cipher, uint32_t page_number, const uint8_t *sealed) {
    uint8_t expected[CSTORAGE_MAC_SIZE];
    if (compute_mac(cipher, page_number, sealed, expected) != 0) return -1;
    const uint8_t *stored = sealed + CSTORAGE_PAGE_DATA + CSTORAGE_IV_SIZE;
    return CRYPTO_memcmp(expected, stored, CSTORAGE_MAC_SIZE) == 0 ? 0 : 1;
}

int cstorage_page_open(cstorage_page_cipher *cipher, uint32_t page_number,
                       const uint8_t *sealed, uint8_t *plain) {
    int checked = cstorage_page_check(cipher, page_number, sealed);
    if (checked != 0) return checked;
    // The IV is read before an in-place decryption could reach it (it
    // cannot: only the usable bytes are written, but say so in code).
    uint8_t iv[CSTORAGE_IV_SIZE];
    memcpy(iv, sealed + CSTORAGE_PAGE_DATA, CSTORAGE_IV_SIZE);
    if (apply_key_stream(cipher, iv, sealed, plain, CSTORAGE_PAGE_DATA) != 0) return -1;
    memset(plain + CSTORAGE_PAGE_DATA, 0, CSTORAGE_PAGE_RESERVE);
    return 0;
}

int cstorage_page_mask(cstorage_page_cipher *cipher, const uint8_t iv[CSTORAGE_IV_SIZE], uint8_t mask[8]) {
    // The counter block CSTORAGE_DATA_BLOCKS past the IV, as a 128-bit
    // big-endian sum, which is how counter mode steps.
    uint8_t counter[CSTORAGE_IV_SIZE];
    memcpy(counter, iv, CSTORAGE_IV_SIZE);
    unsigned carry = CSTORAGE_DATA_BLOCKS;
    for (int index = CSTORAGE_IV_SIZE - 1; index >= 0 && carry != 0; index--) {
        unsigned sum = counter[index] + (carry & 0xff);
        counter[index] = (uint8_t)sum;
        carry = (carry >> 8) + (sum >> 8);
    }
    static const uint8_t zeros[8] = {0};
    return apply_key_stream(cipher, counter, zeros, mask, sizeof zeros);
}
