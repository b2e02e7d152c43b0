//! Reads of the chain's past for the split transactions listing: one account's transfers of a token, and
//! block times. Both are single bounded calls; the caller chooses the block range.

use std::collections::BTreeMap;

use alloy::providers::Provider;
use alloy::rpc::types::Filter;
use alloy::sol_types::SolEvent;
use payments_core::Wallet;

use crate::chain::bindings::IPaymentToken;
use crate::chain::rpc::{READ_DEADLINE, RpcChain, rpc_error, transfer_of, within};
use crate::chain::{ChainError, TokenTransfer};

impl RpcChain {
    /// `Transfer` logs of `token` with `account` as sender, then as recipient (a log filter matches one
    /// topic position at a time), merged into chain order without duplicates.
    pub(super) async fn transfers_from_or_to(
        &self,
        token: Wallet,
        account: Wallet,
        from: u64,
        to: u64,
    ) -> Result<Vec<TokenTransfer>, ChainError> {
        if from > to {
            return Ok(Vec::new());
        }
        let topic = account.address().into_word();
        let base = Filter::new()
            .address(token.address())
            .from_block(from)
            .to_block(to)
            .event_signature(IPaymentToken::Transfer::SIGNATURE_HASH);
        let (sent, received) = (base.clone().topic1(topic), base.topic2(topic));
        let logs = within(READ_DEADLINE, async {
            let sent = self.provider.get_logs(&sent).await.map_err(rpc_error)?;
            let received = self.provider.get_logs(&received).await.map_err(rpc_error)?;
            Ok(sent.into_iter().chain(received))
        })
        .await?;
        let ordered: BTreeMap<(u64, u64), TokenTransfer> = logs
            .filter_map(|log| transfer_of(&log))
            .map(|transfer| ((transfer.block.number, transfer.log_index), transfer))
            .collect();
        Ok(ordered.into_values().collect())
    }

    /// The block's header time.
    pub(super) async fn timestamp_of(&self, number: u64) -> Result<Option<u64>, ChainError> {
        let block = within(READ_DEADLINE, async {
            self.provider
                .get_block_by_number(number.into())
                .await
                .map_err(rpc_error)
        })
        .await?;
        Ok(block.map(|block| block.header.timestamp))
    }
}
