//! The reserve routes: token balances of the merchant's split and wallet read from the chain, and the
//! reserve to keep for refunds from the merchant's own recent volume (the rule is `payments_core::ReserveRule`,
//! docs/reserve.md).

use std::sync::Arc;

use payments_core::{MoneyError, ReserveRecommendation, ReserveRule, ReserveVolume, TokenAmount, Wallet};
use thiserror::Error;

use crate::chain::{Chain, ChainError};
use crate::runtime::clock::Clock;
use crate::store::{ReserveRepository, ShopRepository, StoreError};

#[derive(Debug, Error)]
pub(crate) enum ReserveError {
    #[error(transparent)]
    Chain(#[from] ChainError),
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The stored volume broke a money invariant (negative or past the range of cents).
    #[error("reserve arithmetic: {0}")]
    Money(#[from] MoneyError),
}

/// One address's balance of the payment token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Holding {
    pub(crate) address: Wallet,
    pub(crate) balance: TokenAmount,
}

/// What `GET /api/reserve/balances` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ReserveBalances {
    pub(crate) chain_id: u64,
    pub(crate) token: Wallet,
    /// `None` when the merchant has no split.
    pub(crate) split: Option<Holding>,
    pub(crate) wallet: Holding,
}

/// What `GET /api/reserve/recommend` reports: the rule, its inputs and its advice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ReserveAdvice {
    pub(crate) rule: ReserveRule,
    pub(crate) since_ms: i64,
    pub(crate) until_ms: i64,
    pub(crate) volume: ReserveVolume,
    pub(crate) recommendation: ReserveRecommendation,
}

/// Balances and reserve advice for one merchant.
#[derive(Debug, Clone)]
pub(crate) struct ReserveService {
    pub(crate) chain: Arc<dyn Chain>,
    pub(crate) shops: Arc<dyn ShopRepository>,
    pub(crate) reserve: Arc<dyn ReserveRepository>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) chain_id: u64,
    pub(crate) token: Wallet,
    pub(crate) rule: ReserveRule,
}

impl ReserveService {
    pub(crate) async fn balances(&self, merchant: Wallet) -> Result<ReserveBalances, ReserveError> {
        let split = self.shops.fetch_split(merchant).await?;
        let split = match split {
            Some(stored) => Some(self.holding(stored.address).await?),
            None => None,
        };
        Ok(ReserveBalances {
            chain_id: self.chain_id,
            token: self.token,
            split,
            wallet: self.holding(merchant).await?,
        })
    }

    pub(crate) async fn recommend(&self, merchant: Wallet) -> Result<ReserveAdvice, ReserveError> {
        let until_ms = self.clock.now_ms();
        let since_ms = self.rule.window_start(until_ms);
        let volume = self.reserve.volume_since(merchant, since_ms).await?;
        Ok(ReserveAdvice {
            rule: self.rule,
            since_ms,
            until_ms,
            volume,
            recommendation: self.rule.recommend(volume)?,
        })
    }

    async fn holding(&self, address: Wallet) -> Result<Holding, ChainError> {
        Ok(Holding {
            address,
            balance: self.chain.token_balance(self.token, address).await?,
        })
    }
}
