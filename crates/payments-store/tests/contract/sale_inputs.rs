//! What a sale's decision is given ([`SaleInputs`](payments_store::SaleInputs)) is what the database holds when the sale runs: a
//! backend that keeps products or merchant settings in memory between sales must show every change made
//! since, including changes made by other sales and refused sales' undone reservations.

use bytes::Bytes;
use payments_core::{Cents, Wallet};

use crate::Repositories;
use crate::fixtures::{self, T0, wallet};
use crate::product_id;
use payments_domain::inventory::{InventoryItem, NewImage, ProductId, Sku};
use payments_domain::receipt::ItemRef;
use payments_domain::shop::ShopConfig;
use payments_store::TxError;
use payments_store::testing::images::PNG_A;
use payments_store::testing::{inputs_of_a_sale, split};

async fn product_seen(repos: &Repositories, merchant: Wallet, reference: ItemRef) -> Option<InventoryItem> {
    inputs_of_a_sale(repos, merchant, vec![reference])
        .await
        .items
        .remove(0)
}

fn by_id(id: &ProductId) -> ItemRef {
    ItemRef::Id(id.as_str().to_owned())
}

fn by_sku(sku: &str) -> ItemRef {
    ItemRef::Sku(sku.to_owned())
}

pub(crate) async fn a_sale_sees_a_products_update_made_after_an_earlier_sale(repos: Repositories) {
    let merchant = wallet('a');
    let id = product_id(&repos, fixtures::product(merchant, "MUG", -1, &[])).await;
    let before = product_seen(&repos, merchant, by_id(&id)).await.unwrap();
    let mut update = fixtures::product(merchant, "MUG", -1, &[]);
    update.draft.fields.price_usd = Cents::new(990);
    update.draft.fields.name = "Big mug".to_owned();
    update.now_ms = T0 + 5;
    product_id(&repos, update).await;

    let by_its_id = product_seen(&repos, merchant, by_id(&id)).await.unwrap();
    let by_its_sku = product_seen(&repos, merchant, by_sku("MUG")).await.unwrap();

    assert_eq!(before.fields.price_usd, Cents::new(250));
    for seen in [by_its_id, by_its_sku] {
        assert_eq!(
            (seen.id.clone(), seen.fields.price_usd),
            (id.clone(), Cents::new(990))
        );
        assert_eq!((seen.fields.name.as_str(), seen.updated_at), ("Big mug", T0 + 5));
    }
}

pub(crate) async fn a_sale_sees_the_stock_left_by_earlier_sales_and_refused_ones(repos: Repositories) {
    let merchant = wallet('a');
    let id = product_id(&repos, fixtures::product(merchant, "BEAN", 5, &[])).await;
    assert_eq!(stock_seen(&repos, merchant, &id).await, 5);
    repos
        .receipts
        .create(fixtures::order_sale(merchant, "order-1", &id, 2))
        .await
        .unwrap();
    assert_eq!(stock_seen(&repos, merchant, &id).await, 3);

    // Reserves 2 more, then finds its receipt id taken: the reservation is undone with the rest.
    let refused = repos
        .receipts
        .create(fixtures::order_sale(merchant, "order-1", &id, 2))
        .await;

    assert!(matches!(refused, Err(TxError::Refused(_))), "{refused:?}");
    assert_eq!(stock_seen(&repos, merchant, &id).await, 3);
}

async fn stock_seen(repos: &Repositories, merchant: Wallet, id: &ProductId) -> i64 {
    let seen = product_seen(repos, merchant, by_id(id)).await.unwrap();
    seen.fields.stock_qty
}

pub(crate) async fn a_sale_sees_deleted_products_gone_and_new_ones_under_their_sku(repos: Repositories) {
    let merchant = wallet('a');
    let first = product_id(&repos, fixtures::product(merchant, "TEA", -1, &[])).await;
    assert!(product_seen(&repos, merchant, by_sku("TEA")).await.is_some());
    assert!(product_seen(&repos, merchant, by_sku("COCOA")).await.is_none());

    assert!(repos.inventory.delete(merchant, &first).await.unwrap());
    let gone_by_sku = product_seen(&repos, merchant, by_sku("TEA")).await;
    let gone_by_id = product_seen(&repos, merchant, by_id(&first)).await;
    let second = product_id(&repos, fixtures::product(merchant, "TEA", -1, &[])).await;
    let cocoa = product_id(&repos, fixtures::product(merchant, "COCOA", -1, &[])).await;

    assert_eq!((gone_by_sku, gone_by_id), (None, None));
    let seen = product_seen(&repos, merchant, by_sku("TEA")).await.unwrap();
    assert_eq!(seen.id, second);
    let seen = product_seen(&repos, merchant, by_sku("COCOA")).await.unwrap();
    assert_eq!(seen.id, cocoa);
}

pub(crate) async fn a_sale_sees_a_products_new_image(repos: Repositories) {
    let merchant = wallet('a');
    let id = product_id(&repos, fixtures::product(merchant, "CUP", -1, &[])).await;
    assert!(
        product_seen(&repos, merchant, by_id(&id))
            .await
            .unwrap()
            .images
            .is_empty()
    );
    let png = NewImage::from_bytes(Bytes::from_static(PNG_A)).unwrap();
    let sku = Sku::parse("sku", "CUP").unwrap();

    repos
        .inventory
        .attach_image(merchant, &sku, &png, T0 + 1)
        .await
        .unwrap();

    let seen = product_seen(&repos, merchant, by_id(&id)).await.unwrap();
    assert_eq!(seen.images.len(), 1);
}

pub(crate) async fn a_sale_sees_the_merchants_new_split_and_shop_settings(repos: Repositories) {
    let (merchant, other) = (wallet('a'), wallet('c'));
    let before = inputs_of_a_sale(&repos, merchant, Vec::new()).await.merchant;
    repos
        .shops
        .save_split(merchant, &split('1', '2'), false, T0)
        .await
        .unwrap();
    let branded = ShopConfig {
        brand_name: "Cafe".to_owned(),
        ..ShopConfig::default_for(merchant)
    };
    repos.shops.save_shop(&branded, T0 + 1).await.unwrap();

    let after = inputs_of_a_sale(&repos, merchant, Vec::new()).await.merchant;
    repos
        .shops
        .save_split(merchant, &split('3', '4'), true, T0 + 2)
        .await
        .unwrap();
    let replaced = inputs_of_a_sale(&repos, merchant, Vec::new()).await.merchant;
    let theirs = inputs_of_a_sale(&repos, other, Vec::new()).await.merchant;

    assert_eq!((before.split, before.shop), (None, None));
    assert_eq!(
        (after.split, after.shop),
        (Some(split('1', '2')), Some(branded.clone()))
    );
    assert_eq!(
        (replaced.split, replaced.shop),
        (Some(split('3', '4')), Some(branded))
    );
    assert_eq!((theirs.split, theirs.shop), (None, None));
}
