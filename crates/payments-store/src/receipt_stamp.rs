//! A receipt's stamp: the few columns that tell whether a view rendered earlier is still current, read
//! without the receipt itself (a narrow row instead of the receipt's 38 columns and its JSON).

use payments_core::{Authority, ReceiptStatus, Wallet};
use payments_domain::receipt::{PaymentTarget, Receipt};
use payments_domain::split::StoredSplit;

/// What a receipt's `GET` view depends on that can change: its `version` (moved by every transition), the
/// card-onramp session (recorded without one), where it is paid (its own deposit address, else the
/// merchant's split contract as it is now), and what tells whether its payment's block and settlement must
/// be read too (status, authority, transaction hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiptStamp {
    pub version: i64,
    pub status: ReceiptStatus,
    pub status_authority: Authority,
    pub payment: Option<PaymentTarget>,
    pub transaction_hash: Option<String>,
    pub onramp_session_id: Option<String>,
    /// The merchant's current split contract, when it has one.
    pub split_address: Option<Wallet>,
}

impl ReceiptStamp {
    /// The stamp of a receipt read in full with its merchant's split.
    pub fn of(receipt: &Receipt, split: Option<&StoredSplit>) -> Self {
        ReceiptStamp {
            version: receipt.version,
            status: receipt.status,
            status_authority: receipt.status_authority,
            payment: receipt.payment,
            transaction_hash: receipt.transaction_hash.clone(),
            onramp_session_id: receipt.onramp.as_ref().map(|session| session.session_id.clone()),
            split_address: split.map(|split| split.address),
        }
    }
}
