//! `list_all_receipts` and `list_all_inventory`: every row once, page after page, also while rows are
//! created during the walk; a cursor the service did not give is an `invalid_input` on `cursor`.

use std::collections::HashSet;
use std::time::Duration;

use futures_util::{StreamExt as _, TryStreamExt as _};
use payments_client::{
    CreateReceipt, Error, ErrorCode, InventoryQuery, ReceiptLine, SortField, SortOrder, UpsertInventoryItem,
};
use payments_core::Cents;
use payments_server::testing::spawn_app;

use crate::helpers::client;

fn receipt(id: &str) -> CreateReceipt {
    let line = ReceiptLine {
        label: "Tea".to_owned(),
        price_usd: Cents::new(300),
        qty: None,
    };
    CreateReceipt::new(id, vec![line])
}

#[tokio::test]
async fn list_all_receipts_yields_every_receipt_once_while_new_ones_are_created() {
    let app = spawn_app().await;
    let client = client(&app);
    for n in 1..=7 {
        client.create_receipt(&receipt(&format!("r-{n}"))).await.unwrap();
        app.clock.advance(Duration::from_millis(1));
    }

    let mut walk = std::pin::pin!(client.list_all_receipts(Some(2)));
    let mut seen = Vec::new();
    while let Some(next) = walk.next().await {
        seen.push(next.unwrap().receipt_id);
        // A receipt created in the middle of the walk is newer than the pages still to come.
        client
            .create_receipt(&receipt(&format!("new-{}", seen.len())))
            .await
            .unwrap();
    }

    assert_eq!(seen, ["r-7", "r-6", "r-5", "r-4", "r-3", "r-2", "r-1"]);
    let first = client.list_receipts_page(Some(2), None).await.unwrap();
    assert!(first.next_cursor.is_some());
}

#[tokio::test]
async fn list_all_inventory_yields_every_matching_product_once_in_the_query_sort() {
    let app = spawn_app().await;
    let client = client(&app);
    for n in 1..=5 {
        let item =
            UpsertInventoryItem::new(format!("S-{n}"), format!("Product {}", 6 - n), Cents::new(100), 3);
        client.upsert_inventory_item(&item).await.unwrap();
    }
    let by_name = InventoryQuery::new()
        .sort(SortField::Name, SortOrder::Asc)
        .page_size(2)
        .page(7);

    let items: Vec<_> = client.list_all_inventory(by_name).try_collect().await.unwrap();

    let skus: Vec<&str> = items.iter().map(|item| item.sku.as_str()).collect();
    assert_eq!(skus, ["S-5", "S-4", "S-3", "S-2", "S-1"]);
    assert_eq!(skus.iter().collect::<HashSet<_>>().len(), 5);
}

#[tokio::test]
async fn a_cursor_the_service_did_not_give_is_invalid_input_on_cursor() {
    let app = spawn_app().await;
    let client = client(&app);

    let receipts = client.list_receipts_page(Some(2), Some("forged")).await;
    let inventory = client
        .list_inventory(&InventoryQuery::new().cursor("forged"))
        .await;

    for refused in [receipts.err(), inventory.err()] {
        let Some(Error::Api(api)) = refused else {
            panic!("expected a refusal, got {refused:?}")
        };
        assert_eq!(api.code, ErrorCode::InvalidInput);
        assert_eq!(api.field.as_deref(), Some("cursor"));
    }
}
