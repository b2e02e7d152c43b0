//! Split configuration: validate the recipients (core `Split::new` plus the platform's share from the
//! server config), pick the split address, and save it once (idempotent) or deliberately replace it.

use alloy_primitives::keccak256;
use payments_core::{BPS_TOTAL, Split, SplitError, SplitRecipient, Wallet};
use thiserror::Error;

use std::sync::Arc;

use crate::clock::Clock;
use crate::domain::split::{ArchivedSplit, SplitSaved, StoredSplit};
use crate::store::{ShopRepository, StoreError};

/// Domain separator of placeholder split addresses, so they cannot collide with other keccak uses.
const PLACEHOLDER_DOMAIN: &[u8] = b"merchant-payments/split-placeholder/v1";

#[derive(Debug, Error)]
pub(crate) enum SplitConfigError {
    #[error("recipients: {0}")]
    Invalid(#[from] SplitError),
    #[error("recipients: the platform recipient {address} must be present with exactly {bps} bps")]
    PlatformShareMissing { address: Wallet, bps: u32 },
    #[error("the server has no platform split recipient configured")]
    PlatformRecipientNotConfigured,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A deploy request after parsing.
#[derive(Debug, Clone)]
pub(crate) struct SplitDraft {
    /// A pre-deployed split contract; without one a placeholder address is derived.
    pub(crate) split_address: Option<Wallet>,
    /// Without recipients: the merchant gets everything but the platform's share.
    pub(crate) recipients: Option<Vec<SplitRecipient>>,
    /// Archive the current configuration and store this one (instead of the idempotent keep).
    pub(crate) replace: bool,
}

/// The merchant's split, if configured (orders and terminal sales need one).
/// Split configuration use cases; the platform's recipient and share come from the server configuration.
#[derive(Debug, Clone)]
pub(crate) struct SplitService {
    pub(crate) shops: Arc<dyn ShopRepository>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) platform_recipient: Option<Wallet>,
    pub(crate) platform_share_bps: u32,
}

impl SplitService {
    pub(crate) async fn fetch(&self, wallet: Wallet) -> Result<Option<StoredSplit>, StoreError> {
        self.shops.fetch_split(wallet).await
    }

    pub(crate) async fn history(&self, wallet: Wallet) -> Result<Vec<ArchivedSplit>, StoreError> {
        self.shops.list_split_history(wallet).await
    }

    pub(crate) async fn deploy(
        &self,
        wallet: Wallet,
        draft: SplitDraft,
    ) -> Result<SplitSaved, SplitConfigError> {
        let platform = self
            .platform_recipient
            .ok_or(SplitConfigError::PlatformRecipientNotConfigured)?;
        let platform_bps = self.platform_share_bps;
        let recipients = draft.recipients.unwrap_or_else(|| {
            vec![
                SplitRecipient {
                    address: wallet,
                    shares_bps: BPS_TOTAL.saturating_sub(platform_bps),
                },
                SplitRecipient {
                    address: platform,
                    shares_bps: platform_bps,
                },
            ]
        });
        let split = Split::new(recipients)?;
        if split.share_of(platform) != Some(platform_bps) {
            return Err(SplitConfigError::PlatformShareMissing {
                address: platform,
                bps: platform_bps,
            });
        }
        let address = draft
            .split_address
            .unwrap_or_else(|| placeholder_address(wallet, &split));
        let stored = StoredSplit { address, split };
        Ok(self
            .shops
            .save_split(wallet, &stored, draft.replace, self.clock.now_ms())
            .await?)
    }
}

/// Until on-chain deployment lands, a split without a given contract gets this deterministic address:
/// the last 20 bytes of keccak256(domain || merchant || each recipient's address and u32 BE share).
/// Nobody holds its key; a later chain issue deploys real contracts.
fn placeholder_address(merchant: Wallet, split: &Split) -> Wallet {
    let mut preimage = PLACEHOLDER_DOMAIN.to_vec();
    preimage.extend_from_slice(merchant.address().as_slice());
    for recipient in split.recipients() {
        preimage.extend_from_slice(recipient.address.address().as_slice());
        preimage.extend_from_slice(&recipient.shares_bps.to_be_bytes());
    }
    let hash = keccak256(&preimage);
    let mut address = [0u8; 20];
    address.copy_from_slice(&hash[12..]);
    Wallet::from_address(address.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wallet(byte: u8) -> Wallet {
        Wallet::parse(&format!("0x{}", format!("{byte:02x}").repeat(20))).unwrap()
    }

    fn split(first_bps: u32) -> Split {
        Split::new(vec![
            SplitRecipient {
                address: wallet(1),
                shares_bps: first_bps,
            },
            SplitRecipient {
                address: wallet(2),
                shares_bps: 10_000 - first_bps,
            },
        ])
        .unwrap()
    }

    #[test]
    fn placeholder_addresses_are_deterministic_and_depend_on_merchant_and_shares() {
        let base = placeholder_address(wallet(9), &split(9950));

        assert_eq!(base, placeholder_address(wallet(9), &split(9950)));
        assert_ne!(base, placeholder_address(wallet(8), &split(9950)));
        assert_ne!(base, placeholder_address(wallet(9), &split(9900)));
    }
}
