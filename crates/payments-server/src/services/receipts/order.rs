//! `POST /api/orders`: price the merchant's products with the core rules (tax precedence, platform fee plus
//! the merchant's add-on) and store the result as a `generated` receipt with a server-made id.

use payments_core::{PricingItem, price_order};

use crate::app::AppState;
use crate::domain::inventory::InventoryItem;
use crate::domain::receipt::OrderError;
use crate::domain::receipt::{NewReceipt, OrderDraft, Receipt, ReceiptId, ReceiptSource};
use crate::domain::subscription::Caller;
use crate::secret::Secret;
use crate::services::receipts::create::{brand_name, seal_signing_key};
use crate::services::receipts::sale::{TaxChoice, insert_and_fetch, require_split, sale_terms};
use crate::store;

pub(crate) async fn create_order(
    state: &AppState,
    caller: &Caller,
    signing_key: Option<&Secret>,
    draft: OrderDraft,
) -> Result<Receipt, OrderError> {
    let wallet = caller.wallet;
    require_split(state, wallet).await?;
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
    let terms = sale_terms(
        state,
        wallet,
        TaxChoice {
            explicit_rate: draft.explicit_rate,
            jurisdiction_code: draft.jurisdiction_code,
            tax_components: draft.tax_components,
        },
    )
    .await?;
    let priced = price_order(&items, terms.rate, terms.fees).map_err(OrderError::Pricing)?;
    let (amounts, tax) = terms.record(&priced);
    let id = ReceiptId::generate();
    let receipt = NewReceipt {
        sealed_signing_key: seal_signing_key(state, &id, signing_key, draft.webhook_url.as_deref())?,
        id,
        wallet,
        source: ReceiptSource::Order,
        currency: "USD".to_owned(),
        amounts,
        line_items: priced.line_items,
        brand_name: brand_name(state, wallet).await?,
        tax,
        options: draft.options,
        webhook_url: draft.webhook_url,
        now_ms: state.clock.now_ms(),
    };
    insert_and_fetch(state, receipt).await
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
