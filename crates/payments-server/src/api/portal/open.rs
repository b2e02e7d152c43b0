//! The payment page's two uses of a receipt: reading it for the page (which changes nothing, whoever asks:
//! link previewers fetch pages too), and the buyer's "Continue to payment" button, which records
//! `link_opened` through the receipt state machine with the buyer's authority (the lowest: it cannot undo
//! a failure the merchant reported, nor anything after payment).

use payments_core::{
    Cents, FEE_LINE_LABEL, LineItem, PaymentRequest, ReceiptBalance, TAX_LINE_LABEL, Wallet,
};

use crate::api::portal::view::{PaymentWindowState, PortalLine, PortalView, https_only};
use crate::domain::receipt::{Receipt, ReceiptId};
use crate::http::state::AppState;
use crate::services::receipts::{ReceiptError, accepted_or_refused};

/// The page of receipt `id` of `merchant` (the payment link's `merchant` parameter; without it the id must
/// name a single merchant's receipt) as it stands, or `None` when there is no such receipt.
///
/// # Errors
/// A datastore failure.
pub(crate) async fn view(
    state: &AppState,
    merchant: Option<Wallet>,
    id: ReceiptId,
) -> Result<Option<PortalView>, ReceiptError> {
    let Some(found) = state.services.receipts.fetch_for_portal(merchant, id).await? else {
        return Ok(None);
    };
    let config = &state.config;
    let mut view = view_of(
        &found.receipt,
        found.brand_name,
        found.recipient,
        config.token_address,
        config.chain_id,
        state.services.chain.is_test_mode(),
        state.clock.now_ms(),
    );
    view.card_onramp = state
        .services
        .onramp
        .as_ref()
        .filter(|_| view.wallet_checkout)
        .map(|onramp| onramp.provider());
    Ok(Some(view))
}

/// The buyer asked to see how to pay: `link_opened`, with its history row and webhook. `false` when there
/// is no such receipt.
///
/// # Errors
/// A datastore failure. A change the state machine or the buyer's authority refuses (a failed receipt
/// stays failed, a paid one paid) is not an error: the buyer is shown the receipt as it is.
pub(crate) async fn record_opened(
    state: &AppState,
    merchant: Option<Wallet>,
    id: ReceiptId,
) -> Result<bool, ReceiptError> {
    let receipts = &state.services.receipts;
    let Some(found) = receipts.fetch_for_portal(merchant, id.clone()).await? else {
        return Ok(false);
    };
    accepted_or_refused(
        receipts
            .record_link_opened(found.receipt.wallet, id)
            .await
            .map(|_| ()),
    )
}

/// Test mode: the buyer's "Simulate payment" button pays the receipt's deposit on the simulated chain and wakes
/// the deposit watcher, which then detects it like any transfer. `false` (the not-found page) when there is no
/// such receipt, it has no deposit, or the server runs a real chain.
///
/// # Errors
/// A datastore failure, or the simulated chain refusing.
pub(crate) async fn simulate_payment(
    state: &AppState,
    merchant: Option<Wallet>,
    id: ReceiptId,
) -> Result<bool, ReceiptError> {
    let services = &state.services;
    if !services.chain.is_test_mode() {
        return Ok(false);
    }
    let Some(found) = services.receipts.fetch_for_portal(merchant, id).await? else {
        return Ok(false);
    };
    let (Some(target), Ok(total)) = (
        found.receipt.payment,
        found.receipt.amounts.total.to_token_amount(),
    ) else {
        return Ok(false);
    };
    let amount = remainder_due(&found.receipt).map_or(total, |balance| balance.due);
    if found.receipt.paid == Cents::ZERO {
        services
            .chain
            .simulate_payment(state.config.token_address, target.to, amount)
            .await
            .map_err(|error| ReceiptError::Unexpected(error.to_string()))?;
        if let Some(workers) = &services.chain_workers {
            workers.wakeup.notify_one();
        }
    }
    Ok(true)
}

/// The view of a receipt paid to `recipient` in `token` on `chain_id`.
pub(crate) fn view_of(
    receipt: &Receipt,
    brand_name: String,
    recipient: Wallet,
    token: Wallet,
    chain_id: u64,
    test_mode: bool,
    now_ms: i64,
) -> PortalView {
    let amounts = receipt.amounts;
    let unpaid = receipt.paid == Cents::ZERO && !receipt.status.is_settled();
    let underpaid = remainder_due(receipt);
    PortalView {
        receipt_id: receipt.id.as_str().to_owned(),
        brand_name,
        status: receipt.status,
        lines: receipt
            .line_items
            .iter()
            .filter(|line| !is_priced_charge(line))
            .map(|line| PortalLine {
                label: line.label.clone(),
                qty: line.qty,
                price: line.price_usd,
            })
            .collect(),
        tax: amounts.tax,
        fee: amounts.fee,
        total: amounts.total,
        payment: PaymentRequest::for_total(token, chain_id, recipient, amounts.total)
            .ok()
            .map(|request| PaymentRequest {
                amount: underpaid.map_or(request.amount, |balance| balance.due),
                ..request
            }),
        failure: receipt.failure.clone(),
        transaction_hash: receipt.transaction_hash.clone(),
        merchant: receipt.wallet,
        test_mode,
        wallet_checkout: receipt.payment.is_some_and(|target| target.to == recipient),
        redirect_url: https_only(receipt.options.redirect_url.as_deref()),
        card_onramp: None,
        window: PaymentWindowState::at(receipt.expires_at, unpaid, receipt.expired, now_ms),
        underpaid,
    }
}

/// The balance of an unpaid receipt part of whose total arrived: the page and a simulated payment ask for
/// exactly the rest.
fn remainder_due(receipt: &Receipt) -> Option<ReceiptBalance> {
    receipt.balance().filter(|balance| {
        receipt.paid == Cents::ZERO && balance.received.base_units() > 0 && !balance.is_covered()
    })
}

/// The tax and processing-fee lines pricing adds to order receipts; the page shows them from the amounts.
fn is_priced_charge(line: &LineItem) -> bool {
    line.qty.is_none()
        && line.item_id.is_none()
        && (line.label == TAX_LINE_LABEL || line.label == FEE_LINE_LABEL)
}
