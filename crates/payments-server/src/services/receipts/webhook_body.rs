//! The `receipt.status_updated` body of a transition, serialized once: the outbox keeps these exact bytes.

use payments_core::{PaymentBlock, RECEIPT_STATUS_UPDATED, ReceiptStatus, ReceiptStatusUpdated, Wallet};

use crate::domain::receipt::Receipt;

/// Symbol of the payment token named in webhooks.
const TOKEN: &str = "USDC";

/// The receipt as it is after the transition to `to`.
pub(super) fn body(
    receipt: &Receipt,
    previous: ReceiptStatus,
    buyer: Option<Wallet>,
    payment_block: Option<&PaymentBlock>,
    now_ms: i64,
    shop_brand_key: Option<&str>,
) -> Vec<u8> {
    let failure = receipt.failure.as_ref();
    let event = ReceiptStatusUpdated {
        event: RECEIPT_STATUS_UPDATED.to_owned(),
        receipt_id: receipt.id.as_str().to_owned(),
        status: receipt.status,
        previous_status: previous,
        failure_code: failure.map(|f| f.failure_code.clone()),
        failure_category: failure.map(|f| f.failure_category),
        failure_reason: failure.map(|f| f.failure_reason.clone()),
        failure_action: failure.map(|f| f.failure_action.clone()),
        transaction_hash: receipt.transaction_hash.clone(),
        buyer_wallet: buyer.or(receipt.buyer_wallet),
        merchant_wallet: receipt.wallet,
        total_usd: receipt.amounts.total,
        token: TOKEN.to_owned(),
        onramp_session_id: receipt.onramp.as_ref().map(|session| session.session_id.clone()),
        // Every session is created for one receipt (its own deposit address and amount), never shared.
        is_onramp_session_unique: receipt.onramp.is_some(),
        transaction_id: receipt.options.transaction_id.clone(),
        metadata: receipt.options.metadata.clone().map(serde_json::Value::Object),
        timestamp: now_ms,
        brand_key: shop_brand_key.map_or_else(|| brand_key(receipt), str::to_owned),
        paid_late: receipt.paid_late,
        balance: receipt.balance(),
        // Only while the chain's payment stands: a failed (reorganised) receipt has no paying block.
        payment: payment_block.filter(|_| receipt.status.is_settled()).cloned(),
    };
    // Serializing plain owned data cannot fail; an empty body would fail verification loudly anyway.
    serde_json::to_vec(&event).unwrap_or_default()
}

/// Without the shop's `brandKey` setting: the brand name as a slug (`Development Shop` -> `development-shop`); the merchant wallet when unbranded.
fn brand_key(receipt: &Receipt) -> String {
    let slug: String = receipt
        .brand_name
        .to_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if slug.is_empty() {
        receipt.wallet.to_string()
    } else {
        slug
    }
}
