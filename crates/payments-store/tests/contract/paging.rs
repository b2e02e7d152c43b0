//! Keyset pages of the receipt and inventory listings: walking every page after each `next` key returns every
//! row exactly once, in order, also when rows are created between two pages.

use std::collections::HashSet;

use payments_core::Cents;

use crate::Repositories;
use crate::fixtures::{self, T0, wallet};
use crate::inventory::BUDGET;
use crate::product_id;
use payments_domain::inventory::{InventoryQuery, SortField, SortOrder};
use payments_domain::page_cursor::{InventoryKey, ReceiptKey};
use payments_store::ReceiptFilter;

async fn create_receipt(repos: &Repositories, id: &str, at: i64) {
    let mut receipt = fixtures::new_receipt(wallet('a'), id, 100);
    receipt.now_ms = at;
    repos
        .receipts
        .create(fixtures::receipt_sale(receipt))
        .await
        .unwrap();
}

pub(crate) async fn receipt_pages_return_every_receipt_once_while_receipts_are_created(repos: Repositories) {
    let merchant = wallet('a');
    // Seven receipts, three of them in the same millisecond: the row id orders those.
    for (n, at) in [
        (1, T0),
        (2, T0 + 1),
        (3, T0 + 1),
        (4, T0 + 1),
        (5, T0 + 2),
        (6, T0 + 3),
        (7, T0 + 4),
    ] {
        create_receipt(&repos, &format!("r-{n}"), at).await;
    }
    create_receipt(&repos, "late", T0 + 1).await;
    repos
        .receipts
        .create(fixtures::receipt_sale(fixtures::new_receipt(
            wallet('c'),
            "other",
            100,
        )))
        .await
        .unwrap();

    let mut seen = Vec::new();
    let mut after: Option<ReceiptKey> = None;
    let mut pages = 0;
    loop {
        let page = repos
            .receipts
            .list_page(merchant, 3, after, ReceiptFilter::default())
            .await
            .unwrap();
        pages += 1;
        seen.extend(page.receipts.iter().map(|receipt| receipt.id.as_str().to_owned()));
        // Created while the walk goes on: newer than every page still to come, so never in them.
        create_receipt(&repos, &format!("new-{pages}"), T0 + 10 + pages).await;
        match page.next {
            Some(next) => after = Some(next),
            None => break,
        }
        assert!(pages < 10, "the walk does not end: {seen:?}");
    }

    assert_eq!(
        seen,
        ["r-7", "r-6", "r-5", "late", "r-4", "r-3", "r-2", "r-1"],
        "every receipt of the merchant once, newest first"
    );
    assert_eq!(pages, 3);
    let fresh = repos
        .receipts
        .list_page(merchant, 3, None, ReceiptFilter::default())
        .await
        .unwrap();
    assert_eq!(fresh.receipts[0].id.as_str(), "new-3");
    let last_page = repos
        .receipts
        .list_page(merchant, 8, after, ReceiptFilter::default())
        .await
        .unwrap();
    assert_eq!(last_page.receipts.len(), 2, "the last page again, from its key");
    assert_eq!(last_page.next, None);
}

pub(crate) async fn inventory_pages_after_a_cursor_return_every_product_once_in_each_sort(
    repos: Repositories,
) {
    let merchant = wallet('a');
    // Names equal but for case ("a mug", "A mug") and many equal prices, stocks and times: the row id orders
    // those, and the cursor must carry it.
    let originals = [
        ("B", "B mug"),
        ("a", "a mug"),
        ("C", "C mug"),
        ("AA", "A mug"),
        ("b2", "b2 mug"),
        ("A1", "A1 mug"),
        ("c3", "c3 mug"),
        ("d", "d mug"),
    ];
    for (n, (sku, name)) in originals.iter().enumerate() {
        let mut product = fixtures::product(merchant, sku, i64::try_from(n % 3).unwrap(), &[]);
        product.draft.fields.name = (*name).to_owned();
        product.draft.fields.price_usd = Cents::new(100 * i64::try_from(n % 2).unwrap());
        product.now_ms = T0 + i64::try_from(n / 2).unwrap();
        product_id(&repos, product).await;
    }
    product_id(&repos, fixtures::product(wallet('c'), "theirs", 1, &[])).await;
    let sorts = [
        (SortField::Name, SortOrder::Asc),
        (SortField::Name, SortOrder::Desc),
        (SortField::PriceUsd, SortOrder::Desc),
        (SortField::StockQty, SortOrder::Asc),
        (SortField::CreatedAt, SortOrder::Desc),
        (SortField::UpdatedAt, SortOrder::Asc),
    ];

    for (round, (sort, order)) in sorts.into_iter().enumerate() {
        let whole = InventoryQuery {
            sort,
            order,
            page_size: 200,
            ..InventoryQuery::parse(0, |_| None).unwrap()
        };
        let expected: Vec<String> = repos
            .inventory
            .list(merchant, &whole, BUDGET)
            .await
            .unwrap()
            .items
            .into_iter()
            .map(|item| item.fields.sku.as_str().to_owned())
            .collect();
        let mut seen = Vec::new();
        let mut after: Option<InventoryKey> = None;
        for page_number in 0.. {
            let query = InventoryQuery {
                page_size: 2,
                after: after.clone(),
                ..whole.clone()
            };
            let page = repos.inventory.list(merchant, &query, BUDGET).await.unwrap();
            seen.extend(page.items.iter().map(|item| item.fields.sku.as_str().to_owned()));
            // A product created between pages sorts somewhere; it may or may not be met, but never twice,
            // and it never moves the products not yet seen.
            if page_number < 2 {
                let mut extra = fixtures::product(merchant, &format!("NEW-{round}-{page_number}"), 5, &[]);
                extra.draft.fields.name = format!("b new {round} {page_number}");
                extra.now_ms = T0 + 100;
                product_id(&repos, extra).await;
            }
            match page.next {
                Some(next) => after = Some(next),
                None => break,
            }
            assert!(page_number < 40, "the walk does not end");
        }

        let originals_seen: Vec<&String> = seen.iter().filter(|sku| !sku.starts_with("NEW-")).collect();
        let expected_originals: Vec<&String> =
            expected.iter().filter(|sku| !sku.starts_with("NEW-")).collect();
        assert_eq!(originals_seen, expected_originals, "{sort:?} {order:?}");
        let distinct: HashSet<&String> = seen.iter().collect();
        assert_eq!(distinct.len(), seen.len(), "no product twice: {seen:?}");
    }
}
