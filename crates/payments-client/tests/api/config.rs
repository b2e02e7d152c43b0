//! `split()`, `shop_config()`, `pricing_config()`, `site_config()` and `tax_catalog()`.

use payments_client::{Client, ErrorCode};
use payments_core::{FeePct, Wallet};
use payments_server::testing::spawn_app;

use crate::helpers::{client, client_with_key};

#[tokio::test]
async fn split_reads_an_unconfigured_split_as_empty() {
    let app = spawn_app().await;

    let split = client(&app).split().await.unwrap();

    assert!(!split.is_configured());
    assert!(split.recipients.is_empty());
}

#[tokio::test]
async fn split_needs_the_split_read_scope() {
    let app = spawn_app().await;
    let reader = app.create_key(app.wallet, "shop:read").await;

    let error = client_with_key(&app, &reader.key).split().await.unwrap_err();

    assert_eq!(error.code(), Some(ErrorCode::Forbidden));
}

#[tokio::test]
async fn shop_and_pricing_config_show_the_defaults() {
    let app = spawn_app().await;

    let shop = client(&app).shop_config().await.unwrap();
    let pricing = client(&app).pricing_config().await.unwrap();

    assert_eq!(shop.wallet, app.wallet);
    assert_eq!(shop.brand_name, "");
    assert_eq!(shop.brand_key, None);
    assert_eq!(pricing.platform_fee_pct, FeePct::parse("0.5").unwrap());
    assert_eq!(pricing.merchant_add_on_pct, FeePct::parse("0").unwrap());
    assert_eq!(pricing.effective_fee_pct, FeePct::parse("0.5").unwrap());
}

#[tokio::test]
async fn site_config_needs_no_key() {
    let app = spawn_app().await;
    let anonymous = Client::builder(&app.base_url).build().unwrap();

    let site = anonymous.site_config().await.unwrap();

    assert_eq!(site.chain_id, 31337, "the test-mode chain");
    assert_eq!(site.token.symbol, "USDC");
    assert_eq!(site.token.decimals, 6);
    assert_eq!(site.split_platform_share_bps, 50);
    assert_eq!(
        site.platform_recipient,
        Some(Wallet::parse("0x5050505050505050505050505050505050505050").unwrap())
    );
}

#[tokio::test]
async fn tax_catalog_lists_the_built_in_jurisdictions() {
    let app = spawn_app().await;

    let catalog = client(&app).tax_catalog().await.unwrap();

    assert_eq!(catalog.jurisdictions.len(), 51);
    assert_eq!(catalog.default_jurisdiction, None);
    let california = catalog
        .jurisdictions
        .iter()
        .find(|entry| entry.jurisdiction.code == "US-CA")
        .unwrap();
    assert_eq!(california.source, "catalog");
}
