//! Whether a signed spend permission can pay for a plan.

use super::{BillingPeriod, next_charge_at};
use crate::{Cents, SpendPermission, TokenAmount};
use alloy_primitives::Address;
use alloy_primitives::aliases::U160;
use thiserror::Error;

/// What a plan charges: the price per period and the period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlanTerms {
    /// The price charged each period.
    pub price: Cents,
    /// How often the price is charged.
    pub period: BillingPeriod,
}

/// The platform's side of every spend permission: which token it must allow and who may spend it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpendingConfig {
    /// The configured stablecoin contract (6 decimals).
    pub token: Address,
    /// The platform's spender address, which charges subscriptions.
    pub spender: Address,
}

/// Checks that `permission` can pay for `plan` on the schedule anchored at `anchor_ms`, at `now_ms`
/// (unix milliseconds):
///
/// - its token is [`SpendingConfig::token`] and its spender [`SpendingConfig::spender`];
/// - its period is exactly the plan period in seconds ([`BillingPeriod::seconds`]);
/// - its allowance covers the price in token base units (`price_cents * 10_000`);
/// - it has started (`start <= now`);
/// - it has not ended (`end > now`) and is still valid at the next charge after now
///   (`end > next_charge_at(anchor, period, now)`), since the contract refuses to spend at or after `end`.
///
/// The checks run in that order and the first mismatch is returned. The signature is checked separately
/// with [`SpendPermission::verify`].
///
/// # Errors
///
/// One [`PlanFitError`] variant per mismatch, and [`PlanFitError::NegativePrice`] for a negative price.
pub fn check_permission_fits_plan(
    permission: &SpendPermission,
    plan: &PlanTerms,
    config: &SpendingConfig,
    anchor_ms: i64,
    now_ms: i64,
) -> Result<(), PlanFitError> {
    if permission.token != config.token {
        return Err(PlanFitError::WrongToken {
            expected: config.token,
            actual: permission.token,
        });
    }
    if permission.spender != config.spender {
        return Err(PlanFitError::WrongSpender {
            expected: config.spender,
            actual: permission.spender,
        });
    }
    if permission.period_secs() != plan.period.seconds() {
        return Err(PlanFitError::WrongPeriod {
            expected_secs: plan.period.seconds(),
            actual_secs: permission.period_secs(),
        });
    }
    let required = plan
        .price
        .to_token_amount()
        .map_err(|_| PlanFitError::NegativePrice { price: plan.price })?;
    if permission.allowance < U160::from(required.base_units()) {
        return Err(PlanFitError::AllowanceBelowPrice {
            allowance: permission.allowance,
            required,
        });
    }
    let start_ms = secs_to_ms(permission.start_secs());
    if start_ms > now_ms {
        return Err(PlanFitError::NotStarted {
            start_secs: permission.start_secs(),
            now_ms,
        });
    }
    let end_ms = secs_to_ms(permission.end_secs());
    if end_ms <= now_ms {
        return Err(PlanFitError::Ended {
            end_secs: permission.end_secs(),
            now_ms,
        });
    }
    let next_charge_ms = next_charge_at(anchor_ms, plan.period, now_ms);
    if end_ms <= next_charge_ms {
        return Err(PlanFitError::EndsBeforeNextCharge {
            end_secs: permission.end_secs(),
            next_charge_ms,
        });
    }
    Ok(())
}

/// Permission times are `uint48` seconds, so the product stays far below `i64::MAX`.
fn secs_to_ms(secs: u64) -> i64 {
    i64::try_from(secs)
        .ok()
        .and_then(|secs| secs.checked_mul(1000))
        .unwrap_or(i64::MAX)
}

/// Why a spend permission cannot pay for a plan: one variant per mismatch.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PlanFitError {
    /// The permission allows a token other than the configured stablecoin.
    #[error("permission token {actual} is not the configured token {expected}")]
    WrongToken {
        /// The configured stablecoin.
        expected: Address,
        /// The permission's token.
        actual: Address,
    },
    /// The permission names a spender other than the platform's.
    #[error("permission spender {actual} is not the platform spender {expected}")]
    WrongSpender {
        /// The platform spender.
        expected: Address,
        /// The permission's spender.
        actual: Address,
    },
    /// The permission period is not the plan period.
    #[error("permission period of {actual_secs} seconds is not the plan period of {expected_secs} seconds")]
    WrongPeriod {
        /// The plan period in seconds.
        expected_secs: u64,
        /// The permission period in seconds.
        actual_secs: u64,
    },
    /// The plan price is negative, which no plan may be.
    #[error("plan price {price} is negative")]
    NegativePrice {
        /// The plan price.
        price: Cents,
    },
    /// The allowance per period is less than the price.
    #[error("permission allowance of {allowance} base units is below the price of {required} base units")]
    AllowanceBelowPrice {
        /// The permission allowance in base units.
        allowance: U160,
        /// The plan price in base units.
        required: TokenAmount,
    },
    /// The permission only starts later.
    #[error("permission starts at {start_secs} (unix seconds), after now ({now_ms} ms)")]
    NotStarted {
        /// The permission start, unix seconds.
        start_secs: u64,
        /// The time of the check, unix milliseconds.
        now_ms: i64,
    },
    /// The permission has already ended.
    #[error("permission ended at {end_secs} (unix seconds), not after now ({now_ms} ms)")]
    Ended {
        /// The permission end, unix seconds.
        end_secs: u64,
        /// The time of the check, unix milliseconds.
        now_ms: i64,
    },
    /// The permission ends before the next scheduled charge could be made.
    #[error("permission ends at {end_secs} (unix seconds), not after the next charge at {next_charge_ms} ms")]
    EndsBeforeNextCharge {
        /// The permission end, unix seconds.
        end_secs: u64,
        /// The next scheduled charge, unix milliseconds.
        next_charge_ms: i64,
    },
}

#[cfg(test)]
mod tests;
