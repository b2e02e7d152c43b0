//! Whether a merchant's receipt view rendered earlier still shows the receipt as stored, told from the
//! receipt's stamp (a narrow read) instead of the whole receipt: the edge's body cache asks this first.

use payments_core::{PaymentBlock, Wallet};

use crate::domain::receipt::{ReceiptError, ReceiptId};
use crate::services::receipts::read::{PayableReceipt, awaiting_settlement};
use crate::services::receipts::service::{ReceiptService, paid_at};

/// What a receipt's view shows that can change, besides the server's configuration: the receipt's version
/// (every transition moves it), its card-onramp session (recorded without a transition), the address its
/// payment link names (the merchant's split can change) and its payment's block and depth (the chain moves
/// them). Two reads with equal stamps render the same body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ViewStamp {
    version: i64,
    onramp_session: Option<String>,
    recipient: Wallet,
    payment_block: Option<PaymentBlock>,
}

impl PayableReceipt {
    /// The stamp of this read; `None` while it shows failed settlement attempts, which change without the
    /// receipt (such a view is always rendered afresh).
    pub(crate) fn view_stamp(&self) -> Option<ViewStamp> {
        if self.settlement.is_some() {
            return None;
        }
        Some(ViewStamp {
            version: self.receipt.version,
            onramp_session: self
                .receipt
                .onramp
                .as_ref()
                .map(|session| session.session_id.clone()),
            recipient: self.recipient,
            payment_block: self.payment_block.clone(),
        })
    }
}

impl ReceiptService {
    /// The stamp of a merchant's receipt as stored now, read without the receipt. `Ok(None)` when its view
    /// may show settlement attempts: read it in full ([`Self::fetch_payable`]).
    ///
    /// # Errors
    /// `NotFound` when the merchant has no such receipt; the store's failure.
    pub(crate) async fn view_stamp(
        &self,
        wallet: Wallet,
        id: &ReceiptId,
    ) -> Result<Option<ViewStamp>, ReceiptError> {
        let stamp = self
            .receipts
            .fetch_stamp(wallet, id)
            .await?
            .ok_or_else(|| ReceiptError::NotFound(id.clone()))?;
        if awaiting_settlement(stamp.status, stamp.status_authority) {
            return Ok(None);
        }
        let payment_block = self
            .payment_block_at(stamp.payment, stamp.transaction_hash.as_deref(), stamp.status)
            .await?;
        Ok(Some(ViewStamp {
            version: stamp.version,
            onramp_session: stamp.onramp_session_id,
            recipient: paid_at(stamp.payment, stamp.split_address, wallet),
            payment_block,
        }))
    }
}
