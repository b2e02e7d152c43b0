//! Where a receipt is paid, fixed when it is created: its own deposit address and the split that deposit
//! forwards to (docs/contracts.md). Buyers pay the exact amount to `to`; no other receipt shares it, so a
//! transfer names its receipt without matching amounts.

use payments_core::{ReceiptSalt, Wallet, deposit_address};

use crate::chain::ChainContracts;
use crate::receipt::ReceiptId;

/// A receipt's deposit address and the split behind it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PaymentTarget {
    /// The receipt's deposit address (a `Deposit` forwarder's CREATE2 address).
    pub to: Wallet,
    /// The split the deposit forwards to.
    pub split: Wallet,
}

impl PaymentTarget {
    /// The deposit of `merchant`'s receipt `id` paying `token` into `split`, when the chain's factories are
    /// known; `None` otherwise (the receipt is then paid to the split directly, as before deposits existed).
    pub fn derive(
        contracts: Option<&ChainContracts>,
        token: Wallet,
        merchant: Wallet,
        id: &ReceiptId,
        split: Wallet,
    ) -> Option<PaymentTarget> {
        let contracts = contracts?;
        let to = deposit_address(
            contracts.deposit_factory,
            ReceiptSalt::of(merchant, id.as_str()),
            split,
            token,
        );
        Some(PaymentTarget { to, split })
    }

    /// From the stored columns: both or neither (receipts created before deposits have neither).
    pub fn from_stored(to: Option<String>, split: Option<String>) -> Result<Option<PaymentTarget>, String> {
        match (to, split) {
            (None, None) => Ok(None),
            (Some(to), Some(split)) => Ok(Some(PaymentTarget {
                to: Wallet::parse(&to).map_err(|error| error.to_string())?,
                split: Wallet::parse(&split).map_err(|error| error.to_string())?,
            })),
            _ => Err("pay_to and pay_split must be both set or both empty".to_owned()),
        }
    }
}
