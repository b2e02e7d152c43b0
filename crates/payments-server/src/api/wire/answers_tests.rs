//! The exact bytes of the answers written from domain records: the field order, the left-out and the null
//! fields and the text forms are what clients saw when the domain serialized these answers itself.

use payments_core::{Cents, TokenAmount, Wallet};
use serde_json::json;

use crate::api::wire::charges::{BatchReport, BillingEvent};
use crate::api::wire::inventory_answers::ShownItem;
use crate::domain::inventory::{
    ImageDataUrl, InventoryItem, ItemFields, ProductId, ShippingConfig, ShownImage, Sku,
};
use crate::domain::recurring::{self, ChargeResultStatus, CustomerSubscriptionId};

fn shown_item() -> crate::domain::inventory::ShownItem {
    let shipping: ShippingConfig = serde_json::from_value(json!({
        "enabled": true, "weightLbs": 0.5, "dimensions": {"length": 1.5, "width": 2.0, "height": 3.0, "unit": "cm"},
        "shippingClass": "standard", "allowedMethods": ["standard", "pickup"], "methodPricing": {"standard": 4.99},
        "handlingDays": 2, "originCountry": "US", "insuredOnly": true
    }))
    .unwrap();
    crate::domain::inventory::ShownItem {
        item: InventoryItem {
            id: ProductId::from_stored("prod_1".to_owned()),
            wallet: Wallet::parse("0x00000000000000000000000000000000000000aa").unwrap(),
            fields: ItemFields {
                sku: Sku::from_stored("TEE-1".to_owned()),
                name: "T-shirt".to_owned(),
                price_usd: Cents::new(1999),
                currency: "USD".to_owned(),
                stock_qty: -1,
                category: "Apparel".to_owned(),
                description: String::new(),
                tags: vec!["cotton".to_owned()],
                attributes: json!({"size": 42}).as_object().unwrap().clone(),
                cost_usd: Cents::new(750),
                taxable: true,
                jurisdiction_code: None,
                industry_pack: "apparel".to_owned(),
                shipping_enabled: true,
                shipping_config: shipping,
            },
            images: Vec::new(),
            created_at: 1,
            updated_at: 2,
        },
        images: vec![
            ShownImage::Embedded(ImageDataUrl::encode("image/png", b"abc")),
            ShownImage::Linked("/api/inventory/prod_1/images/1?v=00".to_owned()),
        ],
    }
}

#[test]
fn a_shown_product_is_written_flat_in_the_documented_order_with_its_images_as_text() {
    let domain = shown_item();

    let bytes = serde_json::to_string(&ShownItem::from(&domain)).unwrap();

    assert_eq!(
        bytes,
        concat!(
            r#"{"id":"prod_1","wallet":"0x00000000000000000000000000000000000000aa","sku":"TEE-1","#,
            r#""name":"T-shirt","priceUsd":19.99,"currency":"USD","stockQty":-1,"category":"Apparel","#,
            r#""description":"","tags":["cotton"],"attributes":{"size":42},"costUsd":7.5,"taxable":true,"#,
            r#""jurisdictionCode":null,"industryPack":"apparel","shippingEnabled":true,"#,
            r#""shippingConfig":{"enabled":true,"weightLbs":0.5,"#,
            r#""dimensions":{"length":1.5,"width":2.0,"height":3.0,"unit":"cm"},"shippingClass":"standard","#,
            r#""allowedMethods":["standard","pickup"],"methodPricing":{"standard":4.99},"handlingDays":2,"#,
            r#""originCountry":"US","insuredOnly":true},"createdAt":1,"updatedAt":2,"#,
            r#""images":["data:image/png;base64,YWJj","/api/inventory/prod_1/images/1?v=00"]}"#
        )
    );
}

#[test]
fn a_billing_event_writes_its_base_units_as_text_and_an_absent_hash_or_failure_as_null() {
    let event = recurring::BillingEvent::with_units(
        CustomerSubscriptionId::from_stored("csub_1".to_owned()),
        3,
        recurring::BillingEventStatus::Charged,
        Cents::new(99),
        (
            TokenAmount::from_base_units(4950),
            TokenAmount::from_base_units(985_050),
        ),
        None,
        None,
        7,
    );

    let bytes = serde_json::to_string(&BillingEvent::from(&event)).unwrap();

    assert_eq!(
        bytes,
        concat!(
            r#"{"subscriptionId":"csub_1","periodIndex":3,"status":"charged","grossUsd":0.99,"#,
            r#""feeUsd":0,"netUsd":0.99,"grossBaseUnits":"990000","feeBaseUnits":"4950","#,
            r#""netBaseUnits":"985050","transactionHash":null,"failure":null,"createdAt":7}"#
        )
    );
}

#[test]
fn a_batch_report_leaves_out_a_result_s_absent_hash_and_error() {
    let result = |status, transaction_hash: Option<&str>, error: Option<&str>| recurring::ChargeResult {
        subscription_id: CustomerSubscriptionId::from_stored("csub_1".to_owned()),
        period_index: 0,
        status,
        transaction_hash: transaction_hash.map(str::to_owned),
        error: error.map(str::to_owned),
        subscription_status: payments_core::SubscriptionStatus::Active,
    };
    let report = recurring::BatchReport {
        success: true,
        processed: 2,
        succeeded: 1,
        failed: 1,
        duration_ms: 5,
        notices_sent: 0,
        revoked_on_chain: 0,
        results: vec![
            result(ChargeResultStatus::Charged, Some("0xab"), None),
            result(ChargeResultStatus::Pending, None, Some("node down")),
        ],
    };

    let bytes = serde_json::to_string(&BatchReport::from(&report)).unwrap();

    assert_eq!(
        bytes,
        concat!(
            r#"{"success":true,"processed":2,"succeeded":1,"failed":1,"durationMs":5,"noticesSent":0,"#,
            r#""revokedOnChain":0,"results":["#,
            r#"{"subscriptionId":"csub_1","periodIndex":0,"status":"charged","transactionHash":"0xab","#,
            r#""subscriptionStatus":"active"},"#,
            r#"{"subscriptionId":"csub_1","periodIndex":0,"status":"pending","error":"node down","#,
            r#""subscriptionStatus":"active"}]}"#
        )
    );
}
