//! `GET /api/receipts/{id}/transfers` (scope `receipts:read`): what the receipt's deposit address received on
//! chain, of any token, each transfer marked counted or not, with the amount received and still missing.

use payments_core::{TokenAmount, Wallet};
use serde::{Deserialize, Serialize};

use crate::client::{Auth, Client};
use crate::error::Error;
use crate::receipt::PaymentInstruction;
use crate::token_amounts::base_units;

/// A receipt's deposit as the chain showed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DepositTransfers {
    /// The receipt.
    pub receipt_id: String,
    /// The instruction the transfers are measured against; `None` without a deposit address.
    pub payment: Option<PaymentInstruction>,
    /// Payment-token base units received (counted transfers only).
    #[serde(with = "base_units")]
    pub received: TokenAmount,
    /// Base units still missing; zero once the receipt is covered.
    #[serde(with = "base_units")]
    pub missing: TokenAmount,
    /// Every confirmed transfer to the deposit address, in chain order.
    pub transfers: Vec<DepositTransfer>,
}

/// One confirmed `Transfer` to a receipt's deposit address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DepositTransfer {
    /// The transaction that made it.
    pub transaction_hash: String,
    /// Its log's position in the block.
    pub log_index: u64,
    /// The block it was mined in.
    pub block_number: u64,
    /// The token contract (the payment token, or another one sent by mistake).
    pub token: Wallet,
    /// The sender.
    pub from: Wallet,
    /// Base units as a decimal string; `None` when the value did not fit in 128 bits.
    pub amount: Option<String>,
    /// Whether it counts towards the payment (only the payment token does).
    pub counted: bool,
}

impl Client {
    /// The confirmed transfers to receipt `id`'s deposit address (scope `receipts:read`).
    ///
    /// # Errors
    /// [`Error::Api`] `not_found` for an unknown receipt (or another merchant's), a missing key or scope;
    /// [`Error::Transport`] or [`Error::Decode`] as for every call.
    pub async fn receipt_transfers(&self, id: &str) -> Result<DepositTransfers, Error> {
        self.get_json(self.receipt_url(id, &["transfers"])?, Auth::Subscription)
            .await
    }
}
