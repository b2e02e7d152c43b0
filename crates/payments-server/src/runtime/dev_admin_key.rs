//! The development merchant's wallet key: a random secp256k1 key made at the first development start and
//! kept beside the database in `<db file name>.dev-admin.key` (mode 0600, `0x` + 64 hex digits: the form
//! `payments admin login --private-key-file` reads). The development merchant is the wallet of this key, so
//! its admin routes (split, refunds, terminal sales) are open to whoever can read the file: the developer.
//!
//! Only development mode makes or reads it. The key never leaves the file through the server: it is read
//! to learn its wallet and dropped (k256 wipes a `SigningKey` on drop).

use std::path::{Path, PathBuf};

use k256::ecdsa::SigningKey;
use payments_core::Wallet;
use thiserror::Error;
use zeroize::Zeroizing;

use crate::runtime::private_file::{beside, create_private};

/// Why the development admin key file cannot be used.
#[derive(Debug, Error)]
pub enum DevAdminKeyError {
    /// Reading or writing the file failed.
    #[error("development admin key file {path}: {source}")]
    File {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The file does not hold `0x` and 64 hex digits of a valid key (its contents are never shown).
    #[error(
        "development admin key file {0} does not hold a private key (0x and 64 hex digits); delete it \
         together with the database to start over"
    )]
    Malformed(PathBuf),
}

/// The development merchant's key file and the wallet it signs for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DevAdminKey {
    /// Where the key is.
    pub path: PathBuf,
    /// The wallet of the key: the development merchant.
    pub wallet: Wallet,
}

impl DevAdminKey {
    /// The key file beside a database: `<db file name>.dev-admin.key`.
    pub fn file_for(db_path: &Path) -> PathBuf {
        beside(db_path, ".dev-admin.key")
    }

    /// Reads the key file, or creates it with a new random key, readable by the owner only (0600).
    ///
    /// # Errors
    /// [`DevAdminKeyError::File`] or [`DevAdminKeyError::Malformed`].
    pub fn load_or_create(path: &Path) -> Result<DevAdminKey, DevAdminKeyError> {
        let file_error = |source| DevAdminKeyError::File {
            path: path.to_owned(),
            source,
        };
        match std::fs::read_to_string(path).map(Zeroizing::new) {
            Ok(text) => {
                let key = parse(&text).ok_or_else(|| DevAdminKeyError::Malformed(path.to_owned()))?;
                return Ok(DevAdminKey {
                    path: path.to_owned(),
                    wallet: wallet_of(&key),
                });
            }
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => return Err(file_error(error)),
            Err(_) => {}
        }
        let key = generate();
        let text = Zeroizing::new(format!("0x{}\n", hex::encode(key.to_bytes())));
        create_private(path, text.as_bytes()).map_err(file_error)?;
        Ok(DevAdminKey {
            path: path.to_owned(),
            wallet: wallet_of(&key),
        })
    }
}

/// A random valid key (a random 32-byte value is a valid key but for a chance of about 2^-128).
fn generate() -> SigningKey {
    loop {
        let bytes = Zeroizing::new(rand::random::<[u8; 32]>());
        if let Ok(key) = SigningKey::from_slice(bytes.as_slice()) {
            return key;
        }
    }
}

fn parse(text: &str) -> Option<SigningKey> {
    let text = text.trim();
    let hex_digits = text.strip_prefix("0x").unwrap_or(text);
    let mut bytes = Zeroizing::new([0u8; 32]);
    hex::decode_to_slice(hex_digits, bytes.as_mut_slice()).ok()?;
    SigningKey::from_slice(bytes.as_slice()).ok()
}

/// The Ethereum address of a key: the last 20 bytes of the keccak-256 of its uncompressed public point.
fn wallet_of(key: &SigningKey) -> Wallet {
    let point = key.verifying_key().to_encoded_point(false);
    let hash = alloy_primitives::keccak256(&point.as_bytes()[1..]);
    Wallet::from_address(alloy_primitives::Address::from_slice(&hash[12..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_file_is_made_once_private_and_read_back_as_the_same_wallet() {
        let dir = tempfile::tempdir().unwrap();
        let path = DevAdminKey::file_for(&dir.path().join("payments.db"));

        let first = DevAdminKey::load_or_create(&path).unwrap();
        let second = DevAdminKey::load_or_create(&path).unwrap();

        assert_eq!(first, second);
        assert!(path.ends_with("payments.db.dev-admin.key"));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("0x") && text.trim().len() == 66,
            "{}",
            text.len()
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn the_wallet_is_the_keys_ethereum_address() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("known.key");
        // The well-known first Anvil account.
        std::fs::write(
            &path,
            "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("bad.key"), "not a key").unwrap();

        let key = DevAdminKey::load_or_create(&path).unwrap();
        let bad = DevAdminKey::load_or_create(&dir.path().join("bad.key")).unwrap_err();

        assert_eq!(
            key.wallet.to_string(),
            "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
        );
        assert!(!bad.to_string().contains("not a key"), "{bad}");
    }
}
