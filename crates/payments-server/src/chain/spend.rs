//! Subscription charges on chain: what the server asks of the spend permission manager contract
//! (`contracts/src/SpendPermissionManager.sol`). The contract enforces the customer's signed allowance per
//! period itself, so even a compromised server cannot take more than the customer signed.

use alloy_primitives::B256;
use payments_core::{SpendPermission, TokenAmount, Wallet};

/// One subscription charge, sent as one transaction by the platform's spender (the relayer): the manager
/// approves `permission` with the customer's `signature` when it is not approved yet, pulls `fee + net` from
/// the customer within the current period's allowance, and pays `fee` to `fee_recipient` and `net` to
/// `merchant` (the merchant's split). Either all of it happens or none of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SpendCharge {
    /// The spend permission manager contract.
    pub(crate) manager: Wallet,
    /// The permission the customer signed (its `spender` is the relayer, its `token` the payment token).
    pub(crate) permission: SpendPermission,
    /// The customer's 65-byte EIP-712 signature over `permission` (or an ERC-1271 signature of a contract
    /// account; of an ERC-6492 signature, the inner one, since the account must exist to be charged).
    pub(crate) signature: Vec<u8>,
    /// Where the merchant's part goes (the merchant's split).
    pub(crate) merchant: Wallet,
    /// The merchant's part, in token base units.
    pub(crate) net: TokenAmount,
    /// Where the platform fee goes.
    pub(crate) fee_recipient: Wallet,
    /// The platform fee, in token base units.
    pub(crate) fee: TokenAmount,
}

/// The manager's view of one permission now: the current period's bounds and how much of its allowance was
/// spent in it. The batch reads it to reconcile a charge whose transaction outcome it did not record (a crash
/// between sending and writing): `spent` above zero in the charged period means the charge happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PermissionPeriod {
    /// Unix seconds, inclusive.
    pub(crate) start: u64,
    /// Unix seconds, exclusive.
    pub(crate) end: u64,
    /// Base units spent in this period.
    pub(crate) spent: TokenAmount,
    /// Whether the account revoked the permission (nothing more can be spent).
    pub(crate) revoked: bool,
}

/// What became of one charge of a batch ([`crate::chain::Chain::charge_batch`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BatchChargeOutcome {
    /// The charge went through in transaction `tx_hash`.
    Charged { tx_hash: B256 },
    /// The manager refused this charge alone (balance, allowance, revoked, signature): nothing moved for it.
    Failed { reason: String },
    /// The node did not tell (no answer, no receipt in time): the charge may or may not have happened.
    Unknown { reason: String },
}

/// A plan change on chain ([`crate::chain::Chain::change_permission`]), one transaction of the platform's
/// spender at the manager's `changePermission`: `old` is revoked, `replacement` approved with the customer's
/// `signature`, and `fee + net` (an upgrade's prorated difference; zero for none) charged on the
/// replacement. All of it happens or none of it, so the old permission never ends without its successor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PermissionChange {
    pub(crate) manager: Wallet,
    /// The permission the subscription ran on until now.
    pub(crate) old: SpendPermission,
    /// The permission the customer signed for the new plan.
    pub(crate) replacement: SpendPermission,
    pub(crate) signature: Vec<u8>,
    /// Where the merchant's part of the charge goes (the merchant's split).
    pub(crate) merchant: Wallet,
    pub(crate) net: TokenAmount,
    pub(crate) fee_recipient: Wallet,
    pub(crate) fee: TokenAmount,
}
