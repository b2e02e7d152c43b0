//! Where a receipt's payment stands on chain: the block of the transfer that completed it, how many blocks
//! were mined on top of it, and whether the chain calls that block final (docs/money.md, "Finality and
//! reorganisations").

use serde::{Deserialize, Serialize};

/// How deep a block must be to count as final on a node that has no `finalized` block tag: two Ethereum
/// epochs (64 slots), the depth at which Ethereum finalizes and what anvil reports as its `finalized` block.
pub const FINALITY_FALLBACK_DEPTH: u64 = 64;

/// The payment's block as the watcher last saw the chain.
///
/// ```
/// use payments_core::PaymentBlock;
///
/// let block = PaymentBlock::at(100, "0xabc".into(), 103, 99);
/// assert_eq!((block.confirmations, block.finalized), (3, false));
/// assert!(PaymentBlock::at(100, "0xabc".into(), 200, 100).finalized);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PaymentBlock {
    /// The block of the transfer that completed the payment.
    pub block_number: u64,
    /// Its hash (a reorganisation that moves the transfer changes it).
    pub block_hash: String,
    /// Blocks mined on top of it when the watcher last read the head (as `--confirmations` counts them).
    pub confirmations: u64,
    /// Whether the chain's finalized block has reached it: no reorganisation can remove it any more.
    pub finalized: bool,
}

impl PaymentBlock {
    /// The block `number` (`hash`) seen from a chain whose head is `head` and whose finalized block is
    /// `finalized_block` (see [`finality_line`]).
    pub fn at(number: u64, hash: String, head: u64, finalized_block: u64) -> PaymentBlock {
        PaymentBlock {
            block_number: number,
            block_hash: hash,
            confirmations: head.saturating_sub(number),
            finalized: number <= finalized_block,
        }
    }
}

/// The highest final block: the node's `finalized` tag when it has one, else [`FINALITY_FALLBACK_DEPTH`]
/// blocks below the head (nothing before the chain is that long).
///
/// ```
/// use payments_core::finality_line;
///
/// assert_eq!(finality_line(1_000, Some(990)), 990);
/// assert_eq!(finality_line(1_000, None), 936);
/// assert_eq!(finality_line(10, None), 0);
/// ```
pub fn finality_line(head: u64, node_finalized: Option<u64>) -> u64 {
    node_finalized.map_or_else(
        || head.saturating_sub(FINALITY_FALLBACK_DEPTH),
        |tag| tag.min(head),
    )
}
