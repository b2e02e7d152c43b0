//! The product CSV format of `payments inventory import`: columns, and rows into upsert bodies.

use payments_client::UpsertInventoryItem;
use payments_core::Cents;

use crate::item_view::parse_stock;

/// Every column the importer knows, in the documented order.
pub(crate) const COLUMNS: [&str; 11] = [
    "sku",
    "name",
    "priceUsd",
    "stockQty",
    "category",
    "description",
    "tags",
    "taxable",
    "jurisdictionCode",
    "costUsd",
    "industryPack",
];

/// Columns every file must have.
const REQUIRED: [&str; 4] = ["sku", "name", "priceUsd", "stockQty"];

/// Where each known column is in a file (files may order columns freely and leave optional ones out).
#[derive(Debug)]
pub(crate) struct ColumnMap {
    positions: [Option<usize>; COLUMNS.len()],
    /// Cells the header names: a row with more would lose its extra cells.
    width: usize,
}

impl ColumnMap {
    /// Reads the header row.
    ///
    /// # Errors
    /// The message names an unknown column (likely a typo), a repeated column or a missing required one.
    pub(crate) fn from_header(header: &csv::StringRecord) -> Result<ColumnMap, String> {
        let mut positions = [None; COLUMNS.len()];
        for (position, name) in header.iter().enumerate() {
            let name = name.trim();
            let Some(index) = COLUMNS
                .iter()
                .position(|column| column.eq_ignore_ascii_case(name))
            else {
                return Err(format!(
                    "unknown column {name:?}; the columns are {}",
                    COLUMNS.join(",")
                ));
            };
            if positions[index].replace(position).is_some() {
                return Err(format!("column {name:?} appears twice"));
            }
        }
        let map = ColumnMap {
            positions,
            width: header.len(),
        };
        for required in REQUIRED {
            if map.position(required).is_none() {
                return Err(format!("missing required column {required:?}"));
            }
        }
        Ok(map)
    }

    fn position(&self, column: &str) -> Option<usize> {
        let index = COLUMNS.iter().position(|known| *known == column)?;
        self.positions[index]
    }

    /// The trimmed cell of `column`, `None` when the column is absent or the cell empty.
    fn cell<'r>(&self, record: &'r csv::StringRecord, column: &str) -> Option<&'r str> {
        let value = record.get(self.position(column)?)?.trim();
        (!value.is_empty()).then_some(value)
    }

    /// The row's SKU cell, to name a row that failed.
    pub(crate) fn sku<'r>(&self, record: &'r csv::StringRecord) -> Option<&'r str> {
        self.cell(record, "sku")
    }

    /// Converts one data row.
    ///
    /// # Errors
    /// The message names the column whose value is missing or unreadable, or says the row has more cells
    /// than the header has columns (never dropped silently: usually an unquoted comma shifted the row).
    pub(crate) fn to_upsert(&self, record: &csv::StringRecord) -> Result<UpsertInventoryItem, String> {
        if record.len() > self.width {
            return Err(format!(
                "the row has {} cells but the header names {} columns (a comma inside a value needs quotes)",
                record.len(),
                self.width
            ));
        }
        let required = |column: &str| {
            self.cell(record, column)
                .ok_or_else(|| format!("{column} is empty"))
        };
        let sku = required("sku")?;
        let name = required("name")?;
        let price = money(required("priceUsd")?, "priceUsd")?;
        let stock = parse_stock(required("stockQty")?).map_err(|why| format!("stockQty {why}"))?;
        let mut item = UpsertInventoryItem::new(sku, name, price, stock);
        let text = |column: &str| self.cell(record, column).map(str::to_owned);
        item.category = text("category");
        item.description = text("description");
        item.jurisdiction_code = text("jurisdictionCode");
        item.industry_pack = text("industryPack");
        item.tags = self.cell(record, "tags").map(|tags| {
            tags.split(';')
                .map(str::trim)
                .filter(|tag| !tag.is_empty())
                .map(str::to_owned)
                .collect()
        });
        item.taxable = self.cell(record, "taxable").map(boolean).transpose()?;
        item.cost_usd = self
            .cell(record, "costUsd")
            .map(|cost| money(cost, "costUsd"))
            .transpose()?;
        Ok(item)
    }
}

