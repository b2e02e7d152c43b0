//! How a user's experience points (`xp`) grow: they are derived from money the wallet spent on the platform,
//! never declared by the user.
//!
//! The rule: **one xp per whole US dollar** of the wallet's net purchases plus its subscription charges.
//! A purchase counts from the moment its receipt is paid (the receipt names the wallet as its buyer) and
//! counts what was paid minus what was refunded; a receipt that is not paid counts nothing. Subscription
//! charges will count their charged amount the same way.

use crate::{Cents, ReceiptStatus};

/// How many cents of spending one xp stands for.
pub const CENTS_PER_XP: i64 = 100;

/// What one receipt adds to its buyer's spending: what was paid minus what was refunded once the receipt
/// is paid (or later in the flow, [`ReceiptStatus::is_settled`]), else nothing. Never negative.
///
/// ```
/// use payments_core::{Cents, ReceiptStatus, purchase_credit};
///
/// assert_eq!(purchase_credit(ReceiptStatus::Paid, Cents::new(775), Cents::ZERO), Cents::new(775));
/// assert_eq!(purchase_credit(ReceiptStatus::RefundPartial, Cents::new(775), Cents::new(300)), Cents::new(475));
/// assert_eq!(purchase_credit(ReceiptStatus::Pending, Cents::ZERO, Cents::ZERO), Cents::ZERO);
/// ```
pub fn purchase_credit(status: ReceiptStatus, paid: Cents, refunded: Cents) -> Cents {
    if !status.is_settled() {
        return Cents::ZERO;
    }
    Cents::new(paid.as_i64().saturating_sub(refunded.as_i64()).max(0))
}

/// The xp of a wallet that spent `purchases` on receipts and `subscriptions` on subscription charges:
/// whole dollars, rounded down (a user never shows xp it has not fully earned). Never negative.
///
/// ```
/// use payments_core::{Cents, xp_for_spending};
///
/// assert_eq!(xp_for_spending(Cents::new(1_999), Cents::ZERO), 19);
/// assert_eq!(xp_for_spending(Cents::new(50), Cents::new(50)), 1);
/// ```
pub fn xp_for_spending(purchases: Cents, subscriptions: Cents) -> i64 {
    let spent = purchases
        .as_i64()
        .max(0)
        .saturating_add(subscriptions.as_i64().max(0));
    spent / CENTS_PER_XP
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_settled_receipts_credit_their_buyer() {
        for status in ReceiptStatus::ALL {
            let credit = purchase_credit(status, Cents::new(500), Cents::ZERO);
            let expected = if status.is_settled() { 500 } else { 0 };
            assert_eq!(credit, Cents::new(expected), "{status}");
        }
    }

    #[test]
    fn refunds_take_their_amount_back_and_never_below_zero() {
        assert_eq!(
            purchase_credit(ReceiptStatus::Refunded, Cents::new(500), Cents::new(500)),
            Cents::ZERO
        );
        assert_eq!(
            purchase_credit(ReceiptStatus::Refunded, Cents::new(500), Cents::new(900)),
            Cents::ZERO
        );
    }

    #[test]
    fn xp_counts_whole_dollars_and_ignores_negative_spending() {
        assert_eq!(xp_for_spending(Cents::new(99), Cents::ZERO), 0);
        assert_eq!(xp_for_spending(Cents::new(100), Cents::ZERO), 1);
        assert_eq!(xp_for_spending(Cents::new(-500), Cents::new(250)), 2);
        assert_eq!(
            xp_for_spending(Cents::new(i64::MAX), Cents::new(i64::MAX)),
            i64::MAX / 100
        );
    }
}
