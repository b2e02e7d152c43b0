//! `list_inventory`, `upsert_inventory_item`, `delete_inventory_item`, `upload_inventory_image`.

use payments_client::{InventoryQuery, SortField, SortOrder, StockFilter, TagsMode, UpsertInventoryItem};
use payments_core::Cents;
use payments_server::testing::{TEST_START_MS, spawn_app};

use crate::helpers::{TINY_PNG, client};

fn product(sku: &str, price_cents: i64, stock: i64) -> UpsertInventoryItem {
    UpsertInventoryItem::new(sku, format!("Product {sku}"), Cents::new(price_cents), stock)
}

#[tokio::test]
async fn an_upserted_item_comes_back_with_every_field_and_exact_money() {
    let app = spawn_app().await;
    let client = client(&app);
    let body = UpsertInventoryItem::new("MUG-1", "Blue mug", Cents::new(1299), 25)
        .category("kitchen")
        .description("A blue mug")
        .tags(["blue", "ceramic"])
        .cost_usd(Cents::new(410))
        .taxable(true)
        .jurisdiction_code("US-CA")
        .industry_pack("retail");

    let upserted = client.upsert_inventory_item(&body).await.unwrap();

    let item = upserted.item;
    assert!(upserted.degraded.is_none());
    assert!(!item.id.is_empty());
    assert_eq!(item.wallet, app.wallet);
    assert_eq!(item.sku, "MUG-1");
    assert_eq!(item.name, "Blue mug");
    assert_eq!(item.price_usd, Cents::new(1299));
    assert_eq!(item.currency, "USD");
    assert_eq!(item.stock_qty, 25);
    assert_eq!(item.category.as_deref(), Some("kitchen"));
    assert_eq!(item.description.as_deref(), Some("A blue mug"));
    assert_eq!(item.tags, ["blue", "ceramic"]);
    assert_eq!(item.cost_usd, Some(Cents::new(410)));
    assert!(item.taxable);
    assert_eq!(item.jurisdiction_code.as_deref(), Some("US-CA"));
    assert_eq!(item.industry_pack.as_deref(), Some("retail"));
    assert_eq!(item.created_at, TEST_START_MS as u64);
    let listed = client.list_inventory(&InventoryQuery::new()).await.unwrap();
    assert_eq!(listed.items, [item]);
    assert_eq!((listed.total, listed.page, listed.page_size), (1, 0, 100));
}

#[tokio::test]
async fn upserting_an_existing_sku_updates_that_product() {
    let app = spawn_app().await;
    let client = client(&app);
    let first = client
        .upsert_inventory_item(&product("TEE-1", 1500, 3))
        .await
        .unwrap()
        .item;

    let second = client
        .upsert_inventory_item(&product("TEE-1", 1750, 0))
        .await
        .unwrap()
        .item;

    assert_eq!(second.id, first.id);
    assert_eq!(second.price_usd, Cents::new(1750));
    assert_eq!(second.stock_qty, 0);
    assert_eq!(
        client.list_inventory(&InventoryQuery::new()).await.unwrap().total,
        1
    );
}

