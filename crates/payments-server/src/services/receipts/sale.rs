//! What orders and terminal sales share: the split check, the tax rate by the core precedence with the
//! merchant's fee schedule, the `Receipt.amounts`/`tax` record of a priced sale, and the amount ceiling.

use payments_core::{
    FeeSchedule, MAX_USD_CENTS, PricedOrder, PricingError, TaxRate, TaxSelection, Wallet,
    builtin_tax_catalog, resolve_tax_rate_in,
};

use crate::domain::receipt::{OrderError, ReceiptAmounts, ReceiptTax};
use crate::services::shop;
use crate::store::MerchantSnapshot;

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
    /// The receipt's money and tax record for `priced`; a total above the largest amount the platform accepts
    /// is refused before anything is written, so every stored receipt stays readable and payable.
    pub(super) fn record(self, priced: &PricedOrder) -> Result<(ReceiptAmounts, ReceiptTax), OrderError> {
        if priced.total.as_i64() > MAX_USD_CENTS {
            return Err(OrderError::Pricing(PricingError::Overflow));
        }
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
        Ok((amounts, tax))
    }
}

/// Orders and terminal sales pay into the merchant's split: without one they are refused.
pub(super) fn require_split(merchant: &MerchantSnapshot) -> Result<(), OrderError> {
    match merchant.split {
        Some(_) => Ok(()),
        None => Err(OrderError::SplitRequired),
    }
}

/// Resolves the tax rate (explicit rate > jurisdiction > merchant default > 0) with the merchant's fees and
/// jurisdictions as read in the sale's transaction.
pub(super) fn sale_terms(
    merchant: &MerchantSnapshot,
    wallet: Wallet,
    choice: TaxChoice,
) -> Result<SaleTerms, OrderError> {
    let context = shop::pricing_context(merchant.shop.clone(), wallet);
    let selection = TaxSelection {
        explicit_rate: choice.explicit_rate,
        jurisdiction_code: choice.jurisdiction_code.as_deref(),
        component_codes: choice.tax_components.as_deref(),
    };
    let rate = resolve_tax_rate_in(
        selection,
        [context.jurisdictions.as_slice(), builtin_tax_catalog()],
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
