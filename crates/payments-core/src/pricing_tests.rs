use proptest::prelude::*;

use super::*;

fn item(label: &str, cents: i64, qty: u32, taxable: bool) -> PricingItem {
    PricingItem {
        item_id: Some(format!("id-{label}")),
        sku: Some(format!("SKU-{label}")),
        label: label.to_owned(),
        unit_price: Cents::new(cents),
        qty,
        taxable,
        thumb: None,
    }
}

fn fees(add_on: &str) -> FeeSchedule {
    FeeSchedule {
        platform_base: FeePct::PLATFORM_BASE,
        merchant_add_on: FeePct::parse(add_on).unwrap(),
    }
}

#[test]
fn an_order_gets_product_tax_and_fee_lines_in_that_order() {
    let items = [item("Tea", 350, 2, true), item("Mug", 450, 1, true)];
    let priced = price_order(&items, TaxRate::parse("0.095").unwrap(), fees("0")).unwrap();
    let labels: Vec<_> = priced.line_items.iter().map(|l| l.label.as_str()).collect();
    assert_eq!(labels, ["Tea", "Mug", "Tax", "Processing Fee"]);
    assert_eq!(priced.line_items[0].price_usd, Cents::new(700));
    assert_eq!(priced.line_items[0].unit_price_usd, Some(Cents::new(350)));
    assert_eq!(priced.line_items[0].qty, Some(2));
    assert_eq!(priced.line_items[2].qty, None);
    assert_eq!(
        (priced.subtotal, priced.tax, priced.fee, priced.total),
        (Cents::new(1150), Cents::new(109), Cents::new(6), Cents::new(1265))
    );
}

#[test]
fn zero_tax_and_zero_fee_lines_are_omitted() {
    let fee_free = FeeSchedule {
        platform_base: FeePct::ZERO,
        merchant_add_on: FeePct::ZERO,
    };
    let priced = price_order(
        &[item("Gift", 1000, 1, false)],
        TaxRate::parse("0.2").unwrap(),
        fee_free,
    )
    .unwrap();
    assert_eq!(priced.line_items.len(), 1);
    assert_eq!(priced.total, Cents::new(1000));
}

#[test]
fn empty_orders_and_bad_quantities_are_refused() {
    assert_eq!(
        price_order(&[], TaxRate::ZERO, fees("0")),
        Err(PricingError::NoItems)
    );
    assert!(matches!(
        price_order(&[item("A", 100, 0, true)], TaxRate::ZERO, fees("0")),
        Err(PricingError::InvalidQuantity { index: 0, qty: 0, .. })
    ));
    assert!(matches!(
        price_order(
            &[item("A", 100, MAX_QUANTITY + 1, true)],
            TaxRate::ZERO,
            fees("0")
        ),
        Err(PricingError::InvalidQuantity { .. })
    ));
}

#[test]
fn huge_orders_overflow_into_an_error_not_a_panic() {
    let items = [item("A", i64::MAX / 2, 3, true)];
    assert_eq!(
        price_order(&items, TaxRate::ZERO, fees("0")),
        Err(PricingError::Overflow)
    );
}

#[test]
fn a_terminal_sale_is_taxed_and_charged_like_an_order() {
    let priced = price_terminal(
        Cents::new(10000),
        "Walk-in",
        TaxRate::parse("0.095").unwrap(),
        fees("1.5"),
    )
    .unwrap();
    assert_eq!(
        (priced.tax, priced.fee, priced.total),
        (Cents::new(950), Cents::new(219), Cents::new(11169))
    );
    assert_eq!(priced.line_items[0].label, "Walk-in");
    assert_eq!(
        price_terminal(Cents::ZERO, "x", TaxRate::ZERO, fees("0")),
        Err(PricingError::ZeroAmount)
    );
}

proptest! {
    #[test]
    fn totals_are_the_sum_of_their_parts(
        prices in proptest::collection::vec((0i64..10_000_000, 1u32..1000, any::<bool>()), 1..20),
        rate_bp in 0u32..=10_000,
        add_on_bp in 0u32..=1_000,
    ) {
        let items: Vec<_> = prices.iter().enumerate()
            .map(|(i, (c, q, t))| item(&i.to_string(), *c, *q, *t)).collect();
        let rate = TaxRate::parse(&format!("{}", rate_bp as f64 / 10_000.0)).unwrap();
        let schedule = fees(&format!("{}", add_on_bp as f64 / 100.0));
        let priced = price_order(&items, rate, schedule).unwrap();
        let lines: i64 = priced.line_items.iter().map(|l| l.price_usd.as_i64()).sum();
        prop_assert_eq!(lines, priced.total.as_i64());
        // Tax is within half a cent of the exact product.
        let taxable: i128 = prices.iter().filter(|p| p.2).map(|p| i128::from(p.0) * i128::from(p.1)).sum();
        let exact_tax_x10000 = taxable * i128::from(rate_bp);
        prop_assert!((i128::from(priced.tax.as_i64()) * 10_000 - exact_tax_x10000).abs() <= 5_000);
    }
}
