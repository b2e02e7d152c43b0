//! Fuzz-style properties of the product CSV reader (`payments inventory import`): any file reads without
//! a panic into rows or one error, and any product written as CSV (quotes, commas, new lines, any text)
//! reads back as the same upsert. See docs/fuzzing.md; `scripts/fuzz.sh` runs them long.

use super::{COLUMNS, ColumnMap, read_rows};
use payments_core::Cents;
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Cases per property when `PROPTEST_CASES` is not set.
const DEFAULT_CASES: u32 = 1_000;

fn config() -> Config {
    let mut config = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = DEFAULT_CASES;
    }
    config
}

/// Text biased towards what CSV dispatches on: separators, quotes, line ends, padding.
fn csv_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just(",".to_owned()),
        Just("\"".to_owned()),
        Just("\n".to_owned()),
        Just("\r\n".to_owned()),
        Just(" ".to_owned()),
        proptest::sample::select(&COLUMNS[..]).prop_map(str::to_owned),
        "[0-9.e-]{1,8}",
        ".{0,10}",
    ];
    proptest::collection::vec(piece, 0..60).prop_map(|pieces| pieces.concat())
}

#[derive(Debug, Clone)]
struct Product {
    sku: String,
    name: String,
    cents: i64,
    stock: i64,
    description: Option<String>,
    tags: Vec<String>,
    taxable: Option<bool>,
    cost_cents: Option<i64>,
}

/// A cell that is not blank once trimmed (the reader trims cells and treats blank ones as unset).
fn cell() -> impl Strategy<Value = String> {
    ".{0,20}".prop_filter_map("blank", |text| {
        let trimmed = text.trim();
        (!trimmed.is_empty()).then(|| trimmed.to_owned())
    })
}

fn product() -> impl Strategy<Value = Product> {
    (
        (cell(), cell(), 0..10_000_000_i64, -1..1_000_000_i64),
        (
            proptest::option::of(cell()),
            proptest::collection::vec("[a-z0-9 ,\"]{1,8}", 0..4),
            proptest::option::of(any::<bool>()),
            proptest::option::of(0..1_000_000_i64),
        ),
    )
        .prop_map(
            |((sku, name, cents, stock), (description, tags, taxable, cost_cents))| {
                let tags = tags
                    .iter()
                    .map(|tag| tag.trim().to_owned())
                    .filter(|tag| !tag.is_empty())
                    .collect();
                Product {
                    sku,
                    name,
                    cents,
                    stock,
                    description,
                    tags,
                    taxable,
                    cost_cents,
                }
            },
        )
}

fn usd(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

fn write_file(products: &[Product]) -> Vec<u8> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let header = [
        "sku",
        "name",
        "priceUsd",
        "stockQty",
        "description",
        "tags",
        "taxable",
        "costUsd",
    ];
    writer.write_record(header).unwrap();
    for product in products {
        let taxable = product.taxable.map(|taxable| if taxable { "yes" } else { "no" });
        writer
            .write_record([
                product.sku.as_str(),
                &product.name,
                &usd(product.cents),
                &product.stock.to_string(),
                product.description.as_deref().unwrap_or(""),
                &product.tags.join(";"),
                taxable.unwrap_or(""),
                &product.cost_cents.map(usd).unwrap_or_default(),
            ])
            .unwrap();
    }
    writer.into_inner().unwrap()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_bytes_read_into_rows_or_one_error_and_every_row_converts_or_names_its_problem(
        bytes in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..600),
            csv_text().prop_map(String::into_bytes),
            csv_text().prop_map(|body| format!("sku,name,priceUsd,stockQty\n{body}").into_bytes()),
        ],
    ) {
        if let Ok((columns, rows)) = read_rows(bytes.as_slice()) {
            for (_, record) in &rows {
                if let Ok(item) = columns.to_upsert(record) {
                    prop_assert!(!item.sku.is_empty() && !item.name.is_empty());
                    prop_assert!(item.price_usd >= Cents::new(0));
                    prop_assert!(item.stock_qty >= -1);
                }
            }
        }
    }

    #[test]
    fn any_products_written_as_csv_read_back_as_the_same_upserts(
        products in proptest::collection::vec(product(), 1..8),
    ) {
        let (columns, rows) = read_rows(write_file(&products).as_slice()).unwrap();
        prop_assert_eq!(rows.len(), products.len());
        for ((_, record), product) in rows.iter().zip(&products) {
            let item = columns.to_upsert(record).unwrap();
            prop_assert_eq!(&item.sku, &product.sku);
            prop_assert_eq!(&item.name, &product.name);
            prop_assert_eq!(item.price_usd, Cents::new(product.cents));
            prop_assert_eq!(item.stock_qty, product.stock);
            prop_assert_eq!(item.description.as_ref(), product.description.as_ref());
            let tags = (!product.tags.is_empty()).then(|| product.tags.clone());
            prop_assert_eq!(item.tags.filter(|tags| !tags.is_empty()), tags);
            prop_assert_eq!(item.taxable, product.taxable);
            prop_assert_eq!(item.cost_usd, product.cost_cents.map(Cents::new));
        }
    }

    #[test]
    fn a_header_reads_exactly_when_its_columns_are_known_distinct_and_hold_the_required_four(
        names in proptest::collection::vec(
            prop_oneof![proptest::sample::select(&COLUMNS[..]).prop_map(str::to_owned), "[a-zA-Z]{1,10}"],
            0..14,
        ),
    ) {
        let header = csv::StringRecord::from(names.clone());
        let known = |name: &String| COLUMNS.iter().any(|column| column.eq_ignore_ascii_case(name.trim()));
        let lowered: Vec<String> = names.iter().map(|name| name.trim().to_ascii_lowercase()).collect();
        let distinct = lowered.iter().enumerate().all(|(index, name)| !lowered[..index].contains(name));
        let required = ["sku", "name", "priceusd", "stockqty"].iter().all(|column| lowered.iter().any(|name| name == column));
        let expected = names.iter().all(known) && distinct && required;
        prop_assert_eq!(ColumnMap::from_header(&header).is_ok(), expected, "{:?}", names);
    }
}