#[tokio::test]
async fn list_applies_filters_sort_and_paging() {
    let app = spawn_app().await;
    let client = client(&app);
    for (sku, cents, stock, tags) in [
        ("A", 500, 1, vec!["red"]),
        ("B", 100, 0, vec!["red", "big"]),
        ("C", 300, -1, vec!["big"]),
        ("D", 200, 7, vec!["red", "big"]),
    ] {
        let body = product(sku, cents, stock).category("toys").tags(tags);
        client.upsert_inventory_item(&body).await.unwrap();
    }
    let skus = |page: payments_client::InventoryPage| {
        page.items.into_iter().map(|item| item.sku).collect::<Vec<_>>()
    };

    let by_price = InventoryQuery::new().sort(SortField::PriceUsd, SortOrder::Asc);
    let second_page = client
        .list_inventory(&by_price.clone().page_size(2).page(1))
        .await
        .unwrap();
    let in_stock = client
        .list_inventory(&by_price.clone().stock(StockFilter::InStock))
        .await
        .unwrap();
    let all_tags = client
        .list_inventory(&by_price.clone().tags(["red", "big"], TagsMode::All))
        .await
        .unwrap();
    let any_tag = client
        .list_inventory(&by_price.clone().tags(["red", "big"], TagsMode::Any))
        .await
        .unwrap();
    let priced = by_price
        .clone()
        .price_range(Some(Cents::new(200)), Some(Cents::new(300)));
    let in_range = client.list_inventory(&priced).await.unwrap();
    let searched = client
        .list_inventory(&InventoryQuery::new().q("product c"))
        .await
        .unwrap();

    assert_eq!(
        (second_page.total, second_page.page, second_page.page_size),
        (4, 1, 2)
    );
    assert_eq!(skus(second_page), ["C", "A"]);
    assert_eq!(skus(in_stock), ["D", "C", "A"]);
    assert_eq!(skus(all_tags), ["B", "D"]);
    assert_eq!(skus(any_tag), ["B", "D", "C", "A"]);
    assert_eq!(skus(in_range), ["D", "C"]);
    assert_eq!(skus(searched), ["C"]);
}

#[tokio::test]
async fn a_deleted_item_is_gone_from_the_list() {
    let app = spawn_app().await;
    let client = client(&app);
    let kept = client
        .upsert_inventory_item(&product("KEEP", 100, 1))
        .await
        .unwrap()
        .item;
    let doomed = client
        .upsert_inventory_item(&product("DROP", 100, 1))
        .await
        .unwrap()
        .item;

    let deleted = client.delete_inventory_item(&doomed.id).await.unwrap();

    assert!(deleted.degraded.is_none());
    let listed = client.list_inventory(&InventoryQuery::new()).await.unwrap();
    assert_eq!(listed.items, [kept]);
}

#[tokio::test]
async fn an_uploaded_image_is_returned_as_a_data_url_and_attached_to_the_product() {
    let app = spawn_app().await;
    let client = client(&app);
    client
        .upsert_inventory_item(&product("PIC-1", 100, 1))
        .await
        .unwrap();

    let uploaded = client
        .upload_inventory_image("PIC-1", "pixel.png", TINY_PNG.to_vec(), "image/png")
        .await
        .unwrap();

    assert!(
        uploaded.image_url.starts_with("data:image/png;base64,"),
        "{}",
        uploaded.image_url
    );
    let listed = client.list_inventory(&InventoryQuery::new()).await.unwrap();
    assert_eq!(listed.items[0].images, [uploaded.image_url]);
}

#[tokio::test]
async fn a_stored_image_is_read_through_its_route_with_its_type_and_entity_tag() {
    let app = spawn_app().await;
    let client = client(&app);
    let item = client
        .upsert_inventory_item(&product("PIC-1", 100, 1))
        .await
        .unwrap()
        .item;
    client
        .upload_inventory_image("PIC-1", "pixel.png", TINY_PNG.to_vec(), "image/png")
        .await
        .unwrap();

    let image = client.inventory_image(&item.id, 0).await.unwrap();
    let missing = client.inventory_image(&item.id, 1).await.unwrap_err();

    assert_eq!(image.bytes, TINY_PNG);
    assert_eq!(image.content_type, "image/png");
    assert_eq!(
        image.etag.as_deref(),
        Some("\"43739c566e26fd7cb88f69d3864ea34740372f5ee99acac169e090beffbce5c6\"")
    );
    let payments_client::Error::Api(api) = missing else {
        panic!("expected an API error, got {missing:?}");
    };
    assert_eq!(
        (api.status, api.code.known()),
        (404, Some(payments_client::ErrorCode::NotFound))
    );
}
