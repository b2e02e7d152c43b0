//! What reconciliation reads from the database: every receipt's deposit with the transfers recorded into it,
//! every refund and every subscription charge of a time window, a keyset page at a time (by row id), so a
//! window of any size is compared without holding it in memory.
//!
//! Both backends select the same columns into plain rows; [`assemble_deposits`] and the `into_record`
//! decoders are the one place they become records.

use std::collections::HashMap;
use std::fmt;

use async_trait::async_trait;
use payments_core::{Cents, LoggedTransfer, TokenAmount, Wallet};

use crate::StoreError;

/// Records per page.
pub const RECONCILE_PAGE_ROWS: u32 = 500;

/// Which records: those created in `[from_ms, to_ms)`, payments in the configured token on `chain_id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReconcileWindow {
    pub chain_id: u64,
    pub token: Wallet,
    pub from_ms: i64,
    pub to_ms: i64,
}

/// A receipt with a deposit address, as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DepositRecord {
    /// The keyset position (the receipt's row id).
    pub row_id: i64,
    pub receipt_id: String,
    pub deposit: Wallet,
    /// The split the deposit forwards to.
    pub split: Option<Wallet>,
    /// Whether the receipt ever became `completed` (its deposit was forwarded to the split).
    pub completed: bool,
    /// What the receipt records as received (`received_units`).
    pub received: TokenAmount,
    /// Every recorded transfer of the token into the deposit.
    pub transfers: Vec<LoggedTransfer>,
}

/// A recorded refund and the transaction it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundRecord {
    pub row_id: i64,
    pub receipt_id: String,
    pub buyer: Wallet,
    pub amount: Cents,
    pub transaction_hash: String,
}

/// A recorded successful subscription charge and its transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeRecord {
    pub row_id: i64,
    pub subscription_id: String,
    pub customer: Wallet,
    pub period_index: i64,
    /// What left the customer: the merchant's net plus the platform's fee.
    pub gross: TokenAmount,
    pub transaction_hash: String,
}

/// Read-only pages for reconciliation; `after` is the last row id of the previous page (0 at the start).
#[async_trait]
pub trait ReconcileRepository: Send + Sync + fmt::Debug {
    async fn deposits_page(
        &self,
        window: &ReconcileWindow,
        after: i64,
        limit: u32,
    ) -> Result<Vec<DepositRecord>, StoreError>;

    async fn refunds_page(
        &self,
        window: &ReconcileWindow,
        after: i64,
        limit: u32,
    ) -> Result<Vec<RefundRecord>, StoreError>;

    async fn charges_page(
        &self,
        window: &ReconcileWindow,
        after: i64,
        limit: u32,
    ) -> Result<Vec<ChargeRecord>, StoreError>;
}

/// A receipt row as both backends select it.
#[derive(Debug, Clone, Default)]
pub(crate) struct DepositRow {
    pub(crate) row_id: i64,
    pub(crate) receipt_id: String,
    pub(crate) deposit: String,
    pub(crate) split: Option<String>,
    pub(crate) completed: bool,
    pub(crate) received: String,
}

/// A transfer row: the deposit it went to, its log and amount.
#[derive(Debug, Clone, Default)]
pub(crate) struct TransferRow {
    pub(crate) deposit: String,
    pub(crate) transaction_hash: String,
    pub(crate) log_index: i64,
    pub(crate) amount: String,
}

/// The page's records, each with its deposit's transfers; a value that does not parse is named in the error.
pub(crate) fn assemble_deposits(
    rows: Vec<DepositRow>,
    transfers: Vec<TransferRow>,
) -> Result<Vec<DepositRecord>, String> {
    let mut by_deposit: HashMap<String, Vec<LoggedTransfer>> = HashMap::new();
    for transfer in transfers {
        let seen = LoggedTransfer {
            transaction_hash: transfer.transaction_hash.to_ascii_lowercase(),
            log_index: u64::try_from(transfer.log_index)
                .map_err(|error| format!("log index of {}: {error}", transfer.transaction_hash))?,
            amount: TokenAmount::parse_base_units(&transfer.amount)
                .map_err(|error| format!("amount of {}: {error}", transfer.transaction_hash))?,
        };
        by_deposit
            .entry(transfer.deposit.to_ascii_lowercase())
            .or_default()
            .push(seen);
    }
    rows.into_iter()
        .map(|row| {
            let named = |what: &str, error: &dyn fmt::Display| {
                format!("{what} of receipt {}: {error}", row.receipt_id)
            };
            Ok(DepositRecord {
                row_id: row.row_id,
                deposit: row.deposit.parse().map_err(|error| named("deposit", &error))?,
                split: row
                    .split
                    .as_deref()
                    .map(str::parse)
                    .transpose()
                    .map_err(|error| named("split", &error))?,
                completed: row.completed,
                received: TokenAmount::parse_base_units(&row.received)
                    .map_err(|error| named("received_units", &error))?,
                transfers: by_deposit
                    .remove(&row.deposit.to_ascii_lowercase())
                    .unwrap_or_default(),
                receipt_id: row.receipt_id,
            })
        })
        .collect()
}

/// A refund row as both backends select it.
#[derive(Debug, Clone, Default)]
pub(crate) struct RefundRow {
    pub(crate) row_id: i64,
    pub(crate) receipt_id: String,
    pub(crate) buyer: String,
    pub(crate) amount_cents: i64,
    pub(crate) transaction_hash: String,
}

impl RefundRow {
    pub(crate) fn into_record(self) -> Result<RefundRecord, String> {
        Ok(RefundRecord {
            row_id: self.row_id,
            buyer: self
                .buyer
                .parse()
                .map_err(|error| format!("buyer of refund {}: {error}", self.row_id))?,
            amount: Cents::new(self.amount_cents),
            transaction_hash: self.transaction_hash,
            receipt_id: self.receipt_id,
        })
    }
}

/// A charge row as both backends select it.
#[derive(Debug, Clone, Default)]
pub(crate) struct ChargeRow {
    pub(crate) row_id: i64,
    pub(crate) subscription_id: String,
    pub(crate) customer: String,
    pub(crate) period_index: i64,
    pub(crate) net_units: i64,
    pub(crate) fee_units: i64,
    pub(crate) transaction_hash: String,
}

impl ChargeRow {
    pub(crate) fn into_record(self) -> Result<ChargeRecord, String> {
        let units = |value: i64| {
            u128::try_from(value).map_err(|error| format!("amount of charge {}: {error}", self.row_id))
        };
        let gross = units(self.net_units)?
            .checked_add(units(self.fee_units)?)
            .ok_or_else(|| format!("amount of charge {} overflows", self.row_id))?;
        Ok(ChargeRecord {
            row_id: self.row_id,
            customer: self
                .customer
                .parse()
                .map_err(|error| format!("customer of charge {}: {error}", self.row_id))?,
            period_index: self.period_index,
            gross: TokenAmount::from_base_units(gross),
            transaction_hash: self.transaction_hash,
            subscription_id: self.subscription_id,
        })
    }
}
