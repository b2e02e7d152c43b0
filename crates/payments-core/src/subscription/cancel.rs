//! The customer's signed cancellation: an EIP-712 `CancelSubscription(string subscriptionId,address wallet)`
//! under the domain `{name: "Merchant Payments Subscriptions", version: "1", chainId}`.
//!
//! Replaying it is harmless (canceling is idempotent and final), so it carries no nonce or time.

use alloy_primitives::{B256, U256};
use alloy_sol_types::Eip712Domain;
use thiserror::Error;

use crate::spend_permission::{RecoverableSignature, SignatureError, eip712_signing_hash};
use crate::wallet::Wallet;

/// The EIP-712 domain name of a subscription cancellation.
pub const CANCEL_DOMAIN_NAME: &str = "Merchant Payments Subscriptions";
/// The EIP-712 domain version of a subscription cancellation.
pub const CANCEL_DOMAIN_VERSION: &str = "1";

mod typed {
    #![allow(unreachable_pub)] // `sol!` declares its items `pub`; they stay private to this module.

    alloy_sol_types::sol! {
        struct CancelSubscription {
            string subscriptionId;
            address wallet;
        }
    }
}

/// A cancellation as the customer signs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CancelSubscription {
    /// The subscription to cancel.
    pub subscription_id: String,
    /// The customer (the signer).
    pub wallet: Wallet,
}

/// Why a signed cancellation was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CancelError {
    /// The signature is malformed or recovers no key.
    #[error("invalid signature: {0}")]
    Signature(#[from] SignatureError),
    /// Someone other than `wallet` signed.
    #[error("the cancellation was not signed by {wallet}")]
    SignerMismatch {
        /// The wallet named in the message.
        wallet: Wallet,
    },
}

impl CancelSubscription {
    /// The EIP-712 signing hash under the cancellation domain for `chain_id`.
    pub fn signing_hash(&self, chain_id: u64) -> B256 {
        let domain = Eip712Domain {
            name: Some(CANCEL_DOMAIN_NAME.into()),
            version: Some(CANCEL_DOMAIN_VERSION.into()),
            chain_id: Some(U256::from(chain_id)),
            verifying_contract: None,
            salt: None,
        };
        let message = typed::CancelSubscription {
            subscriptionId: self.subscription_id.clone(),
            wallet: self.wallet.address(),
        };
        eip712_signing_hash(&message, &domain)
    }

    /// Checks that `signature_hex` (65 bytes) over this message was made by `wallet`.
    ///
    /// # Errors
    /// [`CancelError::Signature`], [`CancelError::SignerMismatch`].
    pub fn verify(&self, signature_hex: &str, chain_id: u64) -> Result<(), CancelError> {
        let signature = RecoverableSignature::from_hex(signature_hex)?;
        let signer = signature.recover(&self.signing_hash(chain_id))?;
        if signer == self.wallet.address() {
            Ok(())
        } else {
            Err(CancelError::SignerMismatch { wallet: self.wallet })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use k256::ecdsa::SigningKey;

    fn sign(key: &SigningKey, hash: B256) -> String {
        let (signature, recovery) = key.sign_prehash_recoverable(hash.as_slice()).unwrap();
        let mut bytes = signature.to_bytes().to_vec();
        bytes.push(27 + recovery.to_byte());
        format!("0x{}", hex::encode(bytes))
    }

    fn customer() -> (SigningKey, Wallet) {
        let key = SigningKey::from_slice(&[7_u8; 32]).unwrap();
        let point = key.verifying_key().to_encoded_point(false);
        let address = alloy_primitives::keccak256(&point.as_bytes()[1..]);
        (
            key,
            Wallet::from_address(alloy_primitives::Address::from_slice(&address[12..])),
        )
    }

    #[test]
    fn a_cancellation_signed_by_the_customer_verifies_on_its_chain_only() {
        let (key, wallet) = customer();
        let cancel = CancelSubscription {
            subscription_id: "sub_1".into(),
            wallet,
        };
        let signature = sign(&key, cancel.signing_hash(8453));

        assert_eq!(cancel.verify(&signature, 8453), Ok(()));
        assert!(matches!(
            cancel.verify(&signature, 31_337),
            Err(CancelError::SignerMismatch { .. })
        ));
    }

    #[test]
    fn a_signature_for_another_subscription_is_refused() {
        let (key, wallet) = customer();
        let signed = CancelSubscription {
            subscription_id: "sub_1".into(),
            wallet,
        };
        let signature = sign(&key, signed.signing_hash(8453));
        let other = CancelSubscription {
            subscription_id: "sub_2".into(),
            wallet,
        };

        assert!(matches!(
            other.verify(&signature, 8453),
            Err(CancelError::SignerMismatch { .. })
        ));
        assert!(matches!(
            other.verify("0x12", 8453),
            Err(CancelError::Signature(_))
        ));
    }
}
