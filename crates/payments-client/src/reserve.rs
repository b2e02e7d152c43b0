//! Reserve reads: token balances of the merchant's split and wallet (`GET /api/reserve/balances`) and the
//! reserve to keep for refunds (`GET /api/reserve/recommend`), both scope `split:read`.

use payments_core::{Cents, ReserveBasis, TokenAmount, Wallet};
use serde::{Deserialize, Serialize};

use crate::client::{Auth, Client};
use crate::error::Error;
use crate::or_unknown::OrUnknown;
use crate::token_amounts::base_units;

/// One address's balance of the payment token, read from the chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TokenHolding {
    /// The address.
    pub address: Wallet,
    /// Its balance, exact (base units on the wire; the service also sends `balanceUsd`).
    #[serde(with = "base_units")]
    pub balance: TokenAmount,
}

/// The merchant's token balances (`GET /api/reserve/balances`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReserveBalances {
    /// The chain read.
    pub chain_id: u64,
    /// The payment token.
    pub token: Wallet,
    /// `USDC`.
    pub currency: String,
    /// The split's balance; `None` when the merchant has no split.
    pub split: Option<TokenHolding>,
    /// The merchant wallet's balance.
    pub wallet: TokenHolding,
}

/// The reserve to keep for refunds and how it was found (`GET /api/reserve/recommend`; rule in the
/// service's docs/reserve.md: the larger of the window's refunds × `refundCoverBps` and its paid volume ×
/// `paidFloorBps`, rounded up to the cent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReserveAdvice {
    /// Days of volume counted.
    pub window_days: u32,
    /// The window, Unix ms.
    pub since: i64,
    /// The window's end (the service's now), Unix ms.
    pub until: i64,
    /// Paid in the window.
    pub paid_usd: Cents,
    /// Refunded in the window.
    pub refunded_usd: Cents,
    /// The refund multiplier, basis points (15000 = 150 %).
    pub refund_cover_bps: u32,
    /// The floor share of paid volume, basis points (500 = 5 %).
    pub paid_floor_bps: u32,
    /// Refunds × multiplier.
    pub refund_cover_usd: Cents,
    /// Paid × floor share.
    pub paid_floor_usd: Cents,
    /// The reserve to keep.
    pub recommended_usd: Cents,
    /// The same in token base units.
    #[serde(with = "base_units")]
    pub recommended_amount: TokenAmount,
    /// Which part of the rule decided.
    pub basis: OrUnknown<ReserveBasis>,
}

impl Client {
    /// The token balances of the merchant's split and wallet, read from the chain.
    ///
    /// # Errors
    /// [`Error::Api`] for a missing key or scope, or `chain_unavailable` (503) when the service cannot read
    /// the chain; [`Error::Transport`] or [`Error::Decode`] as for every call.
    pub async fn reserve_balances(&self) -> Result<ReserveBalances, Error> {
        self.get_json(self.url("api/reserve/balances")?, Auth::Subscription)
            .await
    }

    /// The recommended refund reserve from the merchant's recent paid and refunded volume.
    ///
    /// # Errors
    /// As [`Client::reserve_balances`] (this one reads only the datastore).
    pub async fn reserve_recommendation(&self) -> Result<ReserveAdvice, Error> {
        self.get_json(self.url("api/reserve/recommend")?, Auth::Subscription)
            .await
    }
}
