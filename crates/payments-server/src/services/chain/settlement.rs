//! Settlement: a paid receipt's deposit is forwarded to the merchant's split (deploying the split first when
//! it has no code yet) and the split distributes it; once both are mined the receipt is `completed`.
//!
//! Nothing is sent twice: forwarding moves the deposit's whole balance and distributing pays out the split's
//! whole balance, so a retry after a crash or a timeout finds nothing left to move and is a harmless no-op
//! (the contracts, not the database, make the retry safe). Failed attempts are recorded with their error and
//! retried with capped exponential backoff.

use std::sync::Arc;
use std::time::Duration;

use payments_core::{ReceiptSalt, Split};

use crate::chain::{Chain, ChainError};
use crate::domain::chain::ChainContracts;
use crate::runtime::clock::Clock;
use crate::services::chain::watcher::WatchError;
use crate::services::receipts::ReceiptService;
use crate::store::{ChainRepository, SettlementDue, SettlementFailure, ShopRepository};

/// Receipts settled per pass at most.
const SETTLEMENTS_PER_PASS: u32 = 20;
/// The first retry waits this long; each further one twice as long, up to [`MAX_RETRY_DELAY`].
const FIRST_RETRY_DELAY: Duration = Duration::from_secs(5);
const MAX_RETRY_DELAY: Duration = Duration::from_secs(3600);
/// Stored attempt errors are cut to this many bytes.
const MAX_ERROR_BYTES: usize = 512;

/// Settles paid receipts on one chain.
#[derive(Debug, Clone)]
pub(crate) struct Settlement {
    pub(crate) chain: Arc<dyn Chain>,
    pub(crate) records: Arc<dyn ChainRepository>,
    pub(crate) shops: Arc<dyn ShopRepository>,
    pub(crate) receipts: ReceiptService,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) contracts: ChainContracts,
    /// Forward only deposits whose counted transfers are all final (docs/money.md): money a reorganisation
    /// could still take back never leaves for the split.
    pub(crate) finalized_only: bool,
}

impl Settlement {
    /// Settles what is due; returns how many receipts became `completed`.
    pub(crate) async fn pass(&self) -> Result<usize, WatchError> {
        let due = self
            .records
            .settlements_due(self.clock.now_ms(), SETTLEMENTS_PER_PASS, self.finalized_only)
            .await?;
        let mut completed = 0;
        for receipt in due {
            match self.settle(&receipt).await {
                Ok(()) => match self
                    .receipts
                    .record_settlement(receipt.merchant, receipt.receipt_id.clone())
                    .await
                {
                    Ok(_) => completed += 1,
                    Err(error) => tracing::warn!(
                        receipt = receipt.receipt_id.as_str(),
                        error = %error,
                        "settled on chain but not yet recorded; retrying on the next pass"
                    ),
                },
                Err(error) => self.record_failure(&receipt, &error).await?,
            }
        }
        Ok(completed)
    }

    async fn settle(&self, receipt: &SettlementDue) -> Result<(), ChainError> {
        if !self.chain.has_code(receipt.split).await? {
            let split = self.recipients_of(receipt).await?;
            self.chain
                .deploy_split(self.contracts.split_factory, &split)
                .await?;
        }
        let salt = ReceiptSalt::of(receipt.merchant, receipt.receipt_id.as_str());
        self.chain
            .forward_deposit(
                self.contracts.deposit_factory,
                salt,
                receipt.split,
                self.contracts.token,
            )
            .await?;
        self.chain.distribute(receipt.split, self.contracts.token).await?;
        Ok(())
    }

    /// The recipients of the split the receipt's deposit forwards to: the merchant's current split or one it
    /// replaced since the receipt was created.
    async fn recipients_of(&self, receipt: &SettlementDue) -> Result<Split, ChainError> {
        let unavailable = |error: crate::store::StoreError| ChainError::Unavailable(error.to_string());
        let current = self
            .shops
            .fetch_split(receipt.merchant)
            .await
            .map_err(unavailable)?;
        if let Some(stored) = current.filter(|stored| stored.address == receipt.split) {
            return Ok(stored.split);
        }
        let history = self
            .shops
            .list_split_history(receipt.merchant)
            .await
            .map_err(unavailable)?;
        history
            .into_iter()
            .find(|archived| archived.split.address == receipt.split)
            .map(|archived| archived.split.split)
            .ok_or_else(|| {
                ChainError::NotConfigured(format!("the recipients of split {} are unknown", receipt.split))
            })
    }

    async fn record_failure(&self, receipt: &SettlementDue, error: &ChainError) -> Result<(), WatchError> {
        let attempts = receipt.attempts.saturating_add(1);
        let delay = retry_delay(attempts);
        let now_ms = self.clock.now_ms();
        tracing::warn!(
            receipt = receipt.receipt_id.as_str(),
            attempts,
            retry_in_secs = delay.as_secs(),
            error = %error,
            "settlement failed; will retry"
        );
        let failure = SettlementFailure {
            merchant: receipt.merchant,
            receipt_id: receipt.receipt_id.clone(),
            attempts,
            next_attempt_at: now_ms.saturating_add(i64::try_from(delay.as_millis()).unwrap_or(i64::MAX)),
            error: bounded(&error.to_string()),
            now_ms,
        };
        self.records.record_settlement_failure(&failure).await?;
        Ok(())
    }
}

/// 5 s, 10 s, 20 s, … capped at an hour.
fn retry_delay(attempts: u32) -> Duration {
    let doublings = attempts.saturating_sub(1).min(16);
    FIRST_RETRY_DELAY
        .saturating_mul(1 << doublings)
        .min(MAX_RETRY_DELAY)
}

fn bounded(text: &str) -> String {
    if text.len() <= MAX_ERROR_BYTES {
        return text.to_owned();
    }
    let mut end = MAX_ERROR_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_from_five_seconds_doubling_up_to_an_hour() {
        assert_eq!(retry_delay(1), Duration::from_secs(5));
        assert_eq!(retry_delay(2), Duration::from_secs(10));
        assert_eq!(retry_delay(5), Duration::from_secs(80));
        assert_eq!(retry_delay(40), Duration::from_secs(3600));
    }

    #[test]
    fn stored_errors_are_cut_on_a_character_boundary() {
        let long = "é".repeat(400);
        let cut = bounded(&long);
        assert!(cut.len() <= MAX_ERROR_BYTES + "…".len());
        assert!(cut.ends_with('…'));
    }
}
