//! [`InventoryRepository`]: upserts by id or SKU, the listing's filters and paging, deletes (images: `images.rs`).

use payments_core::Cents;

use crate::Repositories;
use crate::fixtures::{self, T0, wallet};
use crate::{all_items, product_id};
use payments_domain::inventory::{InventoryQuery, ProductId, SortField, SortOrder, StockFilter, TagsMode};
use payments_store::UpsertOutcome;

pub(crate) use payments_store::testing::LIST_BUDGET as BUDGET;

fn query() -> InventoryQuery {
    InventoryQuery::parse(0, |_| None).unwrap()
}

pub(crate) async fn upserts_update_by_sku_and_refuse_a_taken_sku(repos: Repositories) {
    let merchant = wallet('a');
    let first = product_id(&repos, fixtures::product(merchant, "BEAN-1", 5, &[])).await;
    product_id(&repos, fixtures::product(merchant, "BEAN-2", 5, &[])).await;
    let mut same_sku = fixtures::product(merchant, "BEAN-1", 9, &[]);
    same_sku.now_ms = T0 + 10;

    let UpsertOutcome::Saved(updated) = repos.inventory.upsert(&same_sku).await.unwrap() else {
        panic!("expected the product to be saved")
    };

    assert_eq!((updated.id.clone(), updated.fields.stock_qty), (first.clone(), 9));
    assert_eq!((updated.created_at, updated.updated_at), (T0, T0 + 10));
    let mut rename = fixtures::product(merchant, "BEAN-2", 1, &[]);
    rename.draft.id = Some(first.clone());
    assert_eq!(
        repos.inventory.upsert(&rename).await.unwrap(),
        UpsertOutcome::SkuTaken
    );
    let mut unknown = fixtures::product(merchant, "BEAN-3", 1, &[]);
    unknown.draft.id = Some(ProductId::from_stored("prod_missing".to_owned()));
    assert_eq!(
        repos.inventory.upsert(&unknown).await.unwrap(),
        UpsertOutcome::UnknownId
    );
    let mut theirs = fixtures::product(wallet('c'), "BEAN-1", 1, &[]);
    theirs.draft.id = Some(first);
    assert_eq!(
        repos.inventory.upsert(&theirs).await.unwrap(),
        UpsertOutcome::UnknownId
    );
    assert_eq!(all_items(&repos, merchant).await.len(), 2);
}

pub(crate) async fn listings_filter_by_search_tags_stock_and_price_and_page(repos: Repositories) {
    let merchant = wallet('a');
    for (sku, stock, tags) in [
        ("LATTE", 3, &["Hot", "Milk"][..]),
        ("ICED-TEA", 0, &["cold"][..]),
        ("MOCHA", -1, &["hot", "chocolate"][..]),
        ("100%_JUICE", 4, &["cold", "fruit"][..]),
    ] {
        product_id(&repos, fixtures::product(merchant, sku, stock, tags)).await;
    }
    product_id(&repos, fixtures::product(wallet('c'), "LATTE", 3, &["hot"])).await;
    let skus = |page: payments_domain::inventory::InventoryPage| {
        (
            page.total,
            page.items
                .into_iter()
                .map(|item| item.fields.sku.as_str().to_owned())
                .collect::<Vec<_>>(),
        )
    };
    let by_name = InventoryQuery {
        sort: SortField::Name,
        order: SortOrder::Asc,
        ..query()
    };

    let hot_all = InventoryQuery {
        tags: vec!["hot".to_owned(), "milk".to_owned()],
        ..by_name.clone()
    };
    assert_eq!(
        skus(repos.inventory.list(merchant, &hot_all, BUDGET).await.unwrap()),
        (1, vec!["LATTE".to_owned()])
    );
    let any = InventoryQuery {
        tags_mode: TagsMode::Any,
        ..hot_all
    };
    assert_eq!(
        skus(repos.inventory.list(merchant, &any, BUDGET).await.unwrap()).0,
        2
    );
    let out = InventoryQuery {
        stock: StockFilter::Out,
        ..by_name.clone()
    };
    assert_eq!(
        skus(repos.inventory.list(merchant, &out, BUDGET).await.unwrap()),
        (1, vec!["ICED-TEA".to_owned()])
    );
    let literal = InventoryQuery {
        q: Some("0%_j".to_owned()),
        ..by_name.clone()
    };
    assert_eq!(
        skus(repos.inventory.list(merchant, &literal, BUDGET).await.unwrap()),
        (1, vec!["100%_JUICE".to_owned()])
    );
    let wildcard = InventoryQuery {
        q: Some("t_a".to_owned()),
        ..by_name.clone()
    };
    assert_eq!(
        skus(repos.inventory.list(merchant, &wildcard, BUDGET).await.unwrap()).0,
        0
    );
    let priced = InventoryQuery {
        price_min: Some(Cents::new(250)),
        price_max: Some(Cents::new(250)),
        category: Some("drinks".to_owned()),
        taxable: Some(true),
        ..by_name.clone()
    };
    assert_eq!(
        skus(repos.inventory.list(merchant, &priced, BUDGET).await.unwrap()).0,
        4
    );
    let second_page = InventoryQuery {
        page: 1,
        page_size: 3,
        ..by_name
    };
    let (total, page) = skus(
        repos
            .inventory
            .list(merchant, &second_page, BUDGET)
            .await
            .unwrap(),
    );
    assert_eq!((total, page), (4, vec!["MOCHA".to_owned()]));
}

