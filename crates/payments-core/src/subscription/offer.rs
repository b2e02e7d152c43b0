//! What a customer must do to subscribe to a plan: the spend permission to sign (as an EIP-712 document)
//! and whether the token must first be approved for the spend permission manager. The answer of
//! `GET /api/subscriptions/plans/{planId}/permission`, shared by the server and its clients.

use alloy_primitives::aliases::{U48, U160};
use alloy_primitives::{Address, Bytes, U256};
use serde::{Deserialize, Serialize};

use super::{PlanFitError, PlanTerms, SpendingConfig};
use crate::{SpendPermission, SpendPermissionTypedData, Wallet};

/// How far before "now" an offered permission starts: a node's latest block may be a little behind the
/// server's clock, and the manager refuses to spend before `start`.
pub const PERMISSION_START_SLACK_SECS: u64 = 60;

/// The spend permission a customer signs to subscribe to `plan`: `account` lets the platform's spender
/// take up to the price in token base units every plan period, from `now_secs` less
/// [`PERMISSION_START_SLACK_SECS`], with no end (`end` is the largest `uint48`: the subscription runs until
/// it is canceled), `salt` as given (the caller picks it at random, so two offers never sign the same
/// permission) and no extra data.
///
/// # Errors
/// [`PlanFitError::NegativePrice`] for a negative price.
pub fn plan_permission(
    account: Address,
    plan: &PlanTerms,
    config: &SpendingConfig,
    now_secs: u64,
    salt: U256,
) -> Result<SpendPermission, PlanFitError> {
    let price = plan
        .price
        .to_token_amount()
        .map_err(|_| PlanFitError::NegativePrice { price: plan.price })?;
    Ok(SpendPermission {
        account,
        spender: config.spender,
        token: config.token,
        allowance: U160::from(price.base_units()),
        period: U48::saturating_from(plan.period.seconds()),
        start: U48::saturating_from(now_secs.saturating_sub(PERMISSION_START_SLACK_SECS)),
        end: U48::MAX,
        salt,
        extra_data: Bytes::new(),
    })
}

/// What a customer must do to subscribe: approve the token if needed, sign `typed_data`, then post both
/// to `POST /api/subscriptions/create` (`permissionData` = `typedData.message`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionPermissionOffer {
    /// The EIP-712 document to sign (`eth_signTypedData_v4`).
    pub typed_data: SpendPermissionTypedData,
    /// The ERC-20 approval the manager needs to pull the charges.
    pub approval: TokenApproval,
}

/// An ERC-20 `approve(spender, amount)` on `token`, and whether the customer still has to send it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenApproval {
    /// The token contract.
    pub token: Wallet,
    /// The spend permission manager, which pulls each charge with `transferFrom`.
    pub spender: Wallet,
    /// The amount to approve, in token base units as decimal text (the largest `uint256`: the signed
    /// permission, enforced by the manager, is what limits each period's charge).
    pub amount: String,
    /// Whether the customer's current allowance for the manager is below one charge.
    pub needed: bool,
}

impl TokenApproval {
    /// The approval of `spender` on `token`, needed when `current` (the customer's allowance, read on
    /// chain) is below `price_units`.
    pub fn for_allowance(token: Wallet, spender: Wallet, current: U256, price_units: U256) -> Self {
        Self {
            token,
            spender,
            amount: U256::MAX.to_string(),
            needed: current < price_units,
        }
    }
}

#[cfg(test)]
mod tests;
