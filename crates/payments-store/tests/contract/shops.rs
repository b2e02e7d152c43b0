//! [`ShopRepository`]: shop settings, the fee add-on, and split configurations with their history.

use std::sync::Arc;

use payments_core::FeePct;
use tokio::sync::Barrier;

use crate::Repositories;
use crate::fixtures::{T0, wallet};
use payments_domain::shop::ShopConfig;
use payments_domain::split::{ArchivedSplit, SplitSaved};
use payments_store::testing::split;

pub(crate) async fn shop_settings_and_the_fee_are_saved_independently(repos: Repositories) {
    let merchant = wallet('a');
    assert_eq!(repos.shops.fetch_shop(merchant).await.unwrap(), None);
    let fee = FeePct::parse_merchant_add_on("1.25").unwrap();

    repos.shops.save_processing_fee(merchant, fee, T0).await.unwrap();

    let defaults = ShopConfig {
        processing_fee_pct: fee,
        ..ShopConfig::default_for(merchant)
    };
    assert_eq!(repos.shops.fetch_shop(merchant).await.unwrap(), Some(defaults));
    let branded = ShopConfig {
        brand_name: "Cafe".to_owned(),
        brand_key: Some("cafe".to_owned()),
        support_email: Some("help@cafe.example".to_owned()),
        ..ShopConfig::default_for(merchant)
    };
    repos.shops.save_shop(&branded, T0 + 1).await.unwrap();
    assert_eq!(
        repos.shops.fetch_shop(merchant).await.unwrap(),
        Some(branded.clone())
    );
    let fee = FeePct::parse_merchant_add_on("2").unwrap();
    repos
        .shops
        .save_processing_fee(merchant, fee, T0 + 2)
        .await
        .unwrap();
    let stored = repos.shops.fetch_shop(merchant).await.unwrap().unwrap();
    assert_eq!(
        (stored.brand_name.as_str(), stored.processing_fee_pct),
        ("Cafe", fee)
    );
}

pub(crate) async fn a_split_is_kept_unless_replaced_and_replacements_are_archived(repos: Repositories) {
    let merchant = wallet('a');
    let (first, second) = (split('1', '2'), split('3', '4'));

    assert_eq!(
        repos.shops.save_split(merchant, &first, false, T0).await.unwrap(),
        SplitSaved::Created(first.clone())
    );
    assert_eq!(
        repos
            .shops
            .save_split(merchant, &second, false, T0 + 1)
            .await
            .unwrap(),
        SplitSaved::Existing(first.clone())
    );
    assert_eq!(
        repos
            .shops
            .save_split(merchant, &second, true, T0 + 2)
            .await
            .unwrap(),
        SplitSaved::Replaced(second.clone())
    );

    assert_eq!(repos.shops.fetch_split(merchant).await.unwrap(), Some(second));
    let archived = ArchivedSplit {
        split: first,
        created_at_ms: T0,
        archived_at_ms: T0 + 2,
    };
    assert_eq!(
        repos.shops.list_split_history(merchant).await.unwrap(),
        vec![archived]
    );
    assert!(
        repos
            .shops
            .list_split_history(wallet('c'))
            .await
            .unwrap()
            .is_empty()
    );
}

pub(crate) async fn parallel_split_deploys_keep_one_active_split(repos: Repositories) {
    let merchant = wallet('a');
    let barrier = Arc::new(Barrier::new(6));
    let racers: Vec<_> = (0..6u8)
        .map(|n| {
            let (repos, barrier) = (repos.clone(), barrier.clone());
            tokio::spawn(async move {
                let digit = char::from(b'1' + n);
                let mine = split(digit, digit);
                barrier.wait().await;
                (
                    mine.clone(),
                    repos
                        .shops
                        .save_split(merchant, &mine, n % 2 == 0, T0)
                        .await
                        .unwrap(),
                )
            })
        })
        .collect();

    let mut outcomes = Vec::new();
    for racer in racers {
        outcomes.push(racer.await.unwrap());
    }

    let created = outcomes
        .iter()
        .filter(|(_, saved)| matches!(saved, SplitSaved::Created(_)))
        .count();
    let replaced = outcomes
        .iter()
        .filter(|(_, saved)| matches!(saved, SplitSaved::Replaced(_)))
        .count();
    assert_eq!(created, 1);
    assert_eq!(
        repos.shops.list_split_history(merchant).await.unwrap().len(),
        replaced
    );
    let active = repos.shops.fetch_split(merchant).await.unwrap().unwrap();
    assert!(outcomes.iter().any(|(mine, _)| *mine == active));
}

pub(crate) async fn a_receipt_reads_with_its_merchants_current_split(repos: Repositories) {
    let merchant = wallet('a');
    let sale = crate::fixtures::receipt_sale(crate::fixtures::new_receipt(merchant, "order-1", 500));
    repos.receipts.create(sale).await.unwrap();
    let id = payments_domain::receipt::ReceiptId::parse("id", "order-1").unwrap();
    let before = repos
        .receipts
        .fetch_with_split(Some(merchant), &id)
        .await
        .unwrap();
    repos
        .shops
        .save_split(merchant, &split('1', '2'), false, T0)
        .await
        .unwrap();

    let after = repos.receipts.fetch_with_split(None, &id).await.unwrap();

    assert_eq!(
        before.map(|(receipt, split)| (receipt.id, split)),
        Some((id.clone(), None))
    );
    assert_eq!(after.map(|(_, split)| split), Some(Some(split('1', '2'))));
    assert_eq!(
        repos
            .receipts
            .fetch_with_split(Some(wallet('c')), &id)
            .await
            .unwrap(),
        None
    );
}
