//! The server master key: seals the API key that created a receipt (the webhook signing key), so it is never
//! stored in plaintext. XChaCha20-Poly1305 with a random 24-byte nonce per value; the receipt id is the
//! associated data, so a sealed key copied onto another receipt does not open.

use std::fmt;
use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use chacha20poly1305::aead::{Aead, AeadCore, KeyInit, OsRng, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use thiserror::Error;

const KEY_BYTES: usize = 32;
const NONCE_BYTES: usize = 24;

/// 32 secret bytes; `Debug` prints `[redacted]`.
#[derive(Clone, PartialEq, Eq)]
pub struct MasterKey([u8; KEY_BYTES]);

/// Why a master key could not be had, or a value not opened.
#[derive(Debug, Error)]
pub enum MasterKeyError {
    /// Not standard base64 of exactly 32 bytes.
    #[error("the master key must be 32 bytes in standard base64")]
    Malformed,
    /// The key file could not be read or written.
    #[error("master key file {}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: std::io::Error,
    },
    /// A sealed value did not open (wrong key, wrong receipt, or tampered).
    #[error("a sealed value did not open with this master key")]
    Unseal,
}

impl fmt::Debug for MasterKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MasterKey([redacted])")
    }
}

impl MasterKey {
    /// Parses 32 bytes in standard base64 (`openssl rand -base64 32`).
    ///
    /// # Errors
    /// [`MasterKeyError::Malformed`].
    pub fn parse_base64(text: &str) -> Result<MasterKey, MasterKeyError> {
        let bytes = BASE64
            .decode(text.trim())
            .map_err(|_| MasterKeyError::Malformed)?;
        <[u8; KEY_BYTES]>::try_from(bytes.as_slice())
            .map(MasterKey)
            .map_err(|_| MasterKeyError::Malformed)
    }

    /// A new random key.
    pub fn generate() -> MasterKey {
        MasterKey(rand::random())
    }

    /// The key in standard base64, as [`MasterKey::parse_base64`] reads it (to share a development key).
    pub(crate) fn to_base64(&self) -> String {
        BASE64.encode(self.0)
    }

    /// The development key file beside a database: `<db file name>.master.key`.
    pub fn dev_file_for(db_path: &Path) -> PathBuf {
        crate::runtime::private_file::beside(db_path, ".master.key")
    }

    /// Reads the key file (base64), or creates it with a new random key, readable by the owner only (0600).
    ///
    /// # Errors
    /// [`MasterKeyError::File`] or [`MasterKeyError::Malformed`].
    pub fn load_or_create(path: &Path) -> Result<MasterKey, MasterKeyError> {
        let file_error = |source| MasterKeyError::File {
            path: path.to_owned(),
            source,
        };
        match std::fs::read_to_string(path) {
            Ok(text) => return MasterKey::parse_base64(&text),
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => return Err(file_error(error)),
            Err(_) => {}
        }
        let key = MasterKey::generate();
        let text = format!("{}\n", BASE64.encode(key.0));
        crate::runtime::private_file::create_private(path, text.as_bytes()).map_err(file_error)?;
        Ok(key)
    }

    fn cipher(&self) -> XChaCha20Poly1305 {
        XChaCha20Poly1305::new(&self.0.into())
    }

    /// Seals `secret` bound to `context` (the receipt id): nonce followed by ciphertext and tag.
    pub(crate) fn seal(&self, secret: &[u8], context: &str) -> Vec<u8> {
        let nonce = XChaCha20Poly1305::generate_nonce(&mut OsRng);
        let payload = Payload {
            msg: secret,
            aad: context.as_bytes(),
        };
        // Encryption fails only for messages of gigabytes; a key is tens of bytes.
        let ciphertext = self.cipher().encrypt(&nonce, payload).unwrap_or_default();
        let mut sealed = nonce.to_vec();
        sealed.extend_from_slice(&ciphertext);
        sealed
    }

    /// Opens what [`MasterKey::seal`] made with the same `context`.
    pub(crate) fn open(&self, sealed: &[u8], context: &str) -> Result<Vec<u8>, MasterKeyError> {
        if sealed.len() <= NONCE_BYTES {
            return Err(MasterKeyError::Unseal);
        }
        let (nonce, ciphertext) = sealed.split_at(NONCE_BYTES);
        let nonce: [u8; NONCE_BYTES] = nonce.try_into().map_err(|_| MasterKeyError::Unseal)?;
        let payload = Payload {
            msg: ciphertext,
            aad: context.as_bytes(),
        };
        self.cipher()
            .decrypt(&XNonce::from(nonce), payload)
            .map_err(|_| MasterKeyError::Unseal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_key_opens_only_with_the_same_master_key_and_receipt() {
        let master = MasterKey::generate();
        let sealed = master.seal(b"sk_live_secret", "order-1");

        assert!(!sealed.windows(14).any(|window| window == b"sk_live_secret"));
        assert_eq!(master.open(&sealed, "order-1").unwrap(), b"sk_live_secret");
        assert!(master.open(&sealed, "order-2").is_err());
        assert!(MasterKey::generate().open(&sealed, "order-1").is_err());
    }

    #[test]
    fn the_key_file_is_created_once_and_private() {
        let dir = tempfile::tempdir().unwrap();
        let path = MasterKey::dev_file_for(&dir.path().join("payments.db"));

        let first = MasterKey::load_or_create(&path).unwrap();
        let second = MasterKey::load_or_create(&path).unwrap();

        assert_eq!(first, second);
        assert!(path.ends_with("payments.db.master.key"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn only_32_bytes_of_base64_make_a_master_key() {
        assert!(MasterKey::parse_base64(&BASE64.encode([7u8; 32])).is_ok());
        assert!(MasterKey::parse_base64(&BASE64.encode([7u8; 31])).is_err());
        assert!(MasterKey::parse_base64("not base64!").is_err());
    }
}
