//! The billing balance (`GET /api/billing/balance`, scope `receipts:read`).

use payments_core::{Cents, Wallet};
use serde::{Deserialize, Serialize};

use crate::client::{Auth, Client};
use crate::error::Error;

/// The platform's fees on a merchant's sales: `accrued_usd == settled_usd + remaining_usd`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct BillingBalance {
    /// The merchant.
    pub wallet: Wallet,
    /// Always `USD`.
    pub currency: String,
    /// The platform's split share, in basis points, that paid receipts owe.
    pub platform_share_bps: u32,
    /// Fees owed so far (receipts and subscription charges).
    pub accrued_usd: Cents,
    /// The part the split already paid the platform on chain.
    pub settled_usd: Cents,
    /// What is still to be settled.
    pub remaining_usd: Cents,
    /// The receipts' part.
    pub receipts: ReceiptFees,
    /// The subscription charges' part (zero until subscriptions exist).
    pub subscriptions: SubscriptionFees,
    /// When the balance was computed, unix ms.
    pub as_of: i64,
}

/// Fees of paid receipts.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReceiptFees {
    /// Receipts with money paid.
    pub paid_count: u64,
    /// What they were paid.
    pub paid_usd: Cents,
    /// Those whose split ran on chain (they reached `completed`).
    pub settled_count: u64,
    /// What those were paid.
    pub settled_paid_usd: Cents,
    /// Their fees.
    pub accrued_usd: Cents,
    /// Settled on chain.
    pub settled_usd: Cents,
    /// Still to settle.
    pub remaining_usd: Cents,
}

/// Fees of subscription charges.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SubscriptionFees {
    /// Charges made.
    pub charge_count: u64,
    /// What they charged.
    pub charged_usd: Cents,
    /// Their fees.
    pub accrued_usd: Cents,
    /// Settled on chain.
    pub settled_usd: Cents,
    /// Still to settle.
    pub remaining_usd: Cents,
}

impl Client {
    /// The merchant's billing balance.
    ///
    /// # Errors
    /// [`Error::Api`]: `forbidden` (403, no `receipts:read`), `rate_limited` (429); [`Error::Transport`] or
    /// [`Error::Decode`] as for every call.
    pub async fn billing_balance(&self) -> Result<BillingBalance, Error> {
        self.get_json(self.url("api/billing/balance")?, Auth::Subscription)
            .await
    }
}
