//! Reading receipts and their webhook deliveries.

use payments_core::{Authority, PaymentBlock, ReceiptStatus, Wallet};

use crate::domain::page_cursor::ReceiptKey;
use crate::domain::receipt::{Receipt, ReceiptError, ReceiptId};
use crate::services::receipts::service::{ReceiptService, pay_to};
use crate::store::{DeliveryLog, MerchantSnapshot, ReceiptFilter, SettlementState, StoreError};

/// A page of a merchant's receipts, newest first; `degraded` when the datastore is down (the list is then
/// empty and has no next page).
#[derive(Debug)]
pub(crate) struct ReceiptListing {
    pub(crate) receipts: Vec<Receipt>,
    pub(crate) next: Option<ReceiptKey>,
    pub(crate) degraded: bool,
}

/// What the payment page shows: the receipt, the brand and the address to pay.
#[derive(Debug, Clone)]
pub(crate) struct PortalView {
    pub(crate) receipt: Receipt,
    pub(crate) brand_name: String,
    pub(crate) recipient: Wallet,
}

/// A receipt as its merchant reads it: where it is paid, and how its settlement is going.
#[derive(Debug, Clone)]
pub(crate) struct PayableReceipt {
    pub(crate) receipt: Receipt,
    /// The address buyers pay (the deposit, or the split for receipts from before deposits).
    pub(crate) recipient: Wallet,
    /// Failed settlement attempts of a paid receipt, if any.
    pub(crate) settlement: Option<SettlementState>,
    /// Where its payment stands on chain, while the chain's payment stands.
    pub(crate) payment_block: Option<PaymentBlock>,
}

impl ReceiptService {
    pub(crate) async fn fetch(&self, wallet: Wallet, id: ReceiptId) -> Result<Receipt, ReceiptError> {
        self.receipts
            .fetch(Some(wallet), &id)
            .await?
            .ok_or(ReceiptError::NotFound(id))
    }

    /// A merchant's receipt and the address its payment link names, read together.
    pub(crate) async fn fetch_payable(
        &self,
        wallet: Wallet,
        id: ReceiptId,
    ) -> Result<PayableReceipt, ReceiptError> {
        let (receipt, split) = self
            .receipts
            .fetch_with_split(Some(wallet), &id)
            .await?
            .ok_or(ReceiptError::NotFound(id))?;
        let recipient = pay_to(&receipt, &MerchantSnapshot { split, shop: None });
        let settlement = match awaiting_settlement(receipt.status, receipt.status_authority) {
            true => self.chain_records.fetch_settlement(wallet, &receipt.id).await?,
            false => None,
        };
        let payment_block = self.payment_block_of(&receipt).await?;
        Ok(PayableReceipt {
            receipt,
            recipient,
            settlement,
            payment_block,
        })
    }

    /// The list, or its degraded form while the datastore is unavailable or locked (a merchant's dashboard
    /// keeps rendering; writes are refused meanwhile).
    pub(crate) async fn list(
        &self,
        wallet: Wallet,
        limit: u32,
        after: Option<ReceiptKey>,
        filter: ReceiptFilter,
    ) -> Result<ReceiptListing, ReceiptError> {
        match self.receipts.list_page(wallet, limit, after, filter).await {
            Ok(page) => Ok(ReceiptListing {
                receipts: page.receipts,
                next: page.next,
                degraded: false,
            }),
            Err(StoreError::Unavailable(reason) | StoreError::Busy(reason)) => {
                tracing::warn!(reason = %reason, "receipts listed in degraded mode");
                Ok(ReceiptListing {
                    receipts: Vec::new(),
                    next: None,
                    degraded: true,
                })
            }
            Err(other) => Err(other.into()),
        }
    }

    /// The payment page's lookup (the link is the capability). Ids are unique per merchant, so the link's
    /// `merchant` names the receipt; without it the id alone names one only when a single merchant has it.
    pub(crate) async fn fetch_for_portal(
        &self,
        merchant: Option<Wallet>,
        id: ReceiptId,
    ) -> Result<Option<PortalView>, ReceiptError> {
        let Some((receipt, split)) = self.receipts.fetch_with_split(merchant, &id).await? else {
            return Ok(None);
        };
        let recipient = pay_to(&receipt, &MerchantSnapshot { split, shop: None });
        Ok(Some(PortalView {
            brand_name: receipt.brand_name.clone(),
            recipient,
            receipt,
        }))
    }

    pub(crate) async fn list_deliveries(
        &self,
        wallet: Wallet,
        id: ReceiptId,
    ) -> Result<Vec<DeliveryLog>, ReceiptError> {
        self.outbox
            .list_deliveries(wallet, &id)
            .await?
            .ok_or(ReceiptError::NotFound(id))
    }

    /// Enqueues a delivery's same body again.
    pub(crate) async fn redeliver(
        &self,
        wallet: Wallet,
        id: ReceiptId,
        delivery: String,
    ) -> Result<(), ReceiptError> {
        let found = self
            .outbox
            .redeliver(wallet, &id, &delivery, self.clock.now_ms())
            .await?;
        if found {
            self.wakeup.notify_one();
            Ok(())
        } else {
            Err(ReceiptError::DeliveryNotFound {
                receipt: id,
                delivery,
            })
        }
    }
}

/// Only a receipt the chain paid and settlement has not completed can have failed attempts to show.
pub(super) fn awaiting_settlement(status: ReceiptStatus, authority: Authority) -> bool {
    status == ReceiptStatus::Paid && authority == Authority::Chain
}
