//! The node's `finalized` block tag: the watcher re-checks paid receipts' transfers until it passes them.

use alloy::providers::Provider;
use alloy::rpc::types::BlockNumberOrTag;

use crate::chain::ChainError;
use crate::chain::rpc::{READ_DEADLINE, RpcChain, rpc_error, within};

impl RpcChain {
    /// The `finalized` block's number; `None` when the node does not know the tag.
    pub(super) async fn finalized_number(&self) -> Result<Option<u64>, ChainError> {
        let block = within(READ_DEADLINE, async {
            self.provider
                .get_block_by_number(BlockNumberOrTag::Finalized)
                .await
                .map_err(rpc_error)
        })
        .await;
        match block {
            Ok(block) => Ok(block.map(|block| block.header.number)),
            // A node that answers the tag with an error does not know it (pre-merge chains, some L2 nodes).
            Err(ChainError::Reverted(_)) => Ok(None),
            Err(error) => Err(error),
        }
    }
}
