//! The charge schedule: slot `k` of a subscription falls at `anchor + k * period` (`k = 0, 1, 2, ...`).
//!
//! Slots are counted from the anchor, never from the last run, so a batch that runs late charges the
//! slot that was due and the following charge stays on the original schedule (no drift). A batch that
//! missed several slots charges only the latest one: the on-chain allowance of earlier periods has lapsed.
//! The slot index is stable for a given time, so `(subscription, slot)` is an idempotency key per charge.

use super::BillingPeriod;

/// The index of the latest slot at or before `now_ms`, or `None` while `now_ms` is before the anchor.
///
/// Two runs in the same slot get the same index, so a batch can charge at most once per
/// `(subscription, slot)`.
///
/// ```
/// # use payments_core::{BillingPeriod, due_slot};
/// let day = 86_400_000;
/// assert_eq!(due_slot(0, BillingPeriod::Weekly, 10 * day), Some(1));
/// ```
pub fn due_slot(anchor_ms: i64, period: BillingPeriod, now_ms: i64) -> Option<u64> {
    let elapsed = i128::from(now_ms) - i128::from(anchor_ms);
    if elapsed < 0 {
        return None;
    }
    // `elapsed` is below 2^64 and the period at least one, so the quotient fits.
    u64::try_from(elapsed / i128::from(period.millis())).ok()
}

/// The time of slot `slot`: `anchor_ms + slot * period`, saturating at `i64::MAX` (a slot that far away is
/// never due).
pub fn slot_at(anchor_ms: i64, period: BillingPeriod, slot: u64) -> i64 {
    // At most 2^63 + 2^64 * 2^35: no overflow in i128.
    let at = i128::from(anchor_ms) + i128::from(slot) * i128::from(period.millis());
    i64::try_from(at).unwrap_or(i64::MAX)
}

/// When to charge next: the first slot strictly after the slot due at `now_ms` (the anchor itself while
/// `now_ms` is before it).
///
/// The result is always later than `now_ms` (or `i64::MAX`, see [`slot_at`]) and always on the schedule
/// `anchor + k * period`, however late the run.
///
/// ```
/// # use payments_core::{BillingPeriod, next_charge_at};
/// let day = 86_400_000;
/// // Due on day 7, run on day 10: the next charge is still day 14.
/// assert_eq!(next_charge_at(0, BillingPeriod::Weekly, 10 * day), 14 * day);
/// ```
pub fn next_charge_at(anchor_ms: i64, period: BillingPeriod, now_ms: i64) -> i64 {
    match due_slot(anchor_ms, period, now_ms) {
        None => anchor_ms,
        Some(slot) => slot_at(anchor_ms, period, slot.saturating_add(1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const DAY_MS: i64 = 86_400_000;
    /// 2026-01-01T00:00:00Z.
    const ANCHOR: i64 = 1_767_225_600_000;

    #[test]
    fn the_anchor_itself_is_slot_zero() {
        assert_eq!(due_slot(ANCHOR, BillingPeriod::Weekly, ANCHOR), Some(0));
    }

    #[test]
    fn no_slot_is_due_before_the_anchor() {
        assert_eq!(due_slot(ANCHOR, BillingPeriod::Weekly, ANCHOR - 1), None);
    }

    #[test]
    fn before_the_anchor_the_next_charge_is_the_anchor() {
        assert_eq!(
            next_charge_at(ANCHOR, BillingPeriod::Monthly, ANCHOR - DAY_MS),
            ANCHOR
        );
    }

    #[test]
    fn at_the_anchor_the_next_charge_is_one_period_later() {
        assert_eq!(
            next_charge_at(ANCHOR, BillingPeriod::Weekly, ANCHOR),
            1_767_830_400_000
        );
    }

    #[test]
    fn a_run_three_days_late_keeps_the_original_schedule() {
        let late_run = ANCHOR + 7 * DAY_MS + 3 * DAY_MS;

        let slot = due_slot(ANCHOR, BillingPeriod::Weekly, late_run);
        let next = next_charge_at(ANCHOR, BillingPeriod::Weekly, late_run);

        assert_eq!(slot, Some(1));
        assert_eq!(next, ANCHOR + 14 * DAY_MS);
    }

    #[test]
    fn a_run_one_millisecond_before_a_slot_is_still_in_the_previous_slot() {
        let just_before = ANCHOR + 30 * DAY_MS - 1;

        assert_eq!(due_slot(ANCHOR, BillingPeriod::Monthly, just_before), Some(0));
        assert_eq!(
            next_charge_at(ANCHOR, BillingPeriod::Monthly, just_before),
            ANCHOR + 30 * DAY_MS
        );
    }

    #[test]
    fn a_run_that_missed_several_slots_charges_the_latest_one() {
        let much_later = ANCHOR + 100 * DAY_MS;

        assert_eq!(due_slot(ANCHOR, BillingPeriod::Biweekly, much_later), Some(7));
        assert_eq!(
            next_charge_at(ANCHOR, BillingPeriod::Biweekly, much_later),
            ANCHOR + 112 * DAY_MS
        );
    }

    #[test]
    fn two_runs_in_the_same_slot_get_the_same_index() {
        let first = due_slot(ANCHOR, BillingPeriod::Yearly, ANCHOR + 400 * DAY_MS);
        let second = due_slot(ANCHOR, BillingPeriod::Yearly, ANCHOR + 700 * DAY_MS);

        assert_eq!(first, Some(1));
        assert_eq!(second, Some(1));
    }

    #[test]
    fn slot_times_saturate_instead_of_overflowing() {
        assert_eq!(slot_at(i64::MAX - 1, BillingPeriod::Yearly, u64::MAX), i64::MAX);
        assert_eq!(
            next_charge_at(i64::MAX - DAY_MS, BillingPeriod::Weekly, i64::MAX),
            i64::MAX
        );
    }

    #[test]
    fn extreme_anchors_and_times_do_not_panic() {
        assert_eq!(
            due_slot(i64::MIN, BillingPeriod::Weekly, i64::MAX),
            Some(30_500_568_904)
        );
        assert_eq!(due_slot(i64::MAX, BillingPeriod::Weekly, i64::MIN), None);
    }

    proptest! {
        #[test]
        fn the_next_charge_is_after_now_and_on_the_schedule(
            anchor in -(1_i64 << 50)..(1_i64 << 50),
            offset in 0_i64..(1_i64 << 45),
            index in 0_usize..5,
        ) {
            let period = BillingPeriod::ALL[index];
            let now = anchor + offset;

            let next = next_charge_at(anchor, period, now);

            prop_assert!(next > now);
            prop_assert_eq!((next - anchor) % period.millis(), 0);
            prop_assert!(next - now <= period.millis());
        }
    }
}
