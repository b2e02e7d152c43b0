//! A merchant's stored split configuration: the split contract address and its validated recipients.

use payments_core::{Split, Wallet};

/// The split a merchant's payments go through. `split` was validated by [`Split::new`] (shares sum to
/// 10000 bps, unique recipients); the platform recipient's share was checked when it was saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSplit {
    /// The split contract: a given deployed one, or the split factory's CREATE2 address of the recipients.
    pub address: Wallet,
    /// The recipients and their shares.
    pub split: Split,
}

/// A configuration replaced by a deliberate `replace`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchivedSplit {
    pub split: StoredSplit,
    pub created_at_ms: i64,
    pub archived_at_ms: i64,
}

/// What saving a split did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitSaved {
    /// The merchant had none; this one is now stored.
    Created(StoredSplit),
    /// The merchant already had one and `replace` was not asked for: nothing changed.
    Existing(StoredSplit),
    /// The previous configuration went to the history and this one replaced it.
    Replaced(StoredSplit),
}
