//! The admin sign-in message: an EIP-712 `Login(address wallet,string nonce,uint256 issuedAt)` signed
//! by the wallet that wants a session, under the domain `{name: "Merchant Payments Admin",
//! version: "1", chainId}`.

use alloy_primitives::{B256, U256};
use alloy_sol_types::Eip712Domain;
use thiserror::Error;

use crate::spend_permission::{RecoverableSignature, SignatureError, eip712_signing_hash};
use crate::wallet::Wallet;

/// The EIP-712 domain name of the admin sign-in.
pub const ADMIN_LOGIN_DOMAIN_NAME: &str = "Merchant Payments Admin";
/// The EIP-712 domain version of the admin sign-in.
pub const ADMIN_LOGIN_DOMAIN_VERSION: &str = "1";
/// How far `issuedAt` may lie from the server's clock, either way.
pub const ADMIN_LOGIN_MAX_SKEW_SECS: u64 = 5 * 60;

mod typed {
    #![allow(unreachable_pub)] // `sol!` declares its items `pub`; they stay private to this module.

    alloy_sol_types::sol! {
        struct Login {
            address wallet;
            string nonce;
            uint256 issuedAt;
        }
    }
}

/// A sign-in message as the wallet signed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdminLogin {
    /// The wallet asking for a session.
    pub wallet: Wallet,
    /// The single-use nonce the server handed out.
    pub nonce: String,
    /// When the wallet signed, unix seconds.
    pub issued_at_secs: u64,
}

/// Why a sign-in was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum LoginError {
    /// The signature is malformed or recovers no key.
    #[error("invalid signature: {0}")]
    Signature(#[from] SignatureError),
    /// Someone other than `wallet` signed.
    #[error("the message was not signed by {wallet}")]
    SignerMismatch {
        /// The wallet claimed in the message.
        wallet: Wallet,
    },
    /// `issuedAt` is more than five minutes from the server clock.
    #[error("issuedAt is more than 5 minutes from the server time")]
    OutsideClockSkew,
}

impl AdminLogin {
    /// The EIP-712 signing hash under the admin domain for `chain_id`.
    pub fn signing_hash(&self, chain_id: u64) -> B256 {
        let domain = Eip712Domain {
            name: Some(ADMIN_LOGIN_DOMAIN_NAME.into()),
            version: Some(ADMIN_LOGIN_DOMAIN_VERSION.into()),
            chain_id: Some(U256::from(chain_id)),
            verifying_contract: None,
            salt: None,
        };
        let message = typed::Login {
            wallet: self.wallet.address(),
            nonce: self.nonce.clone(),
            issuedAt: U256::from(self.issued_at_secs),
        };
        eip712_signing_hash(&message, &domain)
    }

    /// Checks that `signature` (65 bytes, hex) was made by `wallet` over this message and that the
    /// message is fresh. Nonce single-use is the caller's job (it needs storage).
    ///
    /// # Errors
    /// [`LoginError::OutsideClockSkew`], [`LoginError::Signature`], [`LoginError::SignerMismatch`].
    pub fn verify(&self, signature_hex: &str, chain_id: u64, now_secs: u64) -> Result<Wallet, LoginError> {
        if self.issued_at_secs.abs_diff(now_secs) > ADMIN_LOGIN_MAX_SKEW_SECS {
            return Err(LoginError::OutsideClockSkew);
        }
        let signature = RecoverableSignature::from_hex(signature_hex)?;
        let signer = signature.recover(&self.signing_hash(chain_id))?;
        if signer != self.wallet.address() {
            return Err(LoginError::SignerMismatch { wallet: self.wallet });
        }
        Ok(self.wallet)
    }
}

#[cfg(test)]
#[path = "admin_login_tests.rs"]
mod tests;
