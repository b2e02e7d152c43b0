//! Admin receipt operations: terminal sales (one amount, priced like an order) and refunds (bounded by what
//! was paid, through the state machine, recorded with buyer, items and transaction hash).

use payments_core::{ReceiptEvent, TaxSelection, Wallet, price_terminal, resolve_tax_rate};

use crate::app::AppState;
use crate::domain::receipt::Receipt;
use crate::domain::receipt::{
    NewReceipt, ReceiptAmounts, ReceiptId, ReceiptOptions, ReceiptSource, ReceiptTax, Refund, TerminalSale,
};
use crate::services::receipts::create::{brand_name, insert};
use crate::services::receipts::error::{OrderError, ReceiptError};
use crate::services::receipts::transition::{StatusChange, StatusOutcome, apply_status};
use crate::services::shop;
use crate::store::{self, NewRefund};

/// A `generated` receipt for one amount, taxed as a single taxable line.
pub(crate) async fn create_terminal(
    state: &AppState,
    wallet: Wallet,
    sale: TerminalSale,
) -> Result<Receipt, OrderError> {
    if store::blocking(&state.store, move |store| store.fetch_split(wallet))
        .await?
        .is_none()
    {
        return Err(OrderError::SplitRequired);
    }
    let context = shop::pricing_context(state, wallet).await?;
    let selection = TaxSelection {
        explicit_rate: sale.explicit_rate,
        jurisdiction_code: sale.jurisdiction_code.as_deref(),
        component_codes: sale.tax_components.as_deref(),
    };
    let rate = resolve_tax_rate(
        selection,
        &context.jurisdictions,
        context.default_jurisdiction.as_deref(),
    )
    .map_err(OrderError::Tax)?;
    let priced = price_terminal(sale.amount, &sale.label, rate, context.fees).map_err(OrderError::Pricing)?;
    let id = ReceiptId::generate();
    let jurisdiction_code = match sale.explicit_rate {
        Some(_) => sale.jurisdiction_code,
        None => sale.jurisdiction_code.or(context.default_jurisdiction),
    };
    let receipt = NewReceipt {
        id: id.clone(),
        wallet,
        source: ReceiptSource::Terminal,
        currency: "USD".to_owned(),
        amounts: ReceiptAmounts {
            subtotal: priced.subtotal,
            tax: priced.tax,
            fee: priced.fee,
            total: priced.total,
        },
        line_items: priced.line_items,
        brand_name: brand_name(state, wallet).await?,
        tax: ReceiptTax {
            jurisdiction_code,
            rate: priced.tax_rate,
            components: sale.tax_components.unwrap_or_default(),
        },
        options: ReceiptOptions::default(),
        webhook_url: None,
        // An admin session presents no API key: terminal receipts have no webhook URL to sign for.
        sealed_signing_key: None,
        now_ms: state.clock.now_ms(),
    };
    insert(state, receipt).await?;
    store::blocking(&state.store, move |store| store.fetch_receipt(Some(wallet), &id))
        .await?
        .ok_or_else(|| OrderError::Receipt(ReceiptError::Contended(ReceiptId::generate())))
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
