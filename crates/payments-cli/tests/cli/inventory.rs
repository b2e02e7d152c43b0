//! `payments inventory list|upsert|delete|upload-image|image`.

use payments_client::{InventoryQuery, UpsertInventoryItem};
use payments_core::Cents;
use payments_server::testing::spawn_app;
use serde_json::Value;

use crate::helpers::{TINY_PNG, client, payments};

#[tokio::test(flavor = "multi_thread")]
async fn upsert_takes_stock_unlimited_and_prints_the_stored_product_with_iso_times() {
    let app = spawn_app().await;

    let run = payments(
        &app,
        &[
            "inventory",
            "upsert",
            "--sku",
            "MUG-1",
            "--name",
            "Blue mug",
            "--price",
            "12.99",
            "--stock",
            "unlimited",
        ],
    )
    .await;

    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("sku            MUG-1\n"), "{}", run.stdout);
    assert!(
        run.stdout.contains("price          12.99 USD\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("stock          unlimited\n"),
        "{}",
        run.stdout
    );
    let created_at = run
        .stdout
        .lines()
        .find_map(|line| line.strip_prefix("created at     "))
        .unwrap_or_default();
    assert!(
        created_at.len() == 20 && created_at.starts_with("20") && created_at.ends_with('Z'),
        "created at {created_at:?} should be an ISO UTC time"
    );
    let stored = client(&app).list_inventory(&InventoryQuery::new()).await.unwrap();
    assert_eq!(stored.items[0].price_usd, Cents::new(1299));
    assert_eq!(stored.items[0].stock_qty, -1);
}

#[tokio::test(flavor = "multi_thread")]
async fn upsert_with_json_prints_the_item_with_optional_fields() {
    let app = spawn_app().await;

    let run = payments(
        &app,
        &[
            "inventory",
            "upsert",
            "--json",
            "--sku",
            "TEE-1",
            "--name",
            "Tee",
            "--price",
            "19",
            "--stock",
            "4",
            "--tags",
            "cotton,white",
            "--taxable",
            "true",
            "--cost",
            "7.50",
            "--category",
            "apparel",
        ],
    )
    .await;

    assert_eq!(run.code, 0, "{run:?}");
    let body: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(body["ok"], true);
    assert_eq!(body["item"]["sku"], "TEE-1");
    assert_eq!(body["item"]["priceUsd"], 19);
    assert_eq!(body["item"]["costUsd"], 7.5);
    assert_eq!(body["item"]["tags"], serde_json::json!(["cotton", "white"]));
    assert_eq!(body["item"]["taxable"], true);
}

#[tokio::test(flavor = "multi_thread")]
async fn list_prints_a_table_with_a_count_line() {
    let app = spawn_app().await;
    let client = client(&app);
    for (sku, name, cents, stock) in [("A-1", "Apple", 150, 3), ("B-22", "Banana bunch", 99, 0)] {
        let body = UpsertInventoryItem::new(sku, name, Cents::new(cents), stock).category("fruit");
        client.upsert_inventory_item(&body).await.unwrap();
    }

    let run = payments(&app, &["inventory", "list", "--sort", "name", "--order", "asc"]).await;

    assert_eq!(run.code, 0, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[0].starts_with("ID"), "{}", run.stdout);
    assert!(
        lines[0].contains("SKU   NAME          PRICE  STOCK  CATEGORY"),
        "{}",
        run.stdout
    );
    assert!(
        lines[1].contains("A-1   Apple         1.50   3      fruit"),
        "{}",
        run.stdout
    );
    assert!(
        lines[2].contains("B-22  Banana bunch  0.99   0      fruit"),
        "{}",
        run.stdout
    );
    assert_eq!(lines[3], "2 of 2 items (page 0, page size 100)");
}

#[tokio::test(flavor = "multi_thread")]
async fn list_with_json_prints_the_service_page_shape() {
    let app = spawn_app().await;
    let client = client(&app);
    for sku in ["X-1", "X-2", "X-3"] {
        client
            .upsert_inventory_item(&UpsertInventoryItem::new(sku, sku, Cents::new(250), 1))
            .await
            .unwrap();
    }

    let run = payments(
        &app,
        &[
            "inventory",
            "list",
            "--json",
            "--page-size",
            "2",
            "--sort",
            "name",
        ],
    )
    .await;
    let everything = payments(
        &app,
        &["inventory", "list", "--json", "--all", "--page-size", "2"],
    )
    .await;

    assert_eq!(run.code, 0, "{run:?}");
    let page: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(page["total"], 3);
    assert_eq!(page["page"], 0);
    assert_eq!(page["pageSize"], 2);
    assert_eq!(page["items"].as_array().unwrap().len(), 2);
    assert_eq!(page["items"][0]["priceUsd"], 2.5);
    let all: Value = serde_json::from_str(&everything.stdout).unwrap();
    assert_eq!(all["items"].as_array().unwrap().len(), 3);
}

#[tokio::test(flavor = "multi_thread")]
async fn delete_removes_the_product() {
    let app = spawn_app().await;
    let client = client(&app);
    let item = client
        .upsert_inventory_item(&UpsertInventoryItem::new("D", "D", Cents::new(1), 1))
        .await;
    let id = item.unwrap().item.id;

    let run = payments(&app, &["inventory", "delete", &id]).await;

    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, format!("deleted {id}\n"));
    assert_eq!(
        client.list_inventory(&InventoryQuery::new()).await.unwrap().total,
        0
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn upload_image_prints_the_data_url_and_attaches_it() {
    let app = spawn_app().await;
    let client = client(&app);
    client
        .upsert_inventory_item(&UpsertInventoryItem::new("PIC", "Pic", Cents::new(1), 1))
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pixel.png");
    std::fs::write(&file, TINY_PNG).unwrap();

    let run = payments(
        &app,
        &[
            "inventory",
            "upload-image",
            "--sku",
            "PIC",
            file.to_str().unwrap(),
        ],
    )
    .await;

    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.starts_with("data:image/png;base64,"), "{}", run.stdout);
    let stored = client.list_inventory(&InventoryQuery::new()).await.unwrap();
    assert_eq!(stored.items[0].images, [run.stdout.trim_end()]);
}

#[tokio::test(flavor = "multi_thread")]
async fn image_saves_a_stored_image_to_a_file_and_an_unknown_one_is_not_found() {
    let app = spawn_app().await;
    let client = client(&app);
    let item = client
        .upsert_inventory_item(&UpsertInventoryItem::new("PIC", "Pic", Cents::new(1), 1))
        .await
        .unwrap()
        .item;
    client
        .upload_inventory_image("PIC", "pixel.png", TINY_PNG.to_vec(), "image/png")
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("saved.png");
    let out_arg = out.to_str().unwrap();

    let run = payments(&app, &["inventory", "image", &item.id, "0", "--out", out_arg]).await;
    let missing = payments(&app, &["inventory", "image", &item.id, "1", "--out", out_arg]).await;

    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        format!("wrote {} bytes (image/png) to {out_arg}\n", TINY_PNG.len())
    );
    assert_eq!(std::fs::read(&out).unwrap(), TINY_PNG);
    assert_eq!(missing.code, 1, "{missing:?}");
    assert!(
        missing.stderr.starts_with("error: not_found: "),
        "{}",
        missing.stderr
    );
}
