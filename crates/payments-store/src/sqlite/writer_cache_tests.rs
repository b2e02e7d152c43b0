//! The writer's cache of sale inputs against writes it cannot see through its update hook: another
//! connection's commits to the same file (a second process).

use std::sync::Arc;

use payments_core::Cents;
use rusqlite::Connection;

use super::SqliteStore;
use crate::Availability;
use crate::testing::fixtures::Repositories;
use crate::testing::fixtures::{self, wallet};
use crate::testing::inputs_of_a_sale;
use crate::testing::product_id;
use payments_domain::receipt::ItemRef;

#[tokio::test]
async fn a_sale_sees_a_price_and_a_brand_another_process_committed_to_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.db");
    let store = Arc::new(SqliteStore::open(&path, 0, Availability::default()).unwrap());
    let repos = Repositories::of(store, Availability::default());
    let merchant = wallet('a');
    product_id(&repos, fixtures::product(merchant, "MUG", -1, &[])).await;
    let mug = || vec![ItemRef::Sku("MUG".to_owned())];
    let before = inputs_of_a_sale(&repos, merchant, mug()).await;

    let other_process = Connection::open(&path).unwrap();
    other_process
        .execute_batch(
            "UPDATE inventory_items SET price_cents = 990;
             INSERT INTO shops (wallet, brand_name, processing_fee_pct, created_at, updated_at)
                 VALUES ('0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'Elsewhere', '0', 1, 1);",
        )
        .unwrap();
    let after = inputs_of_a_sale(&repos, merchant, mug()).await;

    let price = |inputs: &crate::SaleInputs| inputs.items[0].as_ref().unwrap().fields.price_usd;
    assert_eq!(price(&before), Cents::new(250));
    assert_eq!(before.merchant.shop, None);
    assert_eq!(price(&after), Cents::new(990));
    assert_eq!(after.merchant.shop.unwrap().brand_name, "Elsewhere");
}
