//! The relayer's transactions, with nonces managed here rather than read from the node per transaction.
//!
//! Reading `eth_getTransactionCount` for every transaction gives concurrent sends the same nonce: one is
//! mined, the others fail with "nonce too low" or "replacement transaction underpriced" (the bug that made a
//! batch of 6 charges answer `succeeded 1, failed 5`). Instead:
//!
//! - **In order, one live transaction per nonce.** The next nonce is kept in memory behind a lock that is
//!   held from choosing the nonce until the node accepted (or refused) the transaction, so two sends of this
//!   process never share a nonce. It is seeded from the node's `pending` count on first use.
//! - **Refusals cost no nonce.** Gas is estimated before a nonce is taken: a call the chain refuses (a revert
//!   at estimation) never leaves a gap that would hold every later transaction back. (`chargeBatch` sets its
//!   own limit instead: its charges cannot revert it, and the contract bounds each charge's gas.)
//! - **Re-sync.** "nonce too low", "replacement transaction underpriced", "already known" (another sender of
//!   the same key, or a restart) and any send whose acceptance is unknown drop the cached nonce, so the next
//!   send re-reads the node's `pending` count; a refused send is retried (a few times) with the fresh nonce.
//! - **Dropped transactions.** A transaction without a receipt after [`RESEND_AFTER`] that the node no longer
//!   knows is sent again with the same nonce and fees raised by a quarter (a replacement must pay more), and
//!   whichever of the two is mined is the answer; still nothing by the write deadline is `Unavailable`,
//!   whose outcome the caller reconciles later.
//!
//! Several server instances share one relayer key (the customers' permissions name one spender). Their
//! charge batches take turns through the database's relayer send lease (`services/recurring/attempt.rs`), so
//! two instances do not race for nonces; the rare other relayer write that meets another instance's
//! transaction is re-synced as above.

use std::time::{Duration, Instant};

use alloy::network::{ReceiptResponse, TransactionBuilder};
use alloy::primitives::{Address, B256};
use alloy::providers::Provider;
use alloy::rpc::types::{TransactionReceipt, TransactionRequest};
use tokio::sync::Mutex;

use crate::chain::ChainError;
use crate::chain::rpc::{READ_DEADLINE, RpcChain, WRITE_DEADLINE, rpc_error, within};

/// How long a sent transaction may stay without a receipt before it is checked for having been dropped.
const RESEND_AFTER: Duration = Duration::from_secs(45);
/// How often a receipt is asked for while waiting.
const RECEIPT_POLL: Duration = Duration::from_millis(25);
/// How many times a send refused for its nonce is retried with a re-synced one.
const NONCE_RETRIES: usize = 4;

/// The relayer's next nonce; `None` until read from the node (and again after anything unexpected).
#[derive(Debug, Default)]
pub(crate) struct Nonces {
    next: Mutex<Option<u64>>,
}

/// Whether a node's refusal means the nonce was taken or is being replaced (re-sync and send again).
fn nonce_conflict(message: &str) -> bool {
    let message = message.to_ascii_lowercase();
    [
        "nonce too low",
        "replacement transaction underpriced",
        "already known",
        "nonce too high",
        "nonce has already been used",
    ]
    .iter()
    .any(|needle| message.contains(needle))
}

impl RpcChain {
    /// Sends `request` from the relayer and waits for it to be mined; the receipt, whatever its status.
    pub(super) async fn submit(&self, request: TransactionRequest) -> Result<TransactionReceipt, ChainError> {
        let from = self.writer()?;
        let started = Instant::now();
        let mut request = request.with_from(from);
        // A refusal here costs no nonce. A caller that knows its bound sets the limit itself and saves the
        // estimation (a binary search that executes the call a dozen times: most of a batch's chain time).
        if request.gas.is_none() {
            let gas = within(READ_DEADLINE, async {
                self.provider
                    .estimate_gas(request.clone())
                    .await
                    .map_err(rpc_error)
            })
            .await?;
            // Estimation runs against the latest block; a margin covers state moving before it is mined.
            request.set_gas_limit(gas.saturating_add(gas / 5));
        }
        let fees = within(READ_DEADLINE, async {
            self.provider.estimate_eip1559_fees().await.map_err(rpc_error)
        })
        .await?;
        request.set_max_fee_per_gas(fees.max_fee_per_gas);
        request.set_max_priority_fee_per_gas(fees.max_priority_fee_per_gas);
        let (hash, nonce) = self.send_next(from, &mut request).await?;
        self.await_mined(hash, nonce, request, started).await
    }

