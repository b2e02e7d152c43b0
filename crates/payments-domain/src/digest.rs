//! SHA-256 digests as lowercase hex text, the form key hashes, CSRF hashes, idempotency request hashes and
//! image hashes are stored and compared in.

use sha2::{Digest, Sha256};

/// Lowercase hex of SHA-256(`data`), 64 characters. Encoded into a stack buffer: `hex::encode` builds its
/// `String` one character at a time (about 2,000 instructions per hash), and a key hash is computed on every
/// authenticated request.
pub fn sha256_hex(data: &[u8]) -> String {
    let digest = Sha256::digest(data);
    let mut text = [0u8; 64];
    let encoded = hex::encode_to_slice(digest, &mut text)
        .ok()
        .and_then(|()| std::str::from_utf8(&text).ok());
    // 32 bytes always fill 64 ASCII digits exactly; the fallback keeps this total rather than trusted.
    encoded.map_or_else(|| hex::encode(digest), str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::sha256_hex;

    #[test]
    fn the_digest_of_abc_is_the_fips_180_example() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
