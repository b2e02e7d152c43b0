//! `payments inventory import FILE.csv`.

use payments_client::{InventoryQuery, SortField, SortOrder};
use payments_core::Cents;
use payments_server::testing::spawn_app;
use serde_json::{Value, json};

use crate::helpers::{client, payments, payments_with_env, write_csv};

const CSV_WITH_TWO_BAD_ROWS: &str = "\
sku,name,priceUsd,stockQty,category,description,tags,taxable,jurisdictionCode,costUsd,industryPack
MUG-1,Blue mug,12.99,25,kitchen,A blue mug,blue;ceramic,true,US-CA,4.10,retail
TEE-1,Tee,1.999,5,apparel,,,false,,,
HAT-1,Hat,15,-5,apparel,,,,,,
SOCK-1,Socks,4.50,-1,apparel,Warm,wool,no,,,
";

#[tokio::test(flavor = "multi_thread")]
async fn import_names_the_failed_rows_exits_non_zero_and_keeps_the_good_rows() {
    let app = spawn_app().await;
    let (_dir, path) = write_csv(CSV_WITH_TWO_BAD_ROWS);

    let run = payments(&app, &["inventory", "import", &path]).await;

    assert_eq!(run.code, 1, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "imported 2 of 4 rows, 2 failed");
    assert!(
        lines[1].starts_with("ROW  SKU    CODE           MESSAGE"),
        "{}",
        run.stdout
    );
    assert!(
        lines[2].starts_with("3    TEE-1  invalid_input  priceUsd: "),
        "{}",
        run.stdout
    );
    assert!(
        lines[3].starts_with("4    HAT-1  invalid_input  "),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr
            .starts_with("error: import_failed: 2 of 4 rows failed (hint: fix the rows listed above"),
        "{}",
        run.stderr
    );
    let query = InventoryQuery::new().sort(SortField::Name, SortOrder::Asc);
    let stored = client(&app).list_inventory(&query).await.unwrap();
    let skus: Vec<&str> = stored.items.iter().map(|item| item.sku.as_str()).collect();
    assert_eq!(skus, ["MUG-1", "SOCK-1"]);
    let mug = &stored.items[0];
    assert_eq!(mug.price_usd, Cents::new(1299));
    assert_eq!(mug.cost_usd, Some(Cents::new(410)));
    assert_eq!(mug.tags, ["blue", "ceramic"]);
    assert_eq!(mug.jurisdiction_code.as_deref(), Some("US-CA"));
    assert!(!stored.items[1].taxable);
}

#[tokio::test(flavor = "multi_thread")]
async fn import_with_json_prints_a_machine_readable_summary() {
    let app = spawn_app().await;
    let (_dir, path) = write_csv(CSV_WITH_TWO_BAD_ROWS);

    let run = payments(&app, &["inventory", "import", "--json", &path]).await;

    assert_eq!(run.code, 1, "{run:?}");
    let summary: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(summary["rows"], 4);
    assert_eq!(summary["imported"], 2);
    assert_eq!(summary["failed"][0]["row"], 3);
    assert_eq!(summary["failed"][0]["sku"], "TEE-1");
    assert_eq!(summary["failed"][1]["row"], 4);
    assert_eq!(summary["failed"][1]["code"], json!("invalid_input"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_clean_import_exits_zero_and_is_idempotent() {
    let app = spawn_app().await;
    let (_dir, path) = write_csv("sku,name,priceUsd,stockQty\nA,Apple,1,1\nB,Bean,2,2\n");

    let first = payments(&app, &["inventory", "import", &path]).await;
    let second = payments(&app, &["inventory", "import", &path]).await;

    assert_eq!(first.code, 0, "{first:?}");
    assert_eq!(first.stdout, "imported 2 of 2 rows, 0 failed\n");
    assert_eq!(second.code, 0, "{second:?}");
    assert_eq!(
        client(&app)
            .list_inventory(&InventoryQuery::new())
            .await
            .unwrap()
            .total,
        2
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_import_stops_at_the_first_row_the_server_cannot_be_reached_for_and_counts_the_rest() {
    let app = spawn_app().await;
    let closed_port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let down = format!("http://127.0.0.1:{closed_port}");
    let (_dir, path) =
        write_csv("sku,name,priceUsd,stockQty\nA,Apple,x,1\nB,Bean,2,2\nC,Corn,3,3\nD,Date,4,4\n");

    let run = payments_with_env(
        &app,
        Some(&app.key),
        &[("PAYMENTS_URL", &down)],
        &["inventory", "import", &path],
    )
    .await;

    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout.lines().next(),
        Some("imported 0 of 4 rows, 2 failed, 2 not tried"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.starts_with(
            "error: import_stopped: the server could not be reached at row 3: 0 rows imported before it, 2 not tried"
        ),
        "{}",
        run.stderr
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_row_with_more_cells_than_the_header_fails_by_row_and_the_others_import() {
    let app = spawn_app().await;
    let (_dir, path) = write_csv("sku,name,priceUsd,stockQty\nA,Apple,1,1\nB,Bean, large,2,2\n");

    let run = payments(&app, &["inventory", "import", &path]).await;

    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.starts_with("imported 1 of 2 rows, 1 failed\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("the row has 5 cells but the header names 4 columns"),
        "{}",
        run.stdout
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_header_with_an_unknown_column_is_refused_before_sending_anything() {
    let app = spawn_app().await;
    let (_dir, path) = write_csv("sku,name,price,stockQty\nA,Apple,1,1\n");

    let run = payments(&app, &["inventory", "import", &path]).await;

    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .starts_with("error: invalid_csv: unknown column \"price\""),
        "{}",
        run.stderr
    );
    assert_eq!(
        client(&app)
            .list_inventory(&InventoryQuery::new())
            .await
            .unwrap()
            .total,
        0
    );
}
