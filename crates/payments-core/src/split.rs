//! Revenue splits: recipients with shares in basis points, and exact allocation of an amount.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::wallet::Wallet;

/// Basis points in a whole: 10000 = 100%.
pub const BPS_TOTAL: u32 = 10_000;
/// The most recipients a split may have: the `Split` contract's `MAX_RECIPIENTS` (bounds the gas of one
/// `distribute`).
pub const MAX_SPLIT_RECIPIENTS: usize = 32;

/// One recipient of a split and its share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SplitRecipient {
    /// Who receives.
    pub address: Wallet,
    /// Share in basis points (1..=10000).
    pub shares_bps: u32,
}

/// A validated split: unique recipients whose shares sum to exactly 10000 bps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Split {
    recipients: Vec<SplitRecipient>,
}

/// Why a split was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SplitError {
    /// No recipients.
    #[error("a split needs at least one recipient")]
    Empty,
    /// More than [`MAX_SPLIT_RECIPIENTS`].
    #[error("a split has at most {max} recipients, got {count}")]
    TooManyRecipients {
        /// Recipients received.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A zero share.
    #[error("recipient {address} has a share of 0 bps; every share must be positive")]
    ZeroShare {
        /// The recipient.
        address: Wallet,
    },
    /// The same address twice (in any letter case).
    #[error("recipient {address} appears more than once")]
    DuplicateRecipient {
        /// The repeated address.
        address: Wallet,
    },
    /// Shares not summing to 10000.
    #[error("shares must sum to exactly 10000 bps, got {sum}")]
    SharesDoNotSumToWhole {
        /// The actual sum.
        sum: u64,
    },
}

impl Split {
    /// Validates recipients: 1..=[`MAX_SPLIT_RECIPIENTS`], unique addresses, every share positive,
    /// shares summing to exactly [`BPS_TOTAL`].
    ///
    /// # Errors
    /// One [`SplitError`] variant per rule.
    pub fn new(recipients: Vec<SplitRecipient>) -> Result<Split, SplitError> {
        if recipients.is_empty() {
            return Err(SplitError::Empty);
        }
        if recipients.len() > MAX_SPLIT_RECIPIENTS {
            return Err(SplitError::TooManyRecipients {
                count: recipients.len(),
                max: MAX_SPLIT_RECIPIENTS,
            });
        }
        for (index, recipient) in recipients.iter().enumerate() {
            if recipient.shares_bps == 0 {
                return Err(SplitError::ZeroShare {
                    address: recipient.address,
                });
            }
            if recipients[..index]
                .iter()
                .any(|earlier| earlier.address == recipient.address)
            {
                return Err(SplitError::DuplicateRecipient {
                    address: recipient.address,
                });
            }
        }
        let sum: u64 = recipients.iter().map(|r| u64::from(r.shares_bps)).sum();
        if sum != u64::from(BPS_TOTAL) {
            return Err(SplitError::SharesDoNotSumToWhole { sum });
        }
        Ok(Split { recipients })
    }

    /// The recipients in the order given.
    pub fn recipients(&self) -> &[SplitRecipient] {
        &self.recipients
    }

    /// The share of one address, if it is a recipient.
    pub fn share_of(&self, address: Wallet) -> Option<u32> {
        self.recipients
            .iter()
            .find(|r| r.address == address)
            .map(|r| r.shares_bps)
    }

    /// Divides `amount` (in any indivisible unit: cents or token base units) among the recipients so
    /// the parts sum to `amount` exactly, by the rule of the on-chain `Split` contract
    /// (`contracts/src/Split.sol`, docs/contracts.md), so what the server shows is what the chain pays.
    ///
    /// Every recipient after the first gets `floor(amount * bps / 10000)`; the first gets the rest, so
    /// the rounding remainder (less than one unit per other recipient) always goes to the first listed.
    ///
    /// ```
    /// use payments_core::{Split, SplitRecipient, Wallet};
    /// let a: Wallet = "0x0000000000000000000000000000000000000001".parse().unwrap();
    /// let b: Wallet = "0x0000000000000000000000000000000000000002".parse().unwrap();
    /// let split = Split::new(vec![
    ///     SplitRecipient { address: a, shares_bps: 5000 },
    ///     SplitRecipient { address: b, shares_bps: 5000 },
    /// ]).unwrap();
    /// assert_eq!(split.allocate(3), vec![(a, 2), (b, 1)]);
    /// ```
    pub fn allocate(&self, amount: u128) -> Vec<(Wallet, u128)> {
        let total = u128::from(BPS_TOTAL);
        // amount * bps can overflow u128 only for amounts above ~3.4e34; split the multiplication.
        let (whole, rest) = (amount / total, amount % total);
        let floor_share = |bps: u32| whole * u128::from(bps) + rest * u128::from(bps) / total;
        // A validated split is never empty.
        let Some((first, rest)) = self.recipients.split_first() else {
            return Vec::new();
        };
        let others: Vec<(Wallet, u128)> = rest
            .iter()
            .map(|r| (r.address, floor_share(r.shares_bps)))
            .collect();
        let first_part = amount - others.iter().map(|(_, part)| part).sum::<u128>();
        std::iter::once((first.address, first_part))
            .chain(others)
            .collect()
    }
}

impl<'de> Deserialize<'de> for Split {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let recipients = Vec::<SplitRecipient>::deserialize(deserializer)?;
        Split::new(recipients).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
#[path = "split_tests.rs"]
mod tests;
