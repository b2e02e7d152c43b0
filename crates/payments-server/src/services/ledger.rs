//! The ledger export's use case: a merchant's recorded money movements, a page at a time, as balanced
//! entries (`payments_core::ledger`). Each page is one read; the edge streams pages as they come.

use std::collections::HashMap;
use std::sync::Arc;

use payments_core::{
    LedgerAccount, LedgerLeg, LedgerMovement, Split, TokenAmount, Wallet, charge_legs, deposit_legs,
    refund_leg, settlement_legs,
};

use crate::domain::chain::PaymentChain;
use crate::services::billing::BillingError;
use crate::store::{
    BillingRepository, LEDGER_PAGE_ROWS, LedgerCursor, LedgerQuery, LedgerRecord, LedgerSource,
    ShopRepository,
};

/// One exported entry: a leg and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LedgerEntry {
    /// Stable across exports: the source record and the leg's place in it.
    pub(crate) id: String,
    pub(crate) at_ms: i64,
    pub(crate) receipt_id: Option<String>,
    pub(crate) subscription_id: Option<String>,
    pub(crate) transaction_hash: Option<String>,
    pub(crate) block_number: Option<u64>,
    pub(crate) leg: LedgerLeg,
}

/// A page of entries and where the next one starts (`None`: the export is complete).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LedgerPage {
    pub(crate) entries: Vec<LedgerEntry>,
    pub(crate) next: Option<LedgerCursor>,
}

/// The merchant's splits (current and replaced) by contract address: a settlement names its split by
/// address, and a replaced split still paid out the receipts created while it was current.
#[derive(Debug, Clone, Default)]
pub(crate) struct SplitDirectory(HashMap<Wallet, Split>);

/// What the export reads with.
#[derive(Debug, Clone)]
pub(crate) struct LedgerService {
    pub(crate) billing: Arc<dyn BillingRepository>,
    pub(crate) shops: Arc<dyn ShopRepository>,
    /// The platform's wallet (`--platform-recipient`): its split shares and charge fees are platform fees.
    pub(crate) platform_recipient: Option<Wallet>,
}

impl LedgerService {
    /// The splits a merchant's settlements may name, read once per export.
    pub(crate) async fn splits(&self, merchant: Wallet) -> Result<SplitDirectory, BillingError> {
        let mut splits: HashMap<Wallet, Split> = self
            .shops
            .list_split_history(merchant)
            .await?
            .into_iter()
            .map(|archived| (archived.split.address, archived.split.split))
            .collect();
        if let Some(current) = self.shops.fetch_split(merchant).await? {
            splits.insert(current.address, current.split);
        }
        Ok(SplitDirectory(splits))
    }

    /// The entries recorded in `[from_ms, to_ms)` after `after`.
    pub(crate) async fn page(
        &self,
        merchant: Wallet,
        chain: PaymentChain,
        (from_ms, to_ms): (i64, i64),
        after: Option<LedgerCursor>,
        splits: &SplitDirectory,
    ) -> Result<LedgerPage, BillingError> {
        let records = self
            .billing
            .ledger_page(LedgerQuery {
                merchant,
                chain_id: chain.chain_id,
                token: chain.token,
                from_ms,
                to_ms,
                after,
                limit: LEDGER_PAGE_ROWS,
            })
            .await?;
        let full = records.len() >= LEDGER_PAGE_ROWS as usize;
        let next = records.last().map(|record| record.cursor).filter(|_| full);
        let entries = records
            .into_iter()
            .flat_map(|record| self.entries_of(merchant, record, splits))
            .collect();
        Ok(LedgerPage { entries, next })
    }

    fn entries_of(
        &self,
        merchant: Wallet,
        record: LedgerRecord,
        splits: &SplitDirectory,
    ) -> Vec<LedgerEntry> {
        let LedgerRecord { cursor, source } = record;
        let source_name = match &source {
            LedgerSource::Deposit { .. } => "transfer",
            LedgerSource::Refund { .. } => "refund",
            LedgerSource::Settlement { .. } => "settlement",
            LedgerSource::Charge { .. } => "charge",
        };
        let (legs, receipt_id, subscription_id, transaction_hash, block_number) = match source {
            LedgerSource::Deposit {
                receipt_id,
                from,
                total,
                received_before,
                amount,
                transaction_hash,
                block_number,
            } => {
                let total = total.to_token_amount().unwrap_or(TokenAmount::from_base_units(0));
                let legs = deposit_legs(&receipt_id, from, total, received_before, amount);
                (
                    legs,
                    Some(receipt_id),
                    None,
                    Some(transaction_hash),
                    Some(block_number),
                )
            }
            LedgerSource::Refund {
                receipt_id,
                buyer,
                amount,
                transaction_hash,
                block_number,
            } => {
                let amount = amount
                    .to_token_amount()
                    .unwrap_or(TokenAmount::from_base_units(0));
                let legs = vec![refund_leg(merchant, buyer, amount)];
                (legs, Some(receipt_id), None, Some(transaction_hash), block_number)
            }
            LedgerSource::Settlement {
                receipt_id,
                split,
                forwarded,
            } => {
                let legs = match splits.0.get(&split) {
                    Some(recipients) => {
                        settlement_legs(&receipt_id, recipients, self.platform_recipient, forwarded)
                    }
                    // The recipients of a split this database no longer knows: the payout is booked to the split
                    // contract itself, never guessed.
                    None => vec![LedgerLeg {
                        movement: LedgerMovement::SplitShare,
                        debit: LedgerAccount::Recipient(split),
                        credit: LedgerAccount::Deposit(receipt_id.clone()),
                        amount: forwarded,
                    }],
                };
                let legs = legs
                    .into_iter()
                    .filter(|leg| leg.amount.base_units() > 0)
                    .collect();
                (legs, Some(receipt_id), None, None, None)
            }
            LedgerSource::Charge {
                subscription_id,
                customer,
                net,
                fee,
                transaction_hash,
            } => {
                let legs = charge_legs(customer, merchant, self.platform_recipient, net, fee);
                (legs, None, Some(subscription_id), transaction_hash, None)
            }
        };
        legs.into_iter()
            .enumerate()
            .map(|(place, leg)| LedgerEntry {
                id: format!("{source_name}-{}-{place}", cursor.row_id),
                at_ms: cursor.at_ms,
                receipt_id: receipt_id.clone(),
                subscription_id: subscription_id.clone(),
                transaction_hash: transaction_hash.clone(),
                block_number,
                leg,
            })
            .collect()
    }
}
