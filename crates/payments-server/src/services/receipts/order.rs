//! `POST /api/orders`: price the merchant's products with the core rules (tax precedence, platform fee plus
//! the merchant's add-on), reserve their finite stock and store the result as a `generated` receipt with a
//! server-made id, all in one transaction.

use std::collections::BTreeMap;

use payments_core::{PricingItem, price_order};

use crate::domain::inventory::InventoryItem;
use crate::domain::receipt::{ItemRef, NewReceipt, OrderDraft, OrderError, ReceiptId, ReceiptSource};
use crate::domain::subscription::Caller;
use crate::secret::Secret;
use crate::services::idempotency::Outcome;
use crate::services::receipts::sale::{TaxChoice, require_split, sale_terms};
use crate::services::receipts::service::{IdempotencyRequest, ReceiptService, brand_name_of, sale_error};
use crate::store::{Sale, SaleInputs, SalePlan, SaleTx, StockTake};

impl ReceiptService {
    pub(crate) async fn create_order(
        &self,
        caller: &Caller,
        signing_key: Option<&Secret>,
        draft: OrderDraft,
        idempotency: Option<IdempotencyRequest>,
    ) -> Result<Outcome<Sale>, OrderError> {
        let wallet = caller.wallet;
        let id = ReceiptId::generate();
        let sealed_signing_key = self.seal_signing_key(&id, signing_key, draft.webhook_url.as_deref())?;
        let now_ms = self.clock.now_ms();
        let refs: Vec<ItemRef> = draft
            .items
            .iter()
            .map(|(reference, _)| reference.clone())
            .collect();
        let deposits = self.deposits;
        let expires_at = draft
            .payment_window
            .unwrap_or(self.payment_window)
            .expires_at(now_ms);
        let claim = idempotency.map(|request| self.claim(wallet, "orders.create", request));
        let sale = SaleTx {
            wallet,
            items: refs,
            claim: claim.clone(),
            decide: Box::new(move |inputs: SaleInputs| {
                require_split(&inputs.merchant)?;
                let (items, reserve) = priced_lines(&draft, inputs.items)?;
                let choice = TaxChoice {
                    explicit_rate: draft.explicit_rate,
                    jurisdiction_code: draft.jurisdiction_code,
                    tax_components: draft.tax_components,
                };
                let terms = sale_terms(&inputs.merchant, wallet, choice)?;
                let priced = price_order(&items, terms.rate, terms.fees).map_err(OrderError::Pricing)?;
                let (amounts, tax) = terms.record(&priced)?;
                let payment = deposits.target(&inputs.merchant, wallet, &id);
                let receipt = NewReceipt {
                    sealed_signing_key,
                    id,
                    wallet,
                    source: ReceiptSource::Order,
                    currency: "USD".to_owned(),
                    amounts,
                    line_items: priced.line_items,
                    brand_name: brand_name_of(&inputs.merchant),
                    tax,
                    options: draft.options,
                    webhook_url: draft.webhook_url,
                    payment,
                    expires_at,
                    now_ms,
                };
                Ok(SalePlan { receipt, reserve })
            }),
        };
        let committed = self.receipts.create(sale).await.map_err(sale_error)?;
        Ok(Outcome::new(committed, claim))
    }
}

/// The order's pricing lines and the finite stock it reserves, summed per product over the order's lines so
/// that three lines of 5 against a stock of 5 are refused. `stockQty` 0 is out of stock; -1 is unlimited.
fn priced_lines(
    draft: &OrderDraft,
    found: Vec<Option<InventoryItem>>,
) -> Result<(Vec<PricingItem>, Vec<StockTake>), OrderError> {
    let mut items = Vec::with_capacity(found.len());
    let mut wanted: BTreeMap<String, (String, i64, u32)> = BTreeMap::new();
    for ((reference, qty), product) in draft.items.iter().zip(found) {
        let product = product.ok_or_else(|| OrderError::ItemNotFound(reference.describe()))?;
        let stock = product.fields.stock_qty;
        if stock >= 0 {
            let entry = wanted
                .entry(product.id.as_str().to_owned())
                .or_insert_with(|| (product.fields.sku.as_str().to_owned(), stock, 0));
            entry.2 = entry.2.saturating_add(*qty);
        }
        items.push(pricing_item(product, *qty));
    }
    let mut reserve = Vec::with_capacity(wanted.len());
    for (item_id, (sku, available, qty)) in wanted {
        if available < i64::from(qty) || available == 0 {
            return Err(OrderError::OutOfStock { sku, available });
        }
        reserve.push(StockTake { item_id, qty });
    }
    Ok((items, reserve))
}

fn pricing_item(product: InventoryItem, qty: u32) -> PricingItem {
    PricingItem {
        item_id: Some(product.id.as_str().to_owned()),
        sku: Some(product.fields.sku.as_str().to_owned()),
        label: product.fields.name,
        unit_price: product.fields.price_usd,
        qty,
        taxable: product.fields.taxable,
        thumb: None,
    }
}
