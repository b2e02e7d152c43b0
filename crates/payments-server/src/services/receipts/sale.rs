//! What orders and terminal sales share: the split check, the tax rate by the core precedence with the
//! merchant's fee schedule, the `Receipt.amounts`/`tax` record of a priced sale, and storing it.

use payments_core::{FeeSchedule, PricedOrder, TaxRate, TaxSelection, Wallet, resolve_tax_rate};

use crate::app::AppState;
use crate::domain::receipt::{NewReceipt, Receipt, ReceiptAmounts, ReceiptTax};
use crate::domain::receipt::{OrderError, ReceiptError};
use crate::services::receipts::create::insert;
use crate::services::shop;
use crate::store;

/// The tax choices a caller sent with an order or a terminal sale.
#[derive(Debug, Clone, Default)]
pub(super) struct TaxChoice {
    pub(super) explicit_rate: Option<TaxRate>,
    pub(super) jurisdiction_code: Option<String>,
    pub(super) tax_components: Option<Vec<String>>,
}

/// The rate and fees to price a sale with, and the jurisdiction to record on its receipt.
#[derive(Debug)]
pub(super) struct SaleTerms {
    pub(super) rate: TaxRate,
    pub(super) fees: FeeSchedule,
    /// The caller's jurisdiction, else (when no explicit rate was sent) the merchant's default.
    jurisdiction_code: Option<String>,
    components: Vec<String>,
}

impl SaleTerms {
    /// The receipt's money and tax record for `priced`.
    pub(super) fn record(self, priced: &PricedOrder) -> (ReceiptAmounts, ReceiptTax) {
        let amounts = ReceiptAmounts {
            subtotal: priced.subtotal,
            tax: priced.tax,
            fee: priced.fee,
            total: priced.total,
        };
        let tax = ReceiptTax {
            jurisdiction_code: self.jurisdiction_code,
            rate: priced.tax_rate,
            components: self.components,
        };
        (amounts, tax)
    }
}

/// Orders and terminal sales pay into the merchant's split: without one they are refused.
pub(super) async fn require_split(state: &AppState, wallet: Wallet) -> Result<(), OrderError> {
    match store::blocking(&state.store, move |store| store.fetch_split(wallet)).await? {
        Some(_) => Ok(()),
        None => Err(OrderError::SplitRequired),
    }
}

/// Reads the merchant's fees and jurisdictions and resolves the tax rate (explicit rate > jurisdiction >
/// merchant default > 0).
pub(super) async fn sale_terms(
    state: &AppState,
    wallet: Wallet,
    choice: TaxChoice,
) -> Result<SaleTerms, OrderError> {
    let context = shop::pricing_context(state, wallet).await?;
    let selection = TaxSelection {
        explicit_rate: choice.explicit_rate,
        jurisdiction_code: choice.jurisdiction_code.as_deref(),
        component_codes: choice.tax_components.as_deref(),
    };
    let rate = resolve_tax_rate(
        selection,
        &context.jurisdictions,
        context.default_jurisdiction.as_deref(),
    )
    .map_err(OrderError::Tax)?;
    let jurisdiction_code = match choice.explicit_rate {
        Some(_) => choice.jurisdiction_code,
        None => choice.jurisdiction_code.or(context.default_jurisdiction),
    };
    Ok(SaleTerms {
        rate,
        fees: context.fees,
        jurisdiction_code,
        components: choice.tax_components.unwrap_or_default(),
    })
}

/// Stores a new sale receipt (server-made id) and reads it back as the response shows it.
pub(super) async fn insert_and_fetch(state: &AppState, receipt: NewReceipt) -> Result<Receipt, OrderError> {
    let (id, wallet) = (receipt.id.clone(), receipt.wallet);
    insert(state, receipt).await?;
    let lookup = id.clone();
    store::blocking(&state.store, move |store| {
        store.fetch_receipt(Some(wallet), &lookup)
    })
    .await?
    .ok_or(OrderError::Receipt(ReceiptError::Contended(id)))
}
