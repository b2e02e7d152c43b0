//! The billing balance: the platform's fees on a merchant's sales, what its split already paid on chain,
//! and what remains (`payments_core::split_fee_balance`).

use std::sync::Arc;

use payments_core::{Cents, FeeBalance, MoneyError, TokenAmount, Wallet, split_fee_balance};
use thiserror::Error;

use crate::runtime::clock::Clock;
use crate::store::{BillingRepository, ReceiptFeeBase, StoreError};

#[derive(Debug, Error)]
pub(crate) enum BillingError {
    #[error("the billing totals do not add up: {0}")]
    Inconsistent(#[from] MoneyError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Fees of subscription charges, from their `charged` billing events. Each charge pays its fee to the
/// platform in the same transaction, so what accrued is settled: nothing remains.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct SubscriptionFees {
    pub(crate) charges: u64,
    pub(crate) charged: Cents,
    /// In cents (the exact fee rounded half up), to add to the receipts' fees.
    pub(crate) fees: FeeBalance,
    /// The exact fees in token base units.
    pub(crate) fee_units: TokenAmount,
}

/// A merchant's balance with the platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BillingBalance {
    pub(crate) wallet: Wallet,
    pub(crate) platform_share_bps: u32,
    pub(crate) receipts: ReceiptFeeBase,
    pub(crate) receipt_fees: FeeBalance,
    pub(crate) subscriptions: SubscriptionFees,
    /// Receipts and subscriptions together.
    pub(crate) total: FeeBalance,
    pub(crate) as_of_ms: i64,
}

#[derive(Debug, Clone)]
pub(crate) struct BillingService {
    pub(crate) billing: Arc<dyn BillingRepository>,
    pub(crate) clock: Arc<dyn Clock>,
    /// The platform's share of every split (`--platform-share-bps`): what a paid receipt owes.
    pub(crate) platform_share_bps: u32,
}

impl BillingService {
    pub(crate) async fn balance(&self, wallet: Wallet) -> Result<BillingBalance, BillingError> {
        let as_of_ms = self.clock.now_ms();
        let receipts = self.billing.receipt_fee_base(wallet).await?;
        let receipt_fees = split_fee_balance(receipts.paid, receipts.settled_paid, self.platform_share_bps)?;
        let base = self.billing.subscription_fee_base(wallet).await?;
        let fee_cents = base.fees.to_cents_half_up()?;
        let subscriptions = SubscriptionFees {
            charges: base.charges,
            charged: base.charged,
            fees: FeeBalance {
                accrued: fee_cents,
                settled: fee_cents,
                remaining: Cents::ZERO,
            },
            fee_units: base.fees,
        };
        Ok(BillingBalance {
            wallet,
            platform_share_bps: self.platform_share_bps,
            receipts,
            receipt_fees,
            subscriptions,
            total: receipt_fees.checked_add(subscriptions.fees)?,
            as_of_ms,
        })
    }
}
