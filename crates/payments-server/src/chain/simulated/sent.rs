//! The simulated chain's transactions as a node would show them before or after mining.

use alloy::sol_types::SolCall;
use alloy_primitives::{Address, U256};
use payments_core::Wallet;

use crate::chain::bindings::IPaymentToken;
use crate::chain::{MinedTransaction, SentTransaction};

/// A recorded transaction that moved one token from an account (a simulated payment mints to its buyer first:
/// that part is the token's own doing) is the `transfer(to, amount)` its sender signed; any other is shown as a
/// call without input, which no payment verification accepts.
pub(super) fn sent_as_transfer(mined: &MinedTransaction) -> SentTransaction {
    let sent: Vec<_> = mined
        .transfers
        .iter()
        .filter(|transfer| transfer.from.address() != Address::ZERO)
        .collect();
    match sent.as_slice() {
        [transfer] => SentTransaction {
            from: transfer.from,
            to: Some(transfer.token),
            input: IPaymentToken::transferCall {
                to: transfer.to.address(),
                amount: U256::from(transfer.amount.map_or(0, |amount| amount.base_units())),
            }
            .abi_encode(),
            mined: true,
        },
        _ => SentTransaction {
            from: mined
                .transfers
                .first()
                .map_or(Wallet::from_address(Address::ZERO), |transfer| transfer.from),
            to: None,
            input: Vec::new(),
            mined: true,
        },
    }
}
