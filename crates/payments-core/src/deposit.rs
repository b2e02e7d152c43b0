//! Whether what a receipt's deposit address received pays the receipt.
//!
//! Only transfers of the configured token count; they add up (a buyer may pay in several transfers). The
//! receipt is paid once the sum covers its total; an overpayment is still a payment (the surplus is forwarded
//! with the rest and can be refunded); anything short stays unpaid and is shown as received so far.

use crate::money::{Cents, TOKEN_UNITS_PER_CENT, TokenAmount};

/// What a deposit holds against what its receipt asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DepositAssessment {
    /// The transfers cover the total.
    Covered {
        /// Everything received, in base units.
        received: TokenAmount,
        /// The same in whole cents, rounded down (what the receipt records as paid).
        received_cents: Cents,
        /// The position of the transfer that completed the payment (its sender is the buyer of record).
        completed_by: usize,
    },
    /// Not enough yet.
    Short {
        /// Received so far, in base units.
        received: TokenAmount,
        /// Still missing, in base units.
        missing: TokenAmount,
    },
}

/// Adds up `transfers` (base units of the configured token, in chain order) against `total`.
///
/// ```
/// use payments_core::{Cents, DepositAssessment, TokenAmount, assess_deposit};
/// let total = Cents::new(350); // 3.50
/// let short = assess_deposit(total, [TokenAmount::from_base_units(3_000_000)]);
/// assert!(matches!(short, DepositAssessment::Short { .. }));
/// let paid = assess_deposit(total, [3_000_000, 500_000].map(TokenAmount::from_base_units));
/// assert!(matches!(paid, DepositAssessment::Covered { completed_by: 1, .. }));
/// ```
pub fn assess_deposit(total: Cents, transfers: impl IntoIterator<Item = TokenAmount>) -> DepositAssessment {
    let per_cent = TOKEN_UNITS_PER_CENT.unsigned_abs() as u128;
    let required = u128::try_from(total.as_i64())
        .unwrap_or(0)
        .saturating_mul(per_cent);
    let mut received: u128 = 0;
    let mut completed_by = None;
    for (position, amount) in transfers.into_iter().enumerate() {
        received = received.saturating_add(amount.base_units());
        if completed_by.is_none() && received >= required {
            completed_by = Some(position);
        }
    }
    match completed_by {
        Some(completed_by) => DepositAssessment::Covered {
            received: TokenAmount::from_base_units(received),
            received_cents: Cents::new(i64::try_from(received / per_cent).unwrap_or(i64::MAX)),
            completed_by,
        },
        None => DepositAssessment::Short {
            received: TokenAmount::from_base_units(received),
            missing: TokenAmount::from_base_units(required - received),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(values: &[u128]) -> Vec<TokenAmount> {
        values.iter().copied().map(TokenAmount::from_base_units).collect()
    }

    #[test]
    fn an_exact_transfer_pays_the_receipt() {
        let assessment = assess_deposit(Cents::new(1999), units(&[19_990_000]));
        assert_eq!(
            assessment,
            DepositAssessment::Covered {
                received: TokenAmount::from_base_units(19_990_000),
                received_cents: Cents::new(1999),
                completed_by: 0,
            }
        );
    }

    #[test]
    fn one_base_unit_short_is_not_paid_and_says_what_is_missing() {
        let assessment = assess_deposit(Cents::new(1999), units(&[19_989_999]));
        assert_eq!(
            assessment,
            DepositAssessment::Short {
                received: TokenAmount::from_base_units(19_989_999),
                missing: TokenAmount::from_base_units(1),
            }
        );
    }

    #[test]
    fn partial_transfers_add_up_and_the_completing_one_is_named() {
        let assessment = assess_deposit(Cents::new(500), units(&[1_000_000, 2_000_000, 2_000_000, 7]));
        assert!(matches!(
            assessment,
            DepositAssessment::Covered { completed_by: 2, .. }
        ));
    }

    #[test]
    fn an_overpayment_is_a_payment_recorded_in_whole_cents_rounded_down() {
        let assessment = assess_deposit(Cents::new(100), units(&[1_234_567]));
        assert!(matches!(
            assessment,
            DepositAssessment::Covered { received_cents, .. } if received_cents == Cents::new(123)
        ));
    }

    #[test]
    fn nothing_received_is_short_by_the_whole_total() {
        let assessment = assess_deposit(Cents::new(100), units(&[]));
        assert_eq!(
            assessment,
            DepositAssessment::Short {
                received: TokenAmount::from_base_units(0),
                missing: TokenAmount::from_base_units(1_000_000),
            }
        );
    }
}
