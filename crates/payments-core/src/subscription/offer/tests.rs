use super::*;
use crate::{BillingPeriod, Cents};
use alloy_primitives::address;

const CUSTOMER: Address = address!("0x70997970c51812dc3a010c7d01b50e0d17dc79c8");
const SPENDER: Address = address!("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
const TOKEN: Address = address!("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");

fn weekly(cents: i64) -> PlanTerms {
    PlanTerms {
        price: Cents::new(cents),
        period: BillingPeriod::Weekly,
    }
}

fn config() -> SpendingConfig {
    SpendingConfig {
        token: TOKEN,
        spender: SPENDER,
    }
}

#[test]
fn a_plan_permission_allows_the_price_per_period_from_a_minute_ago_without_end() {
    let permission =
        plan_permission(CUSTOMER, &weekly(999), &config(), 1_800_000_000, U256::from(7_u8)).unwrap();

    assert_eq!(permission.account, CUSTOMER);
    assert_eq!(permission.spender, SPENDER);
    assert_eq!(permission.token, TOKEN);
    assert_eq!(permission.allowance, U160::from(9_990_000_u64));
    assert_eq!(permission.period_secs(), 604_800);
    assert_eq!(permission.start_secs(), 1_799_999_940);
    assert_eq!(permission.end_secs(), 281_474_976_710_655);
    assert_eq!(permission.salt, U256::from(7_u8));
    assert!(permission.extra_data.is_empty());
}

#[test]
fn a_plan_permission_fits_its_plan_at_once() {
    let now_secs = 1_800_000_000_u64;
    let permission = plan_permission(CUSTOMER, &weekly(999), &config(), now_secs, U256::ZERO).unwrap();
    let now_ms = i64::try_from(now_secs).unwrap() * 1000;

    assert_eq!(
        crate::check_permission_fits_plan(&permission, &weekly(999), &config(), now_ms, now_ms),
        Ok(())
    );
}

#[test]
fn a_negative_price_has_no_permission() {
    assert!(matches!(
        plan_permission(CUSTOMER, &weekly(-1), &config(), 0, U256::ZERO),
        Err(PlanFitError::NegativePrice { .. })
    ));
}

#[test]
fn an_approval_is_needed_only_while_the_allowance_is_below_one_charge() {
    let token = Wallet::from_address(TOKEN);
    let manager = Wallet::from_address(SPENDER);
    let price = U256::from(9_990_000_u64);

    let short = TokenApproval::for_allowance(token, manager, U256::from(9_989_999_u64), price);
    let enough = TokenApproval::for_allowance(token, manager, price, price);

    assert!(short.needed);
    assert!(!enough.needed);
    assert_eq!(
        short.amount,
        "115792089237316195423570985008687907853269984665640564039457584007913129639935"
    );
}
