//! Whether a transaction proves a refund: the pure decision behind `POST /api/receipts/refund`'s `txHash`.
//!
//! The rule (docs/money.md, "Refunds proven on chain"): the transaction is mined and succeeded, and its
//! `Transfer` logs of the configured token to the refund's buyer add up to at least the refund, compared in
//! base units (1 cent = 10,000 units), never in floating point. Transfers of other tokens, or to anyone
//! else, count for nothing. Whether it is confirmed is [`is_confirmed`]'s question, asked separately: an
//! unconfirmed proof is still a proof, the refund then waits as `refund_requested`.

use thiserror::Error;

use crate::money::{Cents, TokenAmount};
use crate::wallet::Wallet;

/// One `Transfer` log of the transaction, of any token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeenTransfer {
    /// The contract that emitted it.
    pub token: Wallet,
    /// The recipient.
    pub to: Wallet,
    /// Base units; `None` when the value does not fit in 128 bits (counts for nothing).
    pub amount: Option<TokenAmount>,
}

/// A mined transaction, as far as a refund cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinedRefund {
    /// Whether it succeeded (a reverted transaction moved nothing).
    pub succeeded: bool,
    /// Its `Transfer` logs.
    pub transfers: Vec<SeenTransfer>,
}

/// What the refund claims: `amount` of `token` sent to `buyer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaimedRefund {
    /// The configured payment token.
    pub token: Wallet,
    /// The refund's buyer.
    pub buyer: Wallet,
    /// The refund amount.
    pub amount: Cents,
}

/// Why a transaction does not prove a refund.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RefundProofError {
    /// The node does not know a mined transaction with this hash (unknown, or not mined yet).
    #[error("the transaction is not on chain (unknown, or not mined yet)")]
    NotFound,
    /// The transaction reverted: it moved nothing.
    #[error("the transaction reverted")]
    Reverted,
    /// No transfer of the configured token is in the transaction.
    #[error("the transaction transfers no {token} (the configured token)")]
    WrongToken {
        /// The configured token.
        token: Wallet,
    },
    /// The configured token moved, but not to the buyer.
    #[error("the transaction transfers the token to someone else, not to the buyer {buyer}")]
    WrongRecipient {
        /// The refund's buyer.
        buyer: Wallet,
    },
    /// The buyer received less than the refund.
    #[error("the transaction sends the buyer {sent} base units, less than the refund's {required}")]
    TooSmall {
        /// What the transaction sends the buyer.
        sent: TokenAmount,
        /// The refund in base units.
        required: TokenAmount,
    },
}

/// Checks that `mined` (`None`: not on chain) proves `claim`; answers what the buyer received.
///
/// ```
/// use payments_core::{Cents, ClaimedRefund, MinedRefund, SeenTransfer, TokenAmount, Wallet, verify_refund};
///
/// let token = Wallet::parse("0x1111111111111111111111111111111111111111").unwrap();
/// let buyer = Wallet::parse("0x2222222222222222222222222222222222222222").unwrap();
/// let claim = ClaimedRefund { token, buyer, amount: Cents::new(150) };
/// let sent = SeenTransfer { token, to: buyer, amount: Some(TokenAmount::from_base_units(1_500_000)) };
/// let mined = MinedRefund { succeeded: true, transfers: vec![sent] };
/// assert_eq!(verify_refund(&claim, Some(&mined)), Ok(TokenAmount::from_base_units(1_500_000)));
/// ```
///
/// # Errors
/// A [`RefundProofError`] naming what does not hold.
pub fn verify_refund(
    claim: &ClaimedRefund,
    mined: Option<&MinedRefund>,
) -> Result<TokenAmount, RefundProofError> {
    let mined = mined.ok_or(RefundProofError::NotFound)?;
    if !mined.succeeded {
        return Err(RefundProofError::Reverted);
    }
    let of_token: Vec<&SeenTransfer> = mined
        .transfers
        .iter()
        .filter(|transfer| transfer.token == claim.token)
        .collect();
    if of_token.is_empty() {
        return Err(RefundProofError::WrongToken { token: claim.token });
    }
    let to_buyer: Vec<&SeenTransfer> = of_token
        .into_iter()
        .filter(|transfer| transfer.to == claim.buyer)
        .collect();
    if to_buyer.is_empty() {
        return Err(RefundProofError::WrongRecipient { buyer: claim.buyer });
    }
    let sent = to_buyer
        .iter()
        .filter_map(|transfer| transfer.amount)
        .fold(0u128, |sum, amount| sum.saturating_add(amount.base_units()));
    let sent = TokenAmount::from_base_units(sent);
    // A negative refund never gets here (the body is refused first); it would need nothing.
    let required = claim.amount.to_token_amount().unwrap_or_default();
    if sent < required {
        return Err(RefundProofError::TooSmall { sent, required });
    }
    Ok(sent)
}

/// Whether a transaction in block `block` has `confirmations` blocks on top of it with the chain at `head`:
/// the deposit watcher's rule (a block counts once `head - confirmations` reaches it), so a refund and a
/// payment are confirmed alike. With 0 confirmations a mined transaction is confirmed at once.
///
/// ```
/// use payments_core::is_confirmed;
///
/// assert!(is_confirmed(10, 10, 0));
/// assert!(!is_confirmed(10, 11, 2));
/// assert!(is_confirmed(10, 12, 2));
/// ```
pub const fn is_confirmed(block: u64, head: u64, confirmations: u64) -> bool {
    match head.checked_sub(confirmations) {
        Some(confirmed) => block <= confirmed,
        None => false,
    }
}

#[cfg(test)]
#[path = "refund_proof_tests.rs"]
mod tests;