pub(crate) async fn deleting_a_product_twice_reports_the_second_as_missing(repos: Repositories) {
    let merchant = wallet('a');
    let id = product_id(&repos, fixtures::product(merchant, "CUP", 1, &[])).await;

    assert!(!repos.inventory.delete(wallet('c'), &id).await.unwrap());
    assert!(repos.inventory.delete(merchant, &id).await.unwrap());
    assert!(!repos.inventory.delete(merchant, &id).await.unwrap());
    assert!(all_items(&repos, merchant).await.is_empty());
}

pub(crate) async fn tag_filters_with_the_most_tags_follow_updates_deletes_and_merchants(repos: Repositories) {
    let merchant = wallet('a');
    let mut ids = Vec::new();
    for n in 0..120 {
        let sku = format!("I-{n}");
        let tag = format!("T{}", n % 50);
        ids.push(product_id(&repos, fixtures::product(merchant, &sku, 1, &[&tag, "Common"])).await);
    }
    product_id(
        &repos,
        fixtures::product(wallet('c'), "I-3", 1, &["t3", "common"]),
    )
    .await;
    let fifty: Vec<String> = (0..50).map(|n| format!("t{n}")).collect();
    let listed = |tags: Vec<String>, tags_mode: TagsMode| InventoryQuery {
        tags,
        tags_mode,
        page_size: 200,
        sort: SortField::Name,
        order: SortOrder::Asc,
        ..query()
    };
    let skus_of = |page: payments_domain::inventory::InventoryPage| {
        let mut skus: Vec<String> = page
            .items
            .iter()
            .map(|item| item.fields.sku.as_str().to_owned())
            .collect();
        skus.sort();
        (page.total, skus)
    };
    let t3_and_common = listed(vec!["common".to_owned(), "t3".to_owned()], TagsMode::All);

    let any_of_fifty = repos
        .inventory
        .list(merchant, &listed(fifty.clone(), TagsMode::Any), BUDGET)
        .await
        .unwrap();
    let all_of_fifty = repos
        .inventory
        .list(merchant, &listed(fifty, TagsMode::All), BUDGET)
        .await
        .unwrap();
    let both = repos
        .inventory
        .list(merchant, &t3_and_common, BUDGET)
        .await
        .unwrap();

    assert_eq!((any_of_fifty.total, any_of_fifty.items.len()), (120, 120));
    assert_eq!(all_of_fifty.total, 0);
    let expected = |skus: &[&str]| {
        (
            skus.len() as u64,
            skus.iter().map(|sku| (*sku).to_owned()).collect::<Vec<_>>(),
        )
    };
    assert_eq!(skus_of(both), expected(&["I-103", "I-3", "I-53"]));

    let mut retagged = fixtures::product(merchant, "I-3", 1, &["other"]);
    retagged.now_ms = T0 + 5;
    product_id(&repos, retagged).await;
    assert!(repos.inventory.delete(merchant, &ids[53]).await.unwrap());

    let after = repos
        .inventory
        .list(merchant, &t3_and_common, BUDGET)
        .await
        .unwrap();
    assert_eq!(skus_of(after), expected(&["I-103"]));
    let other = listed(vec!["other".to_owned(), "zzz".to_owned()], TagsMode::Any);
    assert_eq!(
        skus_of(repos.inventory.list(merchant, &other, BUDGET).await.unwrap()),
        expected(&["I-3"])
    );
}
