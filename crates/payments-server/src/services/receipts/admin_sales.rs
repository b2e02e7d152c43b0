//! Admin receipt operations: terminal sales (one amount, priced like an order) and refunds (bounded by what
//! was paid, through the state machine, recorded with buyer, items and transaction hash).

use payments_core::{ReceiptEvent, Wallet, price_terminal};

use crate::app::AppState;
use crate::domain::receipt::{
    NewReceipt, Receipt, ReceiptId, ReceiptOptions, ReceiptSource, Refund, TerminalSale,
};
use crate::domain::receipt::{OrderError, ReceiptError};
use crate::services::receipts::create::brand_name;
use crate::services::receipts::sale::{TaxChoice, insert_and_fetch, require_split, sale_terms};
use crate::services::receipts::transition::{StatusChange, StatusOutcome, apply_status};
use crate::store::NewRefund;

/// A `generated` receipt for one amount, taxed as a single taxable line.
pub(crate) async fn create_terminal(
    state: &AppState,
    wallet: Wallet,
    sale: TerminalSale,
) -> Result<Receipt, OrderError> {
    require_split(state, wallet).await?;
    let choice = TaxChoice {
        explicit_rate: sale.explicit_rate,
        jurisdiction_code: sale.jurisdiction_code,
        tax_components: sale.tax_components,
    };
    let terms = sale_terms(state, wallet, choice).await?;
    let priced =
        price_terminal(sale.amount, &sale.label, terms.rate, terms.fees).map_err(OrderError::Pricing)?;
    let (amounts, tax) = terms.record(&priced);
    let receipt = NewReceipt {
        id: ReceiptId::generate(),
        wallet,
        source: ReceiptSource::Terminal,
        currency: "USD".to_owned(),
        amounts,
        line_items: priced.line_items,
        brand_name: brand_name(state, wallet).await?,
        tax,
        options: ReceiptOptions::default(),
        webhook_url: None,
        // An admin session presents no API key: terminal receipts have no webhook URL to sign for.
        sealed_signing_key: None,
        now_ms: state.clock.now_ms(),
    };
    insert_and_fetch(state, receipt).await
}

/// Refunds part or all of what was paid; `refund_partial` or `refunded`.
pub(crate) async fn refund(
    state: &AppState,
    wallet: Wallet,
    refund: Refund,
    admin: Wallet,
) -> Result<StatusOutcome, ReceiptError> {
    let change = StatusChange {
        transaction_hash: None,
        buyer_wallet: None,
        refund: Some(NewRefund {
            buyer: refund.buyer,
            amount: refund.amount,
            items: refund.items,
            tx_hash: refund.tx_hash,
        }),
        actor: format!("admin:{admin}"),
    };
    let amount = refund.amount;
    apply_status(state, Some(wallet), refund.receipt_id, change, |_| {
        Ok(ReceiptEvent::Refunded { amount })
    })
    .await
}
