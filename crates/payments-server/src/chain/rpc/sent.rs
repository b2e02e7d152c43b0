//! A node's transaction object as the payment page's verification needs it.

use alloy::consensus::Transaction as _;
use alloy::network::TransactionResponse as _;
use alloy::rpc::types::Transaction;
use payments_core::Wallet;

use crate::chain::SentTransaction;

pub(super) fn sent_transaction(transaction: &Transaction) -> SentTransaction {
    SentTransaction {
        from: Wallet::from_address(transaction.from()),
        to: transaction.to().map(Wallet::from_address),
        input: transaction.input().to_vec(),
        mined: transaction.block_number.is_some(),
    }
}
