//! Order and terminal pricing, by the one rule in ARCHITECTURE.md:
//!
//! `subtotal = sum(unit * qty)`; `tax = round_half_up(taxable_subtotal * rate)`;
//! `fee = round_half_up((subtotal + tax) * (platform_base_pct + merchant_add_on_pct) / 100)`;
//! `total = subtotal + tax + fee`. `Tax` and `Processing Fee` lines are added only when non-zero.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::money::{Cents, MoneyError};
use crate::rate::{FeePct, TaxRate};

/// The label of the tax line.
pub const TAX_LINE_LABEL: &str = "Tax";
/// The label of the processing-fee line.
pub const FEE_LINE_LABEL: &str = "Processing Fee";
/// The largest quantity of one item in an order.
pub const MAX_QUANTITY: u32 = 1_000_000;
/// The most items in one order.
pub const MAX_ORDER_ITEMS: usize = 200;

/// One product in an order, as priced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PricingItem {
    /// Product id.
    pub item_id: Option<String>,
    /// Product SKU.
    pub sku: Option<String>,
    /// Line label (the product name).
    pub label: String,
    /// Price of one unit.
    pub unit_price: Cents,
    /// Quantity, 1..=[`MAX_QUANTITY`].
    pub qty: u32,
    /// Whether tax applies to this item.
    pub taxable: bool,
    /// Thumbnail (a data URL), echoed on the line.
    pub thumb: Option<String>,
}

/// The fee rates that apply to a merchant: the platform base plus the merchant's add-on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeeSchedule {
    /// The platform's base percentage (0.5 by default).
    pub platform_base: FeePct,
    /// The merchant's add-on percentage from shop settings.
    pub merchant_add_on: FeePct,
}

impl Default for FeeSchedule {
    fn default() -> Self {
        FeeSchedule {
            platform_base: FeePct::PLATFORM_BASE,
            merchant_add_on: FeePct::ZERO,
        }
    }
}

impl FeeSchedule {
    /// The percentage charged: base + add-on.
    pub fn effective(self) -> FeePct {
        self.platform_base.plus(self.merchant_add_on)
    }
}

/// A receipt line as it appears on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LineItem {
    /// What the line is.
    pub label: String,
    /// The line total (unit price x qty for products).
    pub price_usd: Cents,
    /// Quantity (product lines only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qty: Option<u32>,
    /// Price of one unit (product lines only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_price_usd: Option<Cents>,
    /// Product id (product lines only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_id: Option<String>,
    /// Product SKU (product lines only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sku: Option<String>,
    /// Thumbnail data URL (product lines only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thumb: Option<String>,
}

impl LineItem {
    fn charge(label: &str, amount: Cents) -> LineItem {
        LineItem {
            label: label.to_owned(),
            price_usd: amount,
            qty: None,
            unit_price_usd: None,
            item_id: None,
            sku: None,
            thumb: None,
        }
    }
}

/// A priced order: its lines and totals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PricedOrder {
    /// Product lines, then `Tax` and `Processing Fee` when non-zero.
    pub line_items: Vec<LineItem>,
    /// Sum of product lines.
    pub subtotal: Cents,
    /// Tax on the taxable product lines.
    pub tax: Cents,
    /// Processing fee on subtotal + tax.
    pub fee: Cents,
    /// subtotal + tax + fee.
    pub total: Cents,
    /// The tax rate applied.
    pub tax_rate: TaxRate,
    /// The fee percentage applied.
    pub fee_pct: FeePct,
}

/// Why an order could not be priced.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PricingError {
    /// No items.
    #[error("an order needs at least one item")]
    NoItems,
    /// Too many items.
    #[error("an order has at most {max} items, got {count}")]
    TooManyItems {
        /// Items received.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A quantity outside 1..=MAX_QUANTITY.
    #[error("item {index}: qty must be between 1 and {max}, got {qty}")]
    InvalidQuantity {
        /// Position of the item in the order.
        index: usize,
        /// The quantity received.
        qty: u64,
        /// The limit.
        max: u32,
    },
    /// A terminal amount of zero.
    #[error("amount must be greater than 0")]
    ZeroAmount,
    /// The totals do not fit.
    #[error("order total is too large")]
    Overflow,
}

impl From<MoneyError> for PricingError {
    fn from(_: MoneyError) -> Self {
        PricingError::Overflow
    }
}

/// Prices an order.
///
/// # Errors
/// [`PricingError::NoItems`], [`PricingError::TooManyItems`], [`PricingError::InvalidQuantity`],
/// [`PricingError::Overflow`].
pub fn price_order(
    items: &[PricingItem],
    tax_rate: TaxRate,
    fees: FeeSchedule,
) -> Result<PricedOrder, PricingError> {
    if items.is_empty() {
        return Err(PricingError::NoItems);
    }
    if items.len() > MAX_ORDER_ITEMS {
        return Err(PricingError::TooManyItems {
            count: items.len(),
            max: MAX_ORDER_ITEMS,
        });
    }
    let mut lines = Vec::with_capacity(items.len() + 2);
    let (mut subtotal, mut taxable) = (Cents::ZERO, Cents::ZERO);
    for (index, item) in items.iter().enumerate() {
        if item.qty == 0 || item.qty > MAX_QUANTITY {
            return Err(PricingError::InvalidQuantity {
                index,
                qty: item.qty.into(),
                max: MAX_QUANTITY,
            });
        }
        let line_total = item.unit_price.checked_mul(i64::from(item.qty))?;
        subtotal = subtotal.checked_add(line_total)?;
        if item.taxable {
            taxable = taxable.checked_add(line_total)?;
        }
        lines.push(LineItem {
            label: item.label.clone(),
            price_usd: line_total,
            qty: Some(item.qty),
            unit_price_usd: Some(item.unit_price),
            item_id: item.item_id.clone(),
            sku: item.sku.clone(),
            thumb: item.thumb.clone(),
        });
    }
    finish(lines, subtotal, taxable, tax_rate, fees)
}

/// Prices a terminal sale: one taxable amount with a label, under the same tax and fee rules.
///
/// # Errors
/// [`PricingError::ZeroAmount`], [`PricingError::Overflow`].
pub fn price_terminal(
    amount: Cents,
    label: &str,
    tax_rate: TaxRate,
    fees: FeeSchedule,
) -> Result<PricedOrder, PricingError> {
    if amount <= Cents::ZERO {
        return Err(PricingError::ZeroAmount);
    }
    let mut line = LineItem::charge(label, amount);
    line.qty = Some(1);
    line.unit_price_usd = Some(amount);
    finish(vec![line], amount, amount, tax_rate, fees)
}

fn finish(
    mut lines: Vec<LineItem>,
    subtotal: Cents,
    taxable: Cents,
    tax_rate: TaxRate,
    fees: FeeSchedule,
) -> Result<PricedOrder, PricingError> {
    let tax = tax_rate.apply(taxable).ok_or(PricingError::Overflow)?;
    let fee_pct = fees.effective();
    let fee = fee_pct
        .apply(subtotal.checked_add(tax)?)
        .ok_or(PricingError::Overflow)?;
    let total = Cents::checked_sum([subtotal, tax, fee])?;
    if tax > Cents::ZERO {
        lines.push(LineItem::charge(TAX_LINE_LABEL, tax));
    }
    if fee > Cents::ZERO {
        lines.push(LineItem::charge(FEE_LINE_LABEL, fee));
    }
    Ok(PricedOrder {
        line_items: lines,
        subtotal,
        tax,
        fee,
        total,
        tax_rate,
        fee_pct,
    })
}

#[cfg(test)]
#[path = "pricing_tests.rs"]
mod tests;
