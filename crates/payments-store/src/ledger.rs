//! What the ledger export reads: every recorded money movement of a merchant in time order, a page at a
//! time (keyset on `(at, kind, row)`), so an export of any size streams without holding it in memory.
//!
//! Both backends select the same columns in the same order (`LEDGER_COLUMNS`) into a [`LedgerRow`] of plain
//! values; [`LedgerRow::into_record`] is the one decoder behind them.

use std::collections::HashMap;

use payments_core::{Cents, TokenAmount, Wallet};

/// The page size the export reads with.
/// Each page reads the merchant's movements up to its bounds once, so fewer, larger pages cost less; 5,000
/// entries are about 2 MB in memory.
pub const LEDGER_PAGE_ROWS: u32 = 5_000;

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
        /// The block of its verified transaction (`None` for refunds recorded before they were verified).
        block_number: Option<u64>,
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
    /// A transfer's log index and deposit address (the window of what arrived before it).
    pub(crate) log_index: Option<i64>,
    pub(crate) deposit: Option<String>,
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
                block_number: self.block_number.and_then(|block| u64::try_from(block).ok()),
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

/// The chain-order stretch of one deposit's transfers that a page's transfer rows fall in: what arrived
/// before each of them is the sum before `from` plus the transfers from `from` up to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DepositSpan {
    pub(crate) deposit: String,
    /// `(block, log index)` of the page's first transfer to it in chain order, and of its last.
    pub(crate) from: (i64, i64),
    pub(crate) to: (i64, i64),
}

/// What the backend read for a [`DepositSpan`]: the sum of the deposit's transfers before `from`, and every
/// transfer in `[from, to]` in chain order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SpanTransfers {
    pub(crate) before: u128,
    pub(crate) transfers: Vec<((i64, i64), u128)>,
}

/// The spans of `rows`' transfers, one per deposit. Each page asks only for these (bounded by the page),
/// never for the merchant's whole history: the export's memory stays that of a page.
pub(crate) fn deposit_spans(rows: &[LedgerRow]) -> Vec<DepositSpan> {
    let mut spans: HashMap<&str, DepositSpan> = HashMap::new();
    for row in rows.iter().filter(|row| row.kind == KIND_DEPOSIT) {
        let (Some(deposit), Some(at)) = (row.deposit.as_deref(), row.chain_place()) else {
            continue;
        };
        spans
            .entry(deposit)
            .and_modify(|span| {
                span.from = span.from.min(at);
                span.to = span.to.max(at);
            })
            .or_insert_with(|| DepositSpan {
                deposit: deposit.to_owned(),
                from: at,
                to: at,
            });
    }
    spans.into_values().collect()
}

/// A deposit's transfers of a span in chain order, and the sums before each (`sums[i]` = before the `i`th).
type RunningSums = (Vec<(i64, i64)>, Vec<u128>);

/// Sets each transfer row's `before_units` from its deposit's span (running sums, so a page costs its size).
pub(crate) fn fill_received_before(rows: &mut [LedgerRow], spans: Vec<(DepositSpan, SpanTransfers)>) {
    let running: HashMap<String, RunningSums> = spans
        .into_iter()
        .map(|(span, mut read)| {
            read.transfers.sort_unstable();
            let mut sums = Vec::with_capacity(read.transfers.len() + 1);
            let mut sum = read.before;
            sums.push(sum);
            for (_, amount) in &read.transfers {
                sum = sum.saturating_add(*amount);
                sums.push(sum);
            }
            let places = read.transfers.into_iter().map(|(place, _)| place).collect();
            (span.deposit, (places, sums))
        })
        .collect();
    for row in rows.iter_mut().filter(|row| row.kind == KIND_DEPOSIT) {
        let (Some(deposit), Some(at)) = (row.deposit.as_deref(), row.chain_place()) else {
            continue;
        };
        let Some((places, sums)) = running.get(deposit) else {
            continue;
        };
        let earlier = places.partition_point(|place| *place < at);
        row.before_units = sums.get(earlier).map(u128::to_string);
    }
}

impl LedgerRow {
    fn chain_place(&self) -> Option<(i64, i64)> {
        Some((self.block_number?, self.log_index?))
    }
}

/// Each source's own bound for the cursor, as `(time, row)` after which its rows come: `(at, kind, row) >
/// (A, K, R)` is `(at, row) > (A, R)` for kind `K`, every row at `A` for a later kind, none for an earlier one.
/// A two-column bound lets each source walk its `(time, id)` index.
pub(crate) fn source_bounds(after: LedgerCursor) -> [i64; 4] {
    [KIND_DEPOSIT, KIND_SETTLEMENT, KIND_REFUND, KIND_CHARGE].map(|kind| match kind.cmp(&after.kind) {
        std::cmp::Ordering::Equal => after.row_id,
        std::cmp::Ordering::Greater => i64::MIN,
        std::cmp::Ordering::Less => i64::MAX,
    })
}

/// The cursor to bind when starting from the beginning: before every record.
pub(crate) fn after_or_start(after: Option<LedgerCursor>) -> LedgerCursor {
    after.unwrap_or(LedgerCursor {
        at_ms: i64::MIN,
        kind: i64::MIN,
        row_id: i64::MIN,
    })
}
