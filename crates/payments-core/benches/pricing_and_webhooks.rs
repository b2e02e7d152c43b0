//! Criterion benchmarks: pricing an order and signing a webhook body.

use criterion::{Criterion, criterion_group, criterion_main};
use payments_core::{
    Cents, FeePct, FeeSchedule, PricingItem, StandardWebhooksSecret, TaxRate, price_order,
    x_service_signature,
};
use std::hint::black_box;

fn order_items() -> Vec<PricingItem> {
    (0..10)
        .map(|i| PricingItem {
            item_id: Some(format!("item-{i}")),
            sku: Some(format!("SKU-{i}")),
            label: format!("Product {i}"),
            unit_price: Cents::new(1999 + i),
            qty: 3,
            taxable: i % 2 == 0,
            thumb: None,
        })
        .collect()
}

fn pricing(c: &mut Criterion) {
    let items = order_items();
    let rate = TaxRate::parse("0.0825").unwrap_or(TaxRate::ZERO);
    let fees = FeeSchedule {
        platform_base: FeePct::PLATFORM_BASE,
        merchant_add_on: FeePct::parse("1.5").unwrap_or(FeePct::ZERO),
    };
    c.bench_function("price_order (10 lines, tax + fee)", |b| {
        b.iter(|| price_order(black_box(&items), black_box(rate), black_box(fees)))
    });
}

fn signing(c: &mut Criterion) {
    let body = vec![b'x'; 1024];
    let key = b"sk_live_0123456789abcdef0123456789abcdef";
    c.bench_function("x_service_signature (1 KiB body)", |b| {
        b.iter(|| x_service_signature(black_box(key), black_box(&body)))
    });
    let secret = StandardWebhooksSecret::from_key_bytes(key);
    c.bench_function("standard webhooks v1 signature (1 KiB body)", |b| {
        b.iter(|| {
            secret.sign(
                black_box("msg_0123456789"),
                black_box(1_767_599_992),
                black_box(&body),
            )
        })
    });
}

criterion_group!(benches, pricing, signing);
criterion_main!(benches);