    /// Gives `request` the next nonce and sends it, holding the nonce lock until the node answered.
    async fn send_next(
        &self,
        from: Address,
        request: &mut TransactionRequest,
    ) -> Result<(B256, u64), ChainError> {
        let mut next = self.nonces.next.lock().await;
        let mut last = ChainError::Unavailable("no send attempted".to_owned());
        for _ in 0..NONCE_RETRIES {
            let nonce = match *next {
                Some(nonce) => nonce,
                None => {
                    within(READ_DEADLINE, async {
                        self.provider
                            .get_transaction_count(from)
                            .pending()
                            .await
                            .map_err(rpc_error)
                    })
                    .await?
                }
            };
            request.set_nonce(nonce);
            let sent = within(READ_DEADLINE, async {
                self.provider
                    .send_transaction(request.clone())
                    .await
                    .map_err(rpc_error)
            })
            .await;
            match sent {
                Ok(pending) => {
                    *next = Some(nonce.saturating_add(1));
                    return Ok((*pending.tx_hash(), nonce));
                }
                Err(ChainError::Reverted(message)) if nonce_conflict(&message) => {
                    *next = None;
                    last =
                        ChainError::Unavailable(format!("the relayer's nonce kept being taken: {message}"));
                }
                Err(error) => {
                    // Whether the node took the transaction is unknown: read the nonce again next time.
                    *next = None;
                    return Err(error);
                }
            }
        }
        Err(last)
    }

    /// Waits for `hash` (or its re-sent replacement) to be mined, re-sending once when the node dropped it.
    async fn await_mined(
        &self,
        hash: B256,
        nonce: u64,
        mut request: TransactionRequest,
        started: Instant,
    ) -> Result<TransactionReceipt, ChainError> {
        let mut hashes = vec![hash];
        let mut resent = false;
        let sent_at = Instant::now();
        loop {
            for hash in &hashes {
                let receipt = within(READ_DEADLINE, async {
                    self.provider
                        .get_transaction_receipt(*hash)
                        .await
                        .map_err(rpc_error)
                })
                .await;
                // A receipt without its block is not final yet; a failed read is asked again.
                if let Ok(Some(receipt)) = receipt
                    && receipt.block_number().is_some()
                {
                    return Ok(receipt);
                }
            }
            if started.elapsed() >= WRITE_DEADLINE {
                return Err(ChainError::Unavailable(format!(
                    "transaction {hash} not mined within {WRITE_DEADLINE:?}"
                )));
            }
            if !resent && sent_at.elapsed() >= RESEND_AFTER && self.dropped(hash).await {
                resent = true;
                request.set_nonce(nonce);
                bump(&mut request);
                if let Ok(Ok(pending)) =
                    tokio::time::timeout(READ_DEADLINE, self.provider.send_transaction(request.clone())).await
                {
                    hashes.push(*pending.tx_hash());
                }
                // A refusal ("nonce too low") means one of the known transactions was mined: keep waiting.
            }
            tokio::time::sleep(RECEIPT_POLL).await;
        }
    }

    /// Whether the relayer's `pending` nonce is ahead of its `latest` one: the node holds transactions of
    /// the relayer (this process's or another instance's) that are not mined yet.
    pub(super) async fn unmined_sends(&self) -> Result<bool, ChainError> {
        let Some(relayer) = self.relayer else {
            return Ok(false);
        };
        let count = |pending: bool| async move {
            let count = self.provider.get_transaction_count(relayer);
            let count = if pending { count.pending() } else { count.latest() };
            within(READ_DEADLINE, async { count.await.map_err(rpc_error) }).await
        };
        Ok(count(true).await? > count(false).await?)
    }

    /// Whether the node has forgotten `hash` (neither pending nor mined).
    async fn dropped(&self, hash: B256) -> bool {
        let known = within(READ_DEADLINE, async {
            self.provider
                .get_transaction_by_hash(hash)
                .await
                .map_err(rpc_error)
        })
        .await;
        matches!(known, Ok(None))
    }
}

/// Raises a transaction's fees by a quarter (a replacement must pay at least a tenth more).
fn bump(request: &mut TransactionRequest) {
    let raise = |fee: u128| fee.saturating_add(fee / 4).max(fee.saturating_add(1));
    if let Some(fee) = request.max_fee_per_gas {
        request.set_max_fee_per_gas(raise(fee));
    }
    if let Some(fee) = request.max_priority_fee_per_gas {
        request.set_max_priority_fee_per_gas(raise(fee));
    }
}

#[cfg(test)]
mod tests {
    use super::nonce_conflict;

    #[test]
    fn a_taken_or_replaced_nonce_is_told_from_other_refusals() {
        assert!(nonce_conflict("nonce too low: next nonce 7, tx nonce 6"));
        assert!(nonce_conflict("replacement transaction underpriced"));
        assert!(nonce_conflict("already known"));
        assert!(!nonce_conflict("execution reverted: ExceededAllowance"));
        assert!(!nonce_conflict("insufficient funds for gas * price + value"));
    }
}
