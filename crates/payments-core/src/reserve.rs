//! The reserve a merchant should keep for refunds, from its own recent volume (docs/reserve.md).
//!
//! One rule, in integer cents: over the last [`ReserveRule::window_days`] days,
//!
//! ```text
//! refund_cover = ceil(refunded × refund_cover_bps / 10000)    // what was refunded, with a safety margin
//! paid_floor   = ceil(paid × paid_floor_bps / 10000)          // a minimum share of what was taken
//! recommended  = max(refund_cover, paid_floor)
//! ```
//!
//! Rounded up to the cent because a reserve one cent short fails the refund it was kept for. The defaults
//! ([`ReserveRule::DEFAULT`]) are 30 days, 150 % of refunds and a floor of 5 % of paid volume.

use crate::money::{Cents, MoneyError};

/// Basis points in a whole (as for split shares).
const BPS_WHOLE: i128 = 10_000;
const DAY_MS: i64 = 86_400_000;

/// The parameters of the reserve rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReserveRule {
    /// How many days of volume count, ending now.
    pub window_days: u32,
    /// The refunds of the window times this (basis points: 15000 = 150 %).
    pub refund_cover_bps: u32,
    /// The reserve is never below this share of the window's paid volume (basis points: 500 = 5 %).
    pub paid_floor_bps: u32,
}

/// A merchant's volume over the rule's window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReserveVolume {
    /// What buyers paid for receipts that became paid in the window.
    pub paid: Cents,
    /// What was refunded in the window (of any receipt, old ones too).
    pub refunded: Cents,
}

/// Which part of the rule decided the recommendation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReserveBasis {
    /// The refunds with their safety margin (at least as large as the floor).
    Refunds,
    /// The floor share of paid volume (larger than the refund cover).
    PaidFloor,
    /// Nothing was paid or refunded in the window: nothing to keep.
    NoVolume,
}

impl ReserveBasis {
    /// Every basis.
    pub const ALL: [ReserveBasis; 3] = [
        ReserveBasis::Refunds,
        ReserveBasis::PaidFloor,
        ReserveBasis::NoVolume,
    ];

    /// The wire name: `refunds`, `paid_floor` or `no_volume`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReserveBasis::Refunds => "refunds",
            ReserveBasis::PaidFloor => "paid_floor",
            ReserveBasis::NoVolume => "no_volume",
        }
    }
}

/// What [`ReserveRule::recommend`] advises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReserveRecommendation {
    /// The reserve to keep.
    pub amount: Cents,
    /// The refund cover (`ceil(refunded × refund_cover_bps / 10000)`).
    pub refund_cover: Cents,
    /// The floor (`ceil(paid × paid_floor_bps / 10000)`).
    pub paid_floor: Cents,
    /// Which of the two decided.
    pub basis: ReserveBasis,
}

impl ReserveRule {
    /// 30 days, 150 % of refunds, at least 5 % of paid volume.
    pub const DEFAULT: ReserveRule = ReserveRule {
        window_days: 30,
        refund_cover_bps: 15_000,
        paid_floor_bps: 500,
    };

    /// Where the window ending at `now_ms` starts (Unix ms, inclusive).
    ///
    /// ```
    /// use payments_core::ReserveRule;
    /// assert_eq!(ReserveRule::DEFAULT.window_start(30 * 86_400_000 + 5), 5);
    /// ```
    pub fn window_start(&self, now_ms: i64) -> i64 {
        now_ms.saturating_sub(i64::from(self.window_days).saturating_mul(DAY_MS))
    }

    /// The reserve to keep for `volume`.
    ///
    /// ```
    /// use payments_core::{Cents, ReserveBasis, ReserveRule, ReserveVolume};
    /// let volume = ReserveVolume { paid: Cents::new(100_000), refunded: Cents::new(2_001) };
    /// let advice = ReserveRule::DEFAULT.recommend(volume).unwrap();
    /// // 150 % of 20.01 is 30.015, rounded up to 30.02; 5 % of 1000.00 is 50.00, which is larger.
    /// assert_eq!(advice.refund_cover, Cents::new(3_002));
    /// assert_eq!((advice.amount, advice.basis), (Cents::new(5_000), ReserveBasis::PaidFloor));
    /// ```
    ///
    /// # Errors
    /// [`MoneyError::Negative`] when a volume is negative (volumes are sums of non-negative amounts),
    /// [`MoneyError::Overflow`] when the reserve does not fit in cents.
    pub fn recommend(&self, volume: ReserveVolume) -> Result<ReserveRecommendation, MoneyError> {
        let refund_cover = share_rounded_up(volume.refunded, self.refund_cover_bps)?;
        let paid_floor = share_rounded_up(volume.paid, self.paid_floor_bps)?;
        let basis = if refund_cover == Cents::ZERO && paid_floor == Cents::ZERO {
            ReserveBasis::NoVolume
        } else if refund_cover >= paid_floor {
            ReserveBasis::Refunds
        } else {
            ReserveBasis::PaidFloor
        };
        Ok(ReserveRecommendation {
            amount: refund_cover.max(paid_floor),
            refund_cover,
            paid_floor,
            basis,
        })
    }
}

/// `ceil(amount × bps / 10000)` in cents, computed in i128 so no product overflows.
fn share_rounded_up(amount: Cents, bps: u32) -> Result<Cents, MoneyError> {
    if amount.as_i64() < 0 {
        return Err(MoneyError::Negative {
            text: amount.to_string(),
        });
    }
    let product = i128::from(amount.as_i64()) * i128::from(bps);
    // Non-negative operands: ceiling division is (a + b - 1) / b.
    let rounded_up = (product + BPS_WHOLE - 1) / BPS_WHOLE;
    i64::try_from(rounded_up)
        .map(Cents::new)
        .map_err(|_| MoneyError::Overflow)
}

#[cfg(test)]
#[path = "reserve_tests.rs"]
mod tests;
