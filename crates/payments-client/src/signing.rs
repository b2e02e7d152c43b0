//! Signing in with a local secp256k1 key (feature `admin-signing`).
//!
//! Behind a feature because it puts `k256::ecdsa::SigningKey` in the client's public API (so a k256
//! major bump would be a breaking change of this crate) and because holding a raw private key in the
//! process is a choice callers should make explicitly; most admin front-ends sign with a wallet instead
//! and use [`Client::admin_nonce`] + [`Client::admin_login`]. It costs no extra build: `payments-core`
//! already compiles k256 to verify signatures, and the hash signed here is its
//! [`AdminLogin::signing_hash`].

use std::time::{SystemTime, UNIX_EPOCH};

use alloy_primitives::{Address, hex, keccak256};
use k256::ecdsa::SigningKey;
use payments_core::{AdminLogin, Wallet};

use crate::admin::LoginRequest;
use crate::client::Client;
use crate::error::Error;
use crate::session::AdminSession;

/// The wallet (address) of a secp256k1 key: the last 20 bytes of the keccak-256 of its public point.
pub fn wallet_of_key(key: &SigningKey) -> Wallet {
    let point = key.verifying_key().to_encoded_point(false);
    // Uncompressed SEC1 point: a 0x04 tag, then x || y, which is what the address hashes.
    let xy = point.as_bytes().split_first().map_or(&[][..], |(_tag, xy)| xy);
    Wallet::from_address(Address::from_word(keccak256(xy)))
}

impl LoginRequest {
    /// Signs `login` with `key` under the admin EIP-712 domain of `chain_id` (the server's
    /// `--chain-id`, see [`Client::site_config`]).
    ///
    /// # Errors
    /// [`Error::Signing`] when the key cannot sign (not expected for a valid key).
    pub fn sign(login: &AdminLogin, chain_id: u64, key: &SigningKey) -> Result<LoginRequest, Error> {
        let hash = login.signing_hash(chain_id);
        let (signature, recovery) = key
            .sign_prehash_recoverable(hash.as_slice())
            .map_err(|error| Error::Signing(error.to_string()))?;
        let mut bytes = signature.to_bytes().to_vec();
        // `v` as Ethereum wallets write it: 27 or 28.
        bytes.push(27 + recovery.to_byte());
        Ok(LoginRequest::new(login, hex::encode_prefixed(bytes)))
    }
}

impl Client {
    /// Signs in the wallet of `key`: fetches the server's chain id and a nonce, signs the EIP-712
    /// `Login` message dated now by this machine's clock, and posts it.
    ///
    /// The server refuses an `issuedAt` more than 5 minutes from its own clock; when this machine's
    /// clock cannot be trusted, use [`Client::sign_in_with_key_at`].
    ///
    /// # Errors
    /// As [`Client::admin_login`], plus the errors of [`Client::site_config`] and [`Client::admin_nonce`].
    pub async fn sign_in_with_key(&self, key: &SigningKey) -> Result<AdminSession, Error> {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
        self.sign_in_with_key_at(key, now.as_secs()).await
    }

    /// Like [`Client::sign_in_with_key`], with the message dated `issued_at_secs` (Unix seconds).
    ///
    /// # Errors
    /// As [`Client::sign_in_with_key`].
    pub async fn sign_in_with_key_at(
        &self,
        key: &SigningKey,
        issued_at_secs: u64,
    ) -> Result<AdminSession, Error> {
        let wallet = wallet_of_key(key);
        let chain_id = self.site_config().await?.chain_id;
        let login = AdminLogin {
            wallet,
            nonce: self.admin_nonce(wallet).await?,
            issued_at_secs,
        };
        self.admin_login(&LoginRequest::sign(&login, chain_id, key)?)
            .await
    }
}

#[cfg(test)]
mod tests {
    use k256::ecdsa::SigningKey;
    use payments_core::{AdminLogin, Wallet};

    use super::wallet_of_key;
    use crate::admin::LoginRequest;

    /// The well-known first Hardhat/Anvil account.
    const KEY: &str = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
    const WALLET: &str = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";

    fn key() -> SigningKey {
        let bytes: Vec<u8> = (0..KEY.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&KEY[i..i + 2], 16).unwrap())
            .collect();
        SigningKey::from_slice(&bytes).unwrap()
    }

    #[test]
    fn the_wallet_of_a_key_is_its_ethereum_address() {
        assert_eq!(wallet_of_key(&key()), Wallet::parse(WALLET).unwrap());
    }

    #[test]
    fn a_signed_login_verifies_with_payments_core() {
        let login = AdminLogin {
            wallet: wallet_of_key(&key()),
            nonce: "n-1".to_owned(),
            issued_at_secs: 1_700_000_000,
        };

        let request = LoginRequest::sign(&login, 8453, &key()).unwrap();

        assert_eq!(request.signature.len(), 2 + 65 * 2);
        assert_eq!(request.issued_at, 1_700_000_000);
        assert_eq!(
            login.verify(&request.signature, 8453, 1_700_000_000),
            Ok(login.wallet)
        );
        assert!(login.verify(&request.signature, 1, 1_700_000_000).is_err());
    }
}
