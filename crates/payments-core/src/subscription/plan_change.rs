//! A mid-period plan change: which permission may replace a subscription's (its periods must fall on the
//! subscription's schedule), what the change costs or credits ([`super::prorate`]), how a stored credit
//! comes off the next charges, and the `planChange` part of the `subscription.updated` webhook.

use serde::de::{self, Deserializer};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{Proration, SubscriptionChargeUnits};
use crate::money::TokenAmount;
use crate::spend_permission::SpendPermission;
use crate::webhook_amount::serialize_usd_field;

/// Why a replacement permission does not fit the subscription's schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ChangeAlignmentError {
    /// The permission's periods do not begin at the subscription's charge slots: the next charge could
    /// fall in the same on-chain period as the prorated charge made now, over the allowance.
    #[error(
        "permissionData.start ({start_secs}) must be the next charge ({next_charge_secs}, unix seconds) less a whole number of periods ({period_secs} s), so each charge falls in its own on-chain period"
    )]
    Misaligned {
        /// The permission's start, unix seconds.
        start_secs: u64,
        /// The subscription's next charge, unix seconds (rounded down).
        next_charge_secs: u64,
        /// The permission's period, seconds.
        period_secs: u64,
    },
    /// The permission starts after now: the change (and its prorated charge) happens now.
    #[error("permissionData.start ({start_secs}) is after now ({now_secs}, unix seconds)")]
    NotStarted {
        /// The permission's start, unix seconds.
        start_secs: u64,
        /// Now, unix seconds.
        now_secs: u64,
    },
    /// The next charge's on-chain period has begun already: a prorated charge now would share it.
    #[error("the next charge is due (at {next_charge_secs}, unix seconds): change the plan after it")]
    ChargeDue {
        /// The subscription's next charge, unix seconds.
        next_charge_secs: u64,
    },
}

/// The start a replacement permission must have when signed at `now_ms`, for a subscription whose charges
/// fall on the slots `slot_ms + k × period` (any slot of its schedule): the latest slot not after now, in
/// whole seconds. Its on-chain periods are then the subscription's billing periods.
///
/// ```
/// use payments_core::aligned_permission_start;
/// // Next charge in 2.5 days on a weekly schedule: the current period began 4.5 days ago.
/// let (day, week) = (86_400_u64, 604_800_u64);
/// let now = 10 * week;
/// let next_charge = now + 5 * day / 2;
/// let ms = |secs: u64| i64::try_from(secs * 1000).unwrap();
/// assert_eq!(aligned_permission_start(ms(next_charge), week, ms(now)), next_charge - week);
/// ```
pub fn aligned_permission_start(slot_ms: i64, period_secs: u64, now_ms: i64) -> u64 {
    let now = secs(now_ms);
    if period_secs == 0 {
        return now;
    }
    let behind = (i128::from(now) - i128::from(secs(slot_ms))).rem_euclid(i128::from(period_secs));
    now.saturating_sub(u64::try_from(behind).unwrap_or(0))
}

/// Checks that `permission` can replace a subscription's at `now_ms`, for a subscription whose charges fall
/// on the slots `slot_ms + k × period`: its start is one of those slots (whole seconds) not after now, and,
/// when the change charges at once (`charges_now`, an upgrade), the next slot's on-chain period has not
/// begun yet (`slot_ms` is then the next charge).
///
/// # Errors
/// [`ChangeAlignmentError`] naming the rule broken.
pub fn check_change_alignment(
    permission: &SpendPermission,
    slot_ms: i64,
    now_ms: i64,
    charges_now: bool,
) -> Result<(), ChangeAlignmentError> {
    let (start_secs, period_secs) = (permission.start_secs(), permission.period_secs());
    let (next_charge_secs, now_secs) = (secs(slot_ms), secs(now_ms));
    if charges_now && next_charge_secs <= now_secs {
        return Err(ChangeAlignmentError::ChargeDue { next_charge_secs });
    }
    if start_secs > now_secs {
        return Err(ChangeAlignmentError::NotStarted { start_secs, now_secs });
    }
    let offset =
        (i128::from(next_charge_secs) - i128::from(start_secs)).rem_euclid(i128::from(period_secs.max(1)));
    if period_secs == 0 || offset != 0 {
        return Err(ChangeAlignmentError::Misaligned {
            start_secs,
            next_charge_secs,
            period_secs,
        });
    }
    Ok(())
}

