//! Every case of `order-pricing.json` (made with an independent tool) must price to the listed cents.

use payments_core::{Cents, FeePct, FeeSchedule, PricingItem, TaxRate, price_order};
use serde::Deserialize;

#[derive(Deserialize)]
struct VectorFile {
    vectors: Vec<Vector>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Vector {
    items: Vec<VectorItem>,
    tax_rate: TaxRate,
    merchant_add_on_pct: FeePct,
    platform_base_pct: FeePct,
    expected: Expected,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct VectorItem {
    price_usd: Cents,
    qty: u32,
    taxable: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Expected {
    subtotal_cents: i64,
    tax_cents: i64,
    processing_fee_cents: i64,
    total_cents: i64,
    total_usd: Cents,
}

#[test]
fn every_order_pricing_vector_produces_the_expected_cents() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/order-pricing.json"
    ))
    .unwrap();
    let file: VectorFile = serde_json::from_str(&text).unwrap();
    assert_eq!(file.vectors.len(), 40);
    for (index, vector) in file.vectors.iter().enumerate() {
        let items: Vec<PricingItem> = vector
            .items
            .iter()
            .enumerate()
            .map(|(i, item)| PricingItem {
                item_id: None,
                sku: None,
                label: format!("item {i}"),
                unit_price: item.price_usd,
                qty: item.qty,
                taxable: item.taxable,
                thumb: None,
            })
            .collect();
        let fees = FeeSchedule {
            platform_base: vector.platform_base_pct,
            merchant_add_on: vector.merchant_add_on_pct,
        };
        let priced = price_order(&items, vector.tax_rate, fees).unwrap();
        let expected = &vector.expected;
        assert_eq!(
            priced.subtotal.as_i64(),
            expected.subtotal_cents,
            "vector {index} subtotal"
        );
        assert_eq!(priced.tax.as_i64(), expected.tax_cents, "vector {index} tax");
        assert_eq!(
            priced.fee.as_i64(),
            expected.processing_fee_cents,
            "vector {index} fee"
        );
        assert_eq!(
            priced.total.as_i64(),
            expected.total_cents,
            "vector {index} total"
        );
        assert_eq!(priced.total, expected.total_usd, "vector {index} totalUsd");
    }
}
