//! From a split's `Transfer` logs to `SplitTransaction` records: pure, so the rule is tested without a chain.
//!
//! Per transaction, the logs into the split make one inflow record (`received`) and the logs out of it one
//! payout record (`distributed`: a `distribute` call, or a recipient's own `release`). `fees` is the
//! platform recipient's part: for a payout what it was actually paid in that transaction, for an inflow its
//! share of the amount by the split's own allocation rule (`Split::allocate`, as `Split.sol` will pay it).

use alloy_primitives::B256;
use payments_core::{Split, TokenAmount, Wallet};

use crate::chain::TokenTransfer;
use crate::domain::split_transactions::LogPosition;

/// What a record is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SplitFlow {
    /// Tokens arrived at the split (a forwarded deposit, or anyone's direct transfer).
    Received,
    /// The split paid recipients.
    Distributed,
}

impl SplitFlow {
    /// The record's `status` on the wire.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            SplitFlow::Received => "received",
            SplitFlow::Distributed => "distributed",
        }
    }
}

/// One record, before its block time and receipt are looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FlowRecord {
    pub(crate) flow: SplitFlow,
    /// The transaction's place (its first log touching the split): the page cursor never cuts inside it.
    pub(crate) position: LogPosition,
    /// The record's own first log (with the hash, its unique id).
    pub(crate) first_log: u64,
    pub(crate) transaction_hash: B256,
    pub(crate) amount: TokenAmount,
    pub(crate) fees: TokenAmount,
    /// Who sent the first inflow: a receipt's deposit address when this is a forwarded deposit.
    pub(crate) sender: Option<Wallet>,
}

/// Whose records: the split's all, or one recipient's payouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum View {
    /// Every inflow and payout, amounts whole.
    Split,
    /// Only payouts that paid this recipient, `amount` being its part (`fees` stays the platform's part).
    Recipient(Wallet),
}

/// Records of `transfers` (one token, chain order) moving tokens into or out of `split`, in chain order.
pub(crate) fn flow_records(
    transfers: &[TokenTransfer],
    split: Wallet,
    recipients: &Split,
    platform: Option<Wallet>,
    view: View,
) -> Vec<FlowRecord> {
    let mut records = Vec::new();
    for transaction in transfers
        .chunk_by(|a, b| a.transaction_hash == b.transaction_hash && a.block.number == b.block.number)
    {
        let Some(first) = transaction.first() else {
            continue;
        };
        let position = LogPosition {
            block: first.block.number,
            log_index: first.log_index,
        };
        let inflows: Vec<&TokenTransfer> = transaction
            .iter()
            .filter(|t| t.to == split && t.from != split)
            .collect();
        let payouts: Vec<&TokenTransfer> = transaction
            .iter()
            .filter(|t| t.from == split && t.to != split)
            .collect();
        if let (View::Split, Some(head)) = (view, inflows.first()) {
            let amount = total(&inflows, |_| true);
            let fees = platform
                .and_then(|platform| {
                    recipients
                        .allocate(amount)
                        .into_iter()
                        .find(|(recipient, _)| *recipient == platform)
                })
                .map_or(0, |(_, part)| part);
            records.push(record(
                SplitFlow::Received,
                position,
                head,
                amount,
                fees,
                Some(head.from),
            ));
        }
        if let Some(head) = payouts.first() {
            let fees = platform.map_or(0, |platform| total(&payouts, |t| t.to == platform));
            let amount = match view {
                View::Split => total(&payouts, |_| true),
                View::Recipient(recipient) => total(&payouts, |t| t.to == recipient),
            };
            if view == View::Split || amount > 0 {
                records.push(record(SplitFlow::Distributed, position, head, amount, fees, None));
            }
        }
    }
    records
}

fn record(
    flow: SplitFlow,
    position: LogPosition,
    head: &TokenTransfer,
    amount: u128,
    fees: u128,
    sender: Option<Wallet>,
) -> FlowRecord {
    FlowRecord {
        flow,
        position,
        first_log: head.log_index,
        transaction_hash: head.transaction_hash,
        amount: TokenAmount::from_base_units(amount),
        fees: TokenAmount::from_base_units(fees),
        sender,
    }
}

/// The sum of the matching transfers' amounts (a value past 128 bits, only a fake token's, counts as 0).
fn total(transfers: &[&TokenTransfer], keep: impl Fn(&TokenTransfer) -> bool) -> u128 {
    transfers
        .iter()
        .filter(|t| keep(t))
        .map(|t| t.amount.map_or(0, TokenAmount::base_units))
        .fold(0, u128::saturating_add)
}

#[cfg(test)]
#[path = "records_tests.rs"]
mod tests;
