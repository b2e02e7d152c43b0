//! What the ledger export reads: every recorded money movement of a merchant in time order, a page at a
//! time (keyset on `(at, kind, row)`), so an export of any size streams without holding it in memory.
//!
//! Both backends select the same columns in the same order (`LEDGER_COLUMNS`) into a [`LedgerRow`] of plain
//! values; [`LedgerRow::into_record`] is the one decoder behind them.

use payments_core::{Cents, TokenAmount, Wallet};

/// The page size the export reads with.
pub const LEDGER_PAGE_ROWS: u32 = 1_000;

/// Which recorded movements of which merchant, from where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerQuery {
    pub merchant: Wallet,
    /// Only transfers of the payment token on this chain count as payments.
    pub chain_id: u64,
    pub token: Wallet,
    /// Milliseconds since the epoch, inclusive.
    pub from_ms: i64,
    /// Milliseconds since the epoch, exclusive.
    pub to_ms: i64,
    /// Continue after this record (`None`: from the start).
    pub after: Option<LedgerCursor>,
    pub limit: u32,
}

/// A record's place in the export's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LedgerCursor {
    pub at_ms: i64,
    /// The source: transfers, settlements, refunds, charges (within one ms a settlement precedes the refund
    /// that follows it).
    pub kind: i64,
    pub row_id: i64,
}

/// One recorded movement, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LedgerSource {
    /// A confirmed transfer of the payment token to a receipt's deposit address.
    Deposit {
        receipt_id: String,
        from: Wallet,
        total: Cents,
        /// What earlier transfers (chain order) to the same deposit brought.
        received_before: TokenAmount,
        amount: TokenAmount,
        transaction_hash: String,
        block_number: u64,
    },
    /// A recorded refund.
    Refund {
        receipt_id: String,
        buyer: Wallet,
        amount: Cents,
        transaction_hash: String,
    },
    /// A receipt's split ran (it became `completed`): the deposit's balance then was paid out.
    Settlement {
        receipt_id: String,
        split: Wallet,
        forwarded: TokenAmount,
    },
    /// A successful subscription charge.
    Charge {
        subscription_id: String,
        customer: Wallet,
        net: TokenAmount,
        fee: TokenAmount,
        transaction_hash: Option<String>,
    },
}

/// A record and its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerRecord {
    pub cursor: LedgerCursor,
    pub source: LedgerSource,
}

pub(crate) const KIND_DEPOSIT: i64 = 0;
pub(crate) const KIND_SETTLEMENT: i64 = 1;
pub(crate) const KIND_REFUND: i64 = 2;
pub(crate) const KIND_CHARGE: i64 = 3;

/// The columns of one ledger row as both backends select them (amounts as decimal text: token amounts
/// may pass `i64` in a sum).
#[derive(Debug, Clone, Default)]
pub(crate) struct LedgerRow {
    pub(crate) at_ms: i64,
    pub(crate) kind: i64,
    pub(crate) row_id: i64,
    pub(crate) reference: String,
    pub(crate) party: Option<String>,
    pub(crate) transaction_hash: Option<String>,
    pub(crate) block_number: Option<i64>,
    pub(crate) amount: Option<String>,
    pub(crate) total_cents: Option<i64>,
    pub(crate) before_units: Option<String>,
    pub(crate) fee_units: Option<i64>,
    pub(crate) split: Option<String>,
}

impl LedgerRow {
    /// The record this row stores; a value that does not parse is named in the error.
    pub(crate) fn into_record(self) -> Result<LedgerRecord, String> {
        let cursor = LedgerCursor {
            at_ms: self.at_ms,
            kind: self.kind,
            row_id: self.row_id,
        };
        let units = |name: &str, text: Option<&str>| -> Result<TokenAmount, String> {
            TokenAmount::parse_base_units(text.unwrap_or("0"))
                .map_err(|error| format!("ledger {name} of row {}: {error}", self.row_id))
        };
        let wallet = |name: &str, text: Option<&str>| -> Result<Wallet, String> {
            text.unwrap_or_default()
                .parse()
                .map_err(|error| format!("ledger {name} of row {}: {error}", self.row_id))
        };
        let source = match self.kind {
            KIND_DEPOSIT => LedgerSource::Deposit {
                receipt_id: self.reference.clone(),
                from: wallet("sender", self.party.as_deref())?,
                total: Cents::new(self.total_cents.unwrap_or_default()),
                received_before: units("earlier transfers", self.before_units.as_deref())?,
                amount: units("amount", self.amount.as_deref())?,
                transaction_hash: self.transaction_hash.clone().unwrap_or_default(),
                block_number: u64::try_from(self.block_number.unwrap_or_default()).unwrap_or_default(),
            },
            KIND_REFUND => LedgerSource::Refund {
                receipt_id: self.reference.clone(),
                buyer: wallet("buyer", self.party.as_deref())?,
                amount: Cents::new(
                    self.amount
                        .as_deref()
                        .unwrap_or("0")
                        .parse()
                        .map_err(|error| format!("ledger refund of row {}: {error}", self.row_id))?,
                ),
                transaction_hash: self.transaction_hash.clone().unwrap_or_default(),
            },
            KIND_SETTLEMENT => LedgerSource::Settlement {
                receipt_id: self.reference.clone(),
                split: wallet("split", self.split.as_deref())?,
                forwarded: units("forwarded", self.amount.as_deref())?,
            },
            KIND_CHARGE => LedgerSource::Charge {
                subscription_id: self.reference.clone(),
                customer: wallet("customer", self.party.as_deref())?,
                net: units("net", self.amount.as_deref())?,
                fee: TokenAmount::from_base_units(
                    u128::try_from(self.fee_units.unwrap_or_default()).unwrap_or_default(),
                ),
                transaction_hash: self.transaction_hash.clone(),
            },
            other => return Err(format!("ledger row {} has unknown kind {other}", self.row_id)),
        };
        Ok(LedgerRecord { cursor, source })
    }
}

/// The cursor to bind when starting from the beginning: before every record.
pub(crate) fn after_or_start(after: Option<LedgerCursor>) -> LedgerCursor {
    after.unwrap_or(LedgerCursor {
        at_ms: i64::MIN,
        kind: i64::MIN,
        row_id: i64::MIN,
    })
}