fn secs(ms: i64) -> u64 {
    u64::try_from(ms.div_euclid(1000)).unwrap_or(0)
}

/// A charge of `price` with `credit` taken off first: what is charged (its fee and net at `fee_bps`),
/// and how much of the credit it used. A credit at least the price leaves nothing to charge.
///
/// ```
/// use payments_core::{TokenAmount, credited_charge};
/// let units = TokenAmount::from_base_units;
/// let (charge, used) = credited_charge(units(9_990_000), units(2_333_333), 50);
/// assert_eq!((charge.price, used), (units(7_656_667), units(2_333_333)));
/// assert_eq!(charge.platform_fee, units(38_283)); // 7,656,667 × 0.5 % = 38,283.335, half up
/// ```
pub fn credited_charge(
    price: TokenAmount,
    credit: TokenAmount,
    fee_bps: u32,
) -> (SubscriptionChargeUnits, TokenAmount) {
    let used = credit.base_units().min(price.base_units());
    let left = TokenAmount::from_base_units(price.base_units() - used);
    (
        SubscriptionChargeUnits::of_units(left, fee_bps),
        TokenAmount::from_base_units(used),
    )
}

/// What a plan change did to money, as `subscription.updated` carries it in `planChange`. Each amount is
/// two keys, as in every body: `<name>Usd` (a JSON number written exactly) and `<name>BaseUnits` (integer
/// text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanChangeFacts {
    /// The plan the subscription left.
    pub previous_plan_id: String,
    /// The price per period of the plan it left.
    pub previous_price: TokenAmount,
    /// The prorated difference: charged at once (an upgrade), credited to the next charges (a downgrade),
    /// or nothing.
    pub proration: Proration,
    /// The platform fee of a prorated charge (zero otherwise).
    pub fee: TokenAmount,
    /// The merchant's part of a prorated charge (zero otherwise).
    pub net: TokenAmount,
    /// The credit now waiting for the next charges (earlier credits included).
    pub credit_balance: TokenAmount,
    /// The change's transaction (revoke, approve and charge in one); `None` when a crashed change was
    /// found done on chain.
    pub transaction_hash: Option<String>,
}

impl PlanChangeFacts {
    /// `"charge"`, `"credit"` or `"none"`.
    pub fn proration_kind(&self) -> &'static str {
        match self.proration {
            Proration::Charge(_) => "charge",
            Proration::Credit(_) => "credit",
            Proration::Nothing => "none",
        }
    }

    fn proration_amount(&self) -> TokenAmount {
        match self.proration {
            Proration::Charge(amount) | Proration::Credit(amount) => amount,
            Proration::Nothing => TokenAmount::default(),
        }
    }
}

impl Serialize for PlanChangeFacts {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut fields = serializer.serialize_struct("PlanChangeFacts", 14)?;
        fields.serialize_field("previousPlanId", &self.previous_plan_id)?;
        fields.serialize_field("proration", self.proration_kind())?;
        for (usd, units, amount) in [
            ("previousPriceUsd", "previousPriceBaseUnits", self.previous_price),
            ("prorationUsd", "prorationBaseUnits", self.proration_amount()),
            ("feeUsd", "feeBaseUnits", self.fee),
            ("netUsd", "netBaseUnits", self.net),
            ("creditBalanceUsd", "creditBalanceBaseUnits", self.credit_balance),
        ] {
            serialize_usd_field(&mut fields, usd, amount)?;
            fields.serialize_field(units, &amount.to_string())?;
        }
        fields.serialize_field("transactionHash", &self.transaction_hash)?;
        fields.end()
    }
}

/// The exact amounts are the `...BaseUnits` strings; the `...Usd` numbers are for people and are not read.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FactsText {
    previous_plan_id: String,
    proration: String,
    previous_price_base_units: String,
    proration_base_units: String,
    fee_base_units: String,
    net_base_units: String,
    credit_balance_base_units: String,
    transaction_hash: Option<String>,
}

impl<'de> Deserialize<'de> for PlanChangeFacts {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = FactsText::deserialize(deserializer)?;
        let parse = |text: &str| TokenAmount::parse_base_units(text).map_err(de::Error::custom);
        let amount = parse(&text.proration_base_units)?;
        let proration = match text.proration.as_str() {
            "charge" => Proration::Charge(amount),
            "credit" => Proration::Credit(amount),
            "none" => Proration::Nothing,
            other => return Err(de::Error::custom(format!("unknown proration {other:?}"))),
        };
        Ok(PlanChangeFacts {
            previous_plan_id: text.previous_plan_id,
            previous_price: parse(&text.previous_price_base_units)?,
            proration,
            fee: parse(&text.fee_base_units)?,
            net: parse(&text.net_base_units)?,
            credit_balance: parse(&text.credit_balance_base_units)?,
            transaction_hash: text.transaction_hash,
        })
    }
}

