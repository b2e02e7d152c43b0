//! Reconciliation rules: what the database records beside what the chain shows, as a list of differences.
//!
//! The server reads both sides (rows from the store, logs and transactions from the node); these functions
//! decide what counts as a difference and how it is named, so the command, the admin route and the tests agree
//! on one definition. Every amount is compared in token base units, exactly.

use std::collections::BTreeMap;

use crate::money::TokenAmount;

/// What a side shows where the other has something: nothing at all.
pub const ABSENT: &str = "absent";

/// One difference between the database and the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The receipt or subscription it concerns (`receipt:<id>`, `subscription:<id>`).
    pub subject: String,
    /// What differs, e.g. `amountReceivedBaseUnits` or `transfer 0xab…:3`.
    pub field: String,
    pub database: String,
    pub chain: String,
}

/// One transfer of the payment token into a deposit, as one side records it (a log's identity and amount).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedTransfer {
    /// Lowercase `0x` hex.
    pub transaction_hash: String,
    pub log_index: u64,
    pub amount: TokenAmount,
}

/// The transfers into one receipt's deposit: every log on one side must be on the other with the same amount,
/// and the receipt's received total must be the chain's sum.
pub fn deposit_differences(
    subject: &str,
    database: &[LoggedTransfer],
    chain: &[LoggedTransfer],
    recorded_received: TokenAmount,
) -> Vec<Difference> {
    let by_log = |transfers: &[LoggedTransfer]| -> BTreeMap<(String, u64), TokenAmount> {
        transfers
            .iter()
            .map(|seen| {
                (
                    (seen.transaction_hash.to_ascii_lowercase(), seen.log_index),
                    seen.amount,
                )
            })
            .collect()
    };
    let (recorded, mined) = (by_log(database), by_log(chain));
    let mut differences = Vec::new();
    let mut logs: Vec<&(String, u64)> = recorded.keys().chain(mined.keys()).collect();
    logs.sort();
    logs.dedup();
    for log in logs {
        let (database, chain) = (recorded.get(log), mined.get(log));
        if database != chain {
            differences.push(Difference {
                subject: subject.to_owned(),
                field: format!("transfer {}:{}", log.0, log.1),
                database: shown(database),
                chain: shown(chain),
            });
        }
    }
    let chain_sum = chain
        .iter()
        .fold(0_u128, |sum, seen| sum.saturating_add(seen.amount.base_units()));
    if recorded_received.base_units() != chain_sum {
        differences.push(Difference {
            subject: subject.to_owned(),
            field: "amountReceivedBaseUnits".to_owned(),
            database: recorded_received.base_units().to_string(),
            chain: chain_sum.to_string(),
        });
    }
    differences
}

/// Whether the deposit was forwarded to the split: the database's `completed` must match a transfer out of the
/// deposit to the split on chain, and a deposit the database has not settled must not have been forwarded.
pub fn settlement_differences(
    subject: &str,
    recorded_completed: bool,
    forwarded: TokenAmount,
) -> Vec<Difference> {
    let forwarded_on_chain = forwarded.base_units() > 0;
    if recorded_completed == forwarded_on_chain {
        return Vec::new();
    }
    vec![Difference {
        subject: subject.to_owned(),
        field: "settlement".to_owned(),
        database: if recorded_completed {
            "completed"
        } else {
            "not settled"
        }
        .to_owned(),
        chain: if forwarded_on_chain {
            format!("forwarded {}", forwarded.base_units())
        } else {
            "nothing forwarded".to_owned()
        },
    }]
}

/// How a recorded transaction looks on chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MinedMovement {
    /// The node does not know it as mined.
    Missing,
    /// Mined but reverted: it moved nothing.
    Reverted,
    /// Mined and succeeded, moving this much of the token between the parties the check names.
    Moved(TokenAmount),
}

/// How much a recorded movement must have moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Expected {
    /// A refund: at least the refunded amount reached the buyer (more is the merchant's generosity).
    AtLeast(TokenAmount),
    /// A subscription charge: exactly the period's price left the customer.
    Exactly(TokenAmount),
}

/// A movement the database records with its transaction (a refund, a subscription charge) beside the chain.
pub fn movement_differences(
    subject: &str,
    field: &str,
    transaction_hash: &str,
    expected: Expected,
    mined: MinedMovement,
) -> Vec<Difference> {
    let (bound, holds): (TokenAmount, fn(u128, u128) -> bool) = match expected {
        Expected::AtLeast(amount) => (amount, |moved, bound| moved >= bound),
        Expected::Exactly(amount) => (amount, |moved, bound| moved == bound),
    };
    let chain = match mined {
        MinedMovement::Moved(moved) if holds(moved.base_units(), bound.base_units()) => return Vec::new(),
        MinedMovement::Moved(moved) => format!("{} moved by {transaction_hash}", moved.base_units()),
        MinedMovement::Reverted => format!("{transaction_hash} reverted"),
        MinedMovement::Missing => format!("{transaction_hash} {ABSENT}"),
    };
    vec![Difference {
        subject: subject.to_owned(),
        field: field.to_owned(),
        database: format!("{} by {transaction_hash}", bound.base_units()),
        chain,
    }]
}

fn shown(amount: Option<&TokenAmount>) -> String {
    amount.map_or_else(|| ABSENT.to_owned(), |amount| amount.base_units().to_string())
}

#[cfg(test)]
#[path = "reconcile_tests.rs"]
mod tests;
