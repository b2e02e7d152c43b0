//! Reading the admin's private key file for `payments admin login`.
//!
//! The file holds a raw secp256k1 key, so it gets ssh's treatment: refused when other users may read it,
//! never echoed in an error (messages name the file and what is wrong, not its contents), and wiped from
//! memory once the signing key is built (`SigningKey` wipes itself on drop).

use std::path::Path;

use k256::ecdsa::SigningKey;
use zeroize::Zeroizing;

use crate::admin_session::refuse_if_shared;
use crate::report::failure;

/// The signing key in `path`: `0x` and 64 hex digits (the `0x` is optional), surrounding whitespace
/// ignored.
///
/// # Errors
/// `insecure_key_file` when group or others may access the file (Unix), `io_error` when it cannot be
/// read, `invalid_key_file` when it does not hold a valid key.
pub(crate) fn read_signing_key(path: &Path) -> anyhow::Result<SigningKey> {
    refuse_if_shared(path, "insecure_key_file", "private key file")?;
    let text = std::fs::read_to_string(path)
        .map(Zeroizing::new)
        .map_err(|error| failure("io_error", format!("cannot read {}: {error}", path.display())))?;
    parse_key(&text).map_err(|why| {
        failure(
            "invalid_key_file",
            format!("{} does not hold a private key: {why}", path.display()),
        )
    })
}

/// The key in `text`, or why it is not one (never quoting `text`).
fn parse_key(text: &str) -> Result<SigningKey, &'static str> {
    let text = text.trim();
    let hex = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    if hex.len() != 64 {
        return Err("expected 0x and 64 hex digits (32 bytes)");
    }
    let mut bytes = Zeroizing::new([0u8; 32]);
    hex::decode_to_slice(hex, bytes.as_mut_slice()).map_err(|_| "expected only hex digits after 0x")?;
    SigningKey::from_slice(bytes.as_slice()).map_err(|_| "not a valid secp256k1 key (zero or too large)")
}

#[cfg(test)]
mod tests {
    use payments_client::wallet_of_key;

    use super::parse_key;

    /// The well-known first Hardhat/Anvil account.
    const KEY: &str = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
    const WALLET: &str = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";

    #[test]
    fn a_0x_hex_key_with_whitespace_is_read() {
        let key = parse_key(&format!("  0x{KEY}\n")).unwrap();

        assert_eq!(wallet_of_key(&key).to_string(), WALLET);
        assert!(parse_key(KEY).is_ok());
    }

    #[test]
    fn what_is_not_a_key_is_refused_without_quoting_it() {
        let short = parse_key("0x1234").err().unwrap();
        let not_hex = parse_key(&format!("0x{}", "zz".repeat(32))).err().unwrap();
        let zero = parse_key(&"0".repeat(64)).err().unwrap();

        assert!(short.contains("64 hex digits"), "{short}");
        assert!(!not_hex.contains("zz"), "{not_hex}");
        assert!(zero.contains("not a valid"), "{zero}");
    }
}