#[cfg(test)]
mod tests {
    use alloy_primitives::{Address, Bytes, U256, aliases::U48, aliases::U160};

    use super::*;

    const WEEK: u64 = 604_800;
    const DAY_MS: i64 = 86_400_000;

    fn permission(start: u64) -> SpendPermission {
        SpendPermission {
            account: Address::repeat_byte(1),
            spender: Address::repeat_byte(2),
            token: Address::repeat_byte(3),
            allowance: U160::from(1_u64),
            period: U48::from(WEEK),
            start: U48::from(start),
            end: U48::MAX,
            salt: U256::ZERO,
            extra_data: Bytes::new(),
        }
    }

    #[test]
    fn a_permission_starting_at_the_current_periods_slot_fits_and_one_a_second_off_does_not() {
        let next = 20 * WEEK + 1;
        let now_ms = i64::try_from(next - 3 * 86_400).unwrap() * 1000;
        let next_ms = i64::try_from(next).unwrap() * 1000 + 250;

        assert_eq!(
            check_change_alignment(&permission(next - WEEK), next_ms, now_ms, true),
            Ok(())
        );
        assert_eq!(
            check_change_alignment(&permission(next - 3 * WEEK), next_ms, now_ms, true),
            Ok(())
        );
        assert!(matches!(
            check_change_alignment(&permission(next - WEEK + 1), next_ms, now_ms, true),
            Err(ChangeAlignmentError::Misaligned { .. })
        ));
        assert!(matches!(
            check_change_alignment(&permission(next), next_ms, now_ms, true),
            Err(ChangeAlignmentError::NotStarted { .. })
        ));
        assert_eq!(aligned_permission_start(next_ms, WEEK, now_ms), next - WEEK);
    }

    #[test]
    fn an_upgrade_once_the_next_charge_is_due_is_refused_and_a_change_charging_nothing_is_not() {
        let next_ms = 30 * DAY_MS;
        assert!(matches!(
            check_change_alignment(&permission(0), next_ms, next_ms, true),
            Err(ChangeAlignmentError::ChargeDue { .. })
        ));
        let slot = u64::try_from(next_ms / 1000).unwrap() - WEEK;
        assert_eq!(
            check_change_alignment(&permission(slot), next_ms, next_ms + DAY_MS, false),
            Ok(())
        );
    }

    #[test]
    fn a_credit_comes_off_the_next_charge_to_the_base_unit_and_what_exceeds_it_waits() {
        let units = TokenAmount::from_base_units;
        let (charge, used) = credited_charge(units(1_000_000), units(1_500_000), 50);
        assert_eq!((charge.price, used), (units(0), units(1_000_000)));
        assert_eq!((charge.platform_fee, charge.merchant_net), (units(0), units(0)));
    }

    #[test]
    fn the_webhook_part_carries_flat_exact_amounts_and_reads_back() {
        let facts = PlanChangeFacts {
            previous_plan_id: "plan_1".to_owned(),
            previous_price: TokenAmount::from_base_units(9_990_000),
            proration: Proration::Charge(TokenAmount::from_base_units(2_333_333)),
            fee: TokenAmount::from_base_units(11_667),
            net: TokenAmount::from_base_units(2_321_666),
            credit_balance: TokenAmount::from_base_units(0),
            transaction_hash: None,
        };
        let text = serde_json::to_string(&facts).unwrap();
        assert_eq!(
            text,
            r#"{"previousPlanId":"plan_1","proration":"charge","previousPriceUsd":9.99,"previousPriceBaseUnits":"9990000","prorationUsd":2.333333,"prorationBaseUnits":"2333333","feeUsd":0.011667,"feeBaseUnits":"11667","netUsd":2.321666,"netBaseUnits":"2321666","creditBalanceUsd":0.00,"creditBalanceBaseUnits":"0","transactionHash":null}"#
        );
        assert_eq!(serde_json::from_str::<PlanChangeFacts>(&text).unwrap(), facts);
    }
}
