//! Split configuration: validate the recipients (core `Split::new` plus the platform's share from the
//! server config), pick the split address, and save it once (idempotent) or deliberately replace it.

use payments_core::{BPS_TOTAL, Split, SplitError, SplitRecipient, Wallet, split_address};
use thiserror::Error;

use std::sync::Arc;

use crate::chain::Chain;
use crate::domain::split::{ArchivedSplit, SplitSaved, StoredSplit};
use crate::runtime::clock::Clock;
use crate::store::{ShopRepository, StoreError};

#[derive(Debug, Error)]
pub(crate) enum SplitConfigError {
    #[error("recipients: {0}")]
    Invalid(#[from] SplitError),
    #[error("recipients: the platform recipient {address} must be present with exactly {bps} bps")]
    PlatformShareMissing { address: Wallet, bps: u32 },
    #[error("the server has no platform split recipient configured")]
    PlatformRecipientNotConfigured,
    #[error(
        "this server has no split factory configured (--chain-contracts): give the splitAddress of a deployed split"
    )]
    SplitFactoryNotConfigured,
    #[error("splitAddress cannot be the zero address")]
    ZeroSplitAddress,
    #[error("splitAddress cannot be the merchant's own wallet: the platform's share would never be paid")]
    SplitAddressIsMerchant,
    #[error("splitAddress {0} is not a split contract on chain (deploy it, or leave splitAddress out)")]
    NotASplitContract(Wallet),
    #[error("the split at splitAddress {0} has other recipients or shares on chain than this configuration")]
    SplitContractDiffers(Wallet),
    #[error("the chain node is unavailable: {0}")]
    ChainUnavailable(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A deploy request after parsing.
#[derive(Debug, Clone)]
pub(crate) struct SplitDraft {
    /// A deployed split contract; without one the split factory's CREATE2 address of the recipients.
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
    /// `SplitFactory` on the configured chain: a split without a given address lives at its CREATE2 address.
    pub(crate) split_factory: Option<Wallet>,
    /// A real chain, where a given `splitAddress` is checked; `None` on the test-mode chain, which knows only
    /// the splits it deployed itself.
    pub(crate) chain: Option<Arc<dyn Chain>>,
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
        let address = match draft.split_address {
            Some(address) if address.address().is_zero() => return Err(SplitConfigError::ZeroSplitAddress),
            Some(address) if address == wallet && platform_bps > 0 => {
                return Err(SplitConfigError::SplitAddressIsMerchant);
            }
            Some(address) => {
                self.check_on_chain(address, &split).await?;
                address
            }
            // The factory deploys the contract at this address when it is first needed; funds sent before
            // that are not lost (the split allocates its whole balance on its first distribution).
            None => split_address(
                self.split_factory
                    .ok_or(SplitConfigError::SplitFactoryNotConfigured)?,
                &split,
            ),
        };
        let stored = StoredSplit { address, split };
        Ok(self
            .shops
            .save_split(wallet, &stored, draft.replace, self.clock.now_ms())
            .await?)
    }

    /// A given split must be a genuine `Split` whose recipients and shares (the platform's included) are
    /// exactly the configuration's: otherwise the platform share could be skipped.
    async fn check_on_chain(&self, address: Wallet, split: &Split) -> Result<(), SplitConfigError> {
        let Some(chain) = &self.chain else {
            return Ok(());
        };
        match chain.split_recipients(address).await {
            Ok(Some(on_chain)) if on_chain == *split => Ok(()),
            Ok(Some(_)) => Err(SplitConfigError::SplitContractDiffers(address)),
            Ok(None) => Err(SplitConfigError::NotASplitContract(address)),
            Err(error) => Err(SplitConfigError::ChainUnavailable(error.to_string())),
        }
    }
}
