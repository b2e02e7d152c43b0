//! The relayer's private key, which signs the platform's own transactions.

use alloy::signers::local::PrivateKeySigner;
use payments_core::Wallet;

/// The relayer's private key: signs the platform's own transactions. Its `Debug` shows only the address.
#[derive(Clone)]
pub struct RelayerKey(pub(super) PrivateKeySigner);

impl RelayerKey {
    /// Parses a 0x-hex secp256k1 private key (surrounding whitespace, such as a file's newline, ignored).
    ///
    /// # Errors
    /// When the text is not a valid private key (the message never repeats it).
    pub fn parse(text: &str) -> Result<RelayerKey, String> {
        text.trim()
            .parse::<PrivateKeySigner>()
            .map(RelayerKey)
            .map_err(|_| "not a 0x-hex secp256k1 private key".to_owned())
    }

    /// The relayer's address (it pays the gas of settlements and needs the chain's native coin).
    pub fn address(&self) -> Wallet {
        Wallet::from_address(self.0.address())
    }
}

impl std::fmt::Debug for RelayerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RelayerKey({} [private key redacted])", self.address())
    }
}