/// Reads a product file: the header's column map and every data row with its row (line) number. Rows may
/// have fewer or more cells than the header (a missing optional cell is unset; a missing required one fails
/// that row alone, by name).
///
/// # Errors
/// The message says why the header or a row is not CSV, or what is wrong with the header.
pub(crate) fn read_rows(
    source: impl std::io::Read,
) -> Result<(ColumnMap, Vec<(u64, csv::StringRecord)>), String> {
    let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(source);
    let header = reader
        .headers()
        .map_err(|err| format!("cannot read the header: {err}"))?;
    let columns = ColumnMap::from_header(header)?;
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|err| err.to_string())?;
        let row = record.position().map_or(0, csv::Position::line);
        rows.push((row, record));
    }
    Ok((columns, rows))
}

fn money(text: &str, column: &str) -> Result<Cents, String> {
    Cents::parse_usd(text).map_err(|err| format!("{column}: {err}"))
}

fn boolean(text: &str) -> Result<bool, String> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "yes" | "y" | "1" => Ok(true),
        "false" | "no" | "n" | "0" => Ok(false),
        _ => Err(format!("taxable {text:?} is not true or false")),
    }
}

#[cfg(test)]
mod fuzz;

#[cfg(test)]
mod tests {
    use payments_core::Cents;

    use super::ColumnMap;

    fn record(fields: &[&str]) -> csv::StringRecord {
        csv::StringRecord::from(fields.to_vec())
    }

    #[test]
    fn a_full_row_becomes_an_upsert_with_exact_money_and_split_tags() {
        let map = ColumnMap::from_header(&record(&super::COLUMNS)).unwrap();
        let item = map
            .to_upsert(&record(&[
                "MUG-1",
                "Blue mug",
                "12.99",
                "-1",
                "kitchen",
                "A mug",
                "blue; ceramic;",
                "yes",
                "US-CA",
                "3.5",
                "retail",
            ]))
            .unwrap();
        assert_eq!(item.price_usd, Cents::new(1299));
        assert_eq!(item.stock_qty, -1);
        assert_eq!(item.tags, Some(vec!["blue".to_owned(), "ceramic".to_owned()]));
        assert_eq!(item.taxable, Some(true));
        assert_eq!(item.cost_usd, Some(Cents::new(350)));
        assert_eq!(item.industry_pack.as_deref(), Some("retail"));
    }

    #[test]
    fn optional_columns_may_be_left_out_and_empty_cells_are_unset() {
        let map =
            ColumnMap::from_header(&record(&["name", "SKU", "stockQty", "priceUsd", "category"])).unwrap();
        let item = map.to_upsert(&record(&["Tee", "T-1", "0", "5", ""])).unwrap();
        assert_eq!(item.sku, "T-1");
        assert_eq!(item.category, None);
        assert_eq!(item.tags, None);
    }

    #[test]
    fn a_header_with_an_unknown_or_missing_column_is_refused() {
        let unknown = ColumnMap::from_header(&record(&["sku", "name", "price", "stockQty"])).unwrap_err();
        assert!(unknown.contains("unknown column \"price\""), "{unknown}");
        let missing = ColumnMap::from_header(&record(&["sku", "name", "priceUsd"])).unwrap_err();
        assert!(missing.contains("stockQty"), "{missing}");
    }

    #[test]
    fn a_row_with_more_cells_than_the_header_is_refused_not_cut() {
        let map = ColumnMap::from_header(&record(&["sku", "name", "priceUsd", "stockQty"])).unwrap();
        let error = map
            .to_upsert(&record(&["MUG-1", "Mug", "12", "99", "5"]))
            .unwrap_err();
        assert_eq!(
            error,
            "the row has 5 cells but the header names 4 columns (a comma inside a value needs quotes)"
        );
        assert!(map.to_upsert(&record(&["MUG-1", "Mug", "12"])).is_err());
    }

    #[test]
    fn unreadable_values_name_their_column() {
        let map = ColumnMap::from_header(&record(&["sku", "name", "priceUsd", "stockQty"])).unwrap();
        assert!(
            map.to_upsert(&record(&["A", "B", "1.999", "1"]))
                .unwrap_err()
                .starts_with("priceUsd")
        );
        assert!(
            map.to_upsert(&record(&["A", "B", "1", "many"]))
                .unwrap_err()
                .starts_with("stockQty")
        );
        assert_eq!(
            map.to_upsert(&record(&["A", "B", "1", "unlimited"]))
                .unwrap()
                .stock_qty,
            -1
        );
        assert_eq!(
            map.to_upsert(&record(&["", "B", "1", "1"])).unwrap_err(),
            "sku is empty"
        );
    }
}
