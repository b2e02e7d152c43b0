//! `POST /api/orders`: price the merchant's products with the core rules (tax precedence, platform fee plus
//! the merchant's add-on) and store the result as a `generated` receipt with a server-made id.

use payments_core::{PricingItem, TaxSelection, price_order, resolve_tax_rate};

use crate::app::AppState;
use crate::domain::inventory::InventoryItem;
use crate::domain::receipt::{
    NewReceipt, OrderDraft, Receipt, ReceiptAmounts, ReceiptId, ReceiptSource, ReceiptTax,
};
use crate::domain::subscription::Caller;
use crate::secret::Secret;
use crate::services::receipts::create::{brand_name, insert, seal_signing_key};
use crate::services::receipts::error::{OrderError, ReceiptError};
use crate::services::shop;
use crate::store;

pub(crate) async fn create_order(
    state: &AppState,
    caller: &Caller,
    signing_key: Option<&Secret>,
    draft: OrderDraft,
) -> Result<Receipt, OrderError> {
    let wallet = caller.wallet;
    if store::blocking(&state.store, move |store| store.fetch_split(wallet))
        .await?
        .is_none()
    {
        return Err(OrderError::SplitRequired);
    }
    let refs: Vec<_> = draft
        .items
        .iter()
        .map(|(reference, _)| reference.clone())
        .collect();
    let lookup = refs.clone();
    let found = store::blocking(&state.store, move |store| {
        store.fetch_order_items(wallet, &lookup)
    })
    .await?;
    let mut items = Vec::with_capacity(found.len());
    for ((reference, qty), product) in draft.items.iter().zip(found) {
        let product = product.ok_or_else(|| OrderError::ItemNotFound(reference.describe()))?;
        check_stock(&product, *qty)?;
        items.push(pricing_item(product, *qty));
    }
    let context = shop::pricing_context(state, wallet).await?;
    let selection = TaxSelection {
        explicit_rate: draft.explicit_rate,
        jurisdiction_code: draft.jurisdiction_code.as_deref(),
        component_codes: draft.tax_components.as_deref(),
    };
    let rate = resolve_tax_rate(
        selection,
        &context.jurisdictions,
        context.default_jurisdiction.as_deref(),
    )
    .map_err(OrderError::Tax)?;
    let priced = price_order(&items, rate, context.fees).map_err(OrderError::Pricing)?;
    let id = ReceiptId::generate();
    let jurisdiction_code = match draft.explicit_rate {
        Some(_) => draft.jurisdiction_code,
        None => draft.jurisdiction_code.or(context.default_jurisdiction),
    };
    let receipt = NewReceipt {
        sealed_signing_key: seal_signing_key(state, &id, signing_key, draft.webhook_url.as_deref())?,
        id: id.clone(),
        wallet,
        source: ReceiptSource::Order,
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
            components: draft.tax_components.unwrap_or_default(),
        },
        options: draft.options,
        webhook_url: draft.webhook_url,
        now_ms: state.clock.now_ms(),
    };
    insert(state, receipt).await?;
    store::blocking(&state.store, move |store| store.fetch_receipt(Some(wallet), &id))
        .await?
        .ok_or_else(|| OrderError::Receipt(ReceiptError::Contended(ReceiptId::generate())))
}

/// `stockQty` 0 is out of stock; finite stock must cover the quantity; -1 is unlimited.
fn check_stock(product: &InventoryItem, qty: u32) -> Result<(), OrderError> {
    let stock = product.fields.stock_qty;
    if stock == 0 || (stock > 0 && stock < i64::from(qty)) {
        return Err(OrderError::OutOfStock {
            sku: product.fields.sku.as_str().to_owned(),
            available: stock,
        });
    }
    Ok(())
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
