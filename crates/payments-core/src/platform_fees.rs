//! The platform's fees on a merchant's sales, as the billing balance reports them: what accrued, what the
//! split already paid the platform on chain, and what remains.
//!
//! A paid receipt accrues the platform's split share (`share_bps` of what was paid); its split pays that
//! share on chain when the receipt is settled (`completed`). Shares of many receipts are summed exactly (in
//! 1/10,000 of a cent, which token amounts of 6 decimals represent exactly) and rounded half up to cents
//! once, so a balance never drifts by a cent per receipt.

use crate::{BPS_TOTAL, Cents, MoneyError};

/// Platform fees: accrued, settled on chain, and the rest (`accrued == settled + remaining`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FeeBalance {
    /// Every fee owed to the platform so far.
    pub accrued: Cents,
    /// The part the platform already received on chain.
    pub settled: Cents,
    /// `accrued - settled`.
    pub remaining: Cents,
}

impl FeeBalance {
    /// Adds two balances (e.g. receipts and subscription charges).
    ///
    /// # Errors
    /// [`MoneyError`] when a sum leaves the representable range.
    pub fn checked_add(self, other: FeeBalance) -> Result<FeeBalance, MoneyError> {
        Ok(FeeBalance {
            accrued: self.accrued.checked_add(other.accrued)?,
            settled: self.settled.checked_add(other.settled)?,
            remaining: self.remaining.checked_add(other.remaining)?,
        })
    }
}

/// The split's platform share of `paid` (all paid receipts) and of `settled_paid` (the part of `paid` whose
/// receipts were settled on chain), at `share_bps` basis points.
///
/// ```
/// use payments_core::{Cents, split_fee_balance};
///
/// // 7.75 + 7.75 paid at 0.50%: 0.0775 accrued -> 0.08; one receipt settled: 0.03875 -> 0.04.
/// let balance = split_fee_balance(Cents::new(1_550), Cents::new(775), 50).unwrap();
/// assert_eq!((balance.accrued, balance.settled, balance.remaining), (Cents::new(8), Cents::new(4), Cents::new(4)));
/// ```
///
/// # Errors
/// [`MoneyError::Negative`] when an amount is negative, [`MoneyError::Overflow`] when `settled_paid` exceeds
/// `paid` or the share does not fit.
pub fn split_fee_balance(paid: Cents, settled_paid: Cents, share_bps: u32) -> Result<FeeBalance, MoneyError> {
    for amount in [paid, settled_paid] {
        if amount.as_i64() < 0 {
            return Err(MoneyError::Negative {
                text: amount.to_string(),
            });
        }
    }
    if settled_paid.as_i64() > paid.as_i64() {
        return Err(MoneyError::Overflow);
    }
    let accrued = share_of(paid, share_bps)?;
    let settled = share_of(settled_paid, share_bps)?;
    Ok(FeeBalance {
        accrued,
        settled,
        remaining: accrued.checked_sub(settled)?,
    })
}

/// `amount * bps / 10000`, rounded half up to a cent.
fn share_of(amount: Cents, bps: u32) -> Result<Cents, MoneyError> {
    let exact = i128::from(amount.as_i64()) * i128::from(bps);
    let total = i128::from(BPS_TOTAL);
    let rounded = (exact + total / 2) / total;
    i64::try_from(rounded)
        .map(Cents::new)
        .map_err(|_| MoneyError::Overflow)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_a_cent_rounds_up_and_less_rounds_down() {
        let half = split_fee_balance(Cents::new(100), Cents::ZERO, 50).unwrap();
        assert_eq!(half.accrued, Cents::new(1));
        let less = split_fee_balance(Cents::new(99), Cents::ZERO, 50).unwrap();
        assert_eq!(less.accrued, Cents::ZERO);
    }

    #[test]
    fn remaining_is_what_is_not_settled_yet() {
        let balance = split_fee_balance(Cents::new(10_000), Cents::new(4_000), 50).unwrap();
        assert_eq!(
            balance,
            FeeBalance {
                accrued: Cents::new(50),
                settled: Cents::new(20),
                remaining: Cents::new(30),
            }
        );
    }

    #[test]
    fn settled_beyond_paid_or_negative_amounts_are_refused() {
        assert_eq!(
            split_fee_balance(Cents::new(1), Cents::new(2), 50),
            Err(MoneyError::Overflow)
        );
        assert_eq!(
            split_fee_balance(Cents::new(-1), Cents::ZERO, 50),
            Err(MoneyError::Negative {
                text: "-0.01".to_owned()
            })
        );
    }

    #[test]
    fn the_largest_amounts_do_not_overflow() {
        let balance = split_fee_balance(Cents::new(i64::MAX), Cents::new(i64::MAX), 10_000).unwrap();
        assert_eq!(balance.accrued, Cents::new(i64::MAX));
        assert_eq!(balance.remaining, Cents::ZERO);
    }

    proptest::proptest! {
        #[test]
        fn accrued_is_always_settled_plus_remaining(paid in 0i64..1_000_000_000_000, part in 0u32..=100, bps in 0u32..=10_000) {
            let settled = paid / 100 * i64::from(part);
            let balance = split_fee_balance(Cents::new(paid), Cents::new(settled), bps).unwrap();
            proptest::prop_assert_eq!(balance.accrued.as_i64(), balance.settled.as_i64() + balance.remaining.as_i64());
            proptest::prop_assert!(balance.remaining.as_i64() >= 0);
        }
    }
}
