//! Keeping buyers' xp in step with their receipts: a transition changes what a receipt credits its buyer
//! (`payments_core::purchase_credit`), and the backends apply the difference to the buyer's user row in the
//! same transaction as the status change, so xp never disagrees with the receipts.

use payments_core::{Cents, Wallet, purchase_credit};

use crate::TransitionCommit;
use payments_domain::receipt::Receipt;

/// How much each buyer's purchase total changes when `commit` is applied to `before` (zero changes left
/// out). A buyer named for the first time gets the whole credit; a changed buyer (never expected) moves it.
pub(crate) fn purchase_credit_changes(before: &Receipt, commit: &TransitionCommit) -> Vec<(Wallet, Cents)> {
    let credit_before = purchase_credit(before.status, before.paid, before.refunded);
    let credit_after = purchase_credit(commit.to.status, commit.to.paid, commit.to.refunded);
    let buyer_after = commit.buyer_wallet.or(before.buyer_wallet);
    let mut changes = Vec::new();
    match (before.buyer_wallet, buyer_after) {
        (Some(old), Some(new)) if old == new => {
            changes.push((new, Cents::new(credit_after.as_i64() - credit_before.as_i64())));
        }
        (old, new) => {
            if let Some(old) = old {
                changes.push((old, Cents::new(-credit_before.as_i64())));
            }
            if let Some(new) = new {
                changes.push((new, credit_after));
            }
        }
    }
    changes.retain(|(_, change)| *change != Cents::ZERO);
    // One order for every writer, so two transactions crediting the same buyers never wait on each other
    // in opposite orders (PostgreSQL).
    changes.sort_by_key(|(wallet, _)| *wallet);
    changes
}
