//! Test support (feature `testing`), shared by this crate's contract suite (`tests/contract/`), its own
//! unit tests and the server's tests: the fixtures, the images the migrations move, and a few reads the
//! suites repeat.

pub mod fixtures;
pub mod images;
pub mod keeping;

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use payments_core::{Split, SplitRecipient, Wallet};
use payments_domain::inventory::{InventoryItem, InventoryQuery, ProductId};
use payments_domain::receipt::ItemRef;
use payments_domain::split::StoredSplit;

use crate::{ItemUpsert, SaleInputs, SalePlan, UpsertOutcome};
use fixtures::{Repositories, SaleTx, new_receipt, wallet};

/// A listing's time budget generous enough that no test ever meets it.
pub const LIST_BUDGET: Duration = Duration::from_secs(30);

/// Saves a product and returns its id.
pub async fn product_id(repos: &Repositories, upsert: ItemUpsert) -> ProductId {
    match repos.inventory.upsert(&upsert).await {
        Ok(UpsertOutcome::Saved(item)) => item.id,
        other => panic!("product not saved: {other:?}"),
    }
}

/// Every product of a merchant (one page of the largest size).
pub async fn all_items(repos: &Repositories, wallet: Wallet) -> Vec<InventoryItem> {
    let query = InventoryQuery::parse(0, |_| None)
        .unwrap_or_else(|error| panic!("the default listing query is refused: {error:?}"));
    let query = InventoryQuery {
        page_size: 200,
        ..query
    };
    match repos.inventory.list(wallet, &query, LIST_BUDGET).await {
        Ok(page) => page.items,
        Err(error) => panic!("listing the merchant's products: {error}"),
    }
}

/// The split at `address` paying everything to `recipient`.
pub fn split(address: char, recipient: char) -> StoredSplit {
    let split = Split::new(vec![SplitRecipient {
        address: wallet(recipient),
        shares_bps: 10_000,
    }])
    .unwrap_or_else(|error| panic!("a single recipient of 100% is a split: {error:?}"));
    StoredSplit {
        address: wallet(address),
        split,
    }
}

/// Runs a sale whose decision records its inputs and sells a receipt of its own (a refused sale would not
/// do: a backend may drop what it remembers when a transaction rolls back, which would hide a stale memory
/// from the next look).
pub async fn inputs_of_a_sale(repos: &Repositories, merchant: Wallet, items: Vec<ItemRef>) -> SaleInputs {
    let seen: Arc<Mutex<Option<SaleInputs>>> = Arc::default();
    let recorder = Arc::clone(&seen);
    let id = format!("look-{}", uuid::Uuid::new_v4().simple());
    let sale = SaleTx {
        wallet: merchant,
        items,
        claim: None,
        decide: Box::new(move |inputs| {
            *recorder.lock().unwrap_or_else(PoisonError::into_inner) = Some(inputs);
            Ok(SalePlan {
                receipt: new_receipt(merchant, &id, 100),
                reserve: Vec::new(),
            })
        }),
    };
    if let Err(error) = repos.receipts.create(sale).await {
        panic!("the looking sale was refused: {error:?}");
    }
    let inputs = seen.lock().unwrap_or_else(PoisonError::into_inner).take();
    inputs.unwrap_or_else(|| panic!("the sale's decision never ran"))
}
