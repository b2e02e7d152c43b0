//! How products look in the terminal: a listing table and a one-product detail table.

use payments_client::{Degraded, InventoryItem, InventoryPage};
use serde_json::{Value, json};

use crate::output::{Table, one_line, utc_ms};

/// The listing table with a count line below it.
pub(crate) fn page_table(items: &[InventoryItem], total: u64, shown_from: &InventoryPage) -> String {
    let mut table = Table::new(["ID", "SKU", "NAME", "PRICE", "STOCK", "CATEGORY"]);
    for item in items {
        table.row([
            item.id.clone(),
            one_line(&item.sku),
            one_line(&item.name),
            item.price_usd.to_string(),
            stock(item.stock_qty),
            one_line(item.category.as_deref().unwrap_or("")),
        ]);
    }
    let mut text = if items.is_empty() {
        "no items\n".to_owned()
    } else {
        table.render()
    };
    text.push_str(&format!(
        "{} of {total} items (page {}, page size {})\n",
        items.len(),
        shown_from.page,
        shown_from.page_size
    ));
    if let Some(cursor) = &shown_from.next_cursor {
        text.push_str(&format!("more: --cursor {cursor} (or --all)\n"));
    }
    text.push_str(&degraded_note(shown_from.degraded.as_ref()));
    text
}

/// One product, field by field.
pub(crate) fn detail_table(item: &InventoryItem) -> String {
    let mut table = Table::new(["FIELD", "VALUE"]);
    let optional = |value: Option<&str>| one_line(value.unwrap_or(""));
    let rows = [
        ("id", item.id.clone()),
        ("sku", one_line(&item.sku)),
        ("name", one_line(&item.name)),
        ("price", format!("{} {}", item.price_usd, item.currency)),
        ("stock", stock(item.stock_qty)),
        ("category", optional(item.category.as_deref())),
        ("description", optional(item.description.as_deref())),
        ("tags", one_line(&item.tags.join(", "))),
        ("taxable", item.taxable.to_string()),
        ("jurisdiction", optional(item.jurisdiction_code.as_deref())),
        (
            "cost",
            item.cost_usd.map(|cost| cost.to_string()).unwrap_or_default(),
        ),
        ("industry pack", optional(item.industry_pack.as_deref())),
        ("images", item.images.len().to_string()),
        ("shipping", item.shipping_enabled.to_string()),
        ("created at", utc_ms(item.created_at)),
        ("updated at", utc_ms(item.updated_at)),
    ];
    for (field, value) in rows {
        table.row([field.to_owned(), value]);
    }
    table.render()
}

/// The listing as JSON, in the service's own shape.
pub(crate) fn page_json(items: &[InventoryItem], total: u64, page: &InventoryPage) -> Value {
    let mut value = json!({
        "items": items,
        "total": total,
        "page": page.page,
        "pageSize": page.page_size,
        "nextCursor": page.next_cursor,
    });
    add_degraded(&mut value, page.degraded.as_ref());
    value
}

/// Adds `degraded: true, reason` to a JSON object when the service answered degraded.
pub(crate) fn add_degraded(value: &mut Value, degraded: Option<&Degraded>) {
    if let (Some(object), Some(degraded)) = (value.as_object_mut(), degraded) {
        object.insert("degraded".to_owned(), Value::Bool(true));
        object.insert("reason".to_owned(), Value::String(degraded.reason.clone()));
    }
}

/// A warning line when the service answered degraded, else nothing.
pub(crate) fn degraded_note(degraded: Option<&Degraded>) -> String {
    match degraded {
        Some(degraded) => format!("warning: the service is degraded ({})\n", degraded.reason),
        None => String::new(),
    }
}

/// What tables print for a stock quantity; [`parse_stock`] reads it back.
fn stock(quantity: i64) -> String {
    match quantity {
        -1 => UNLIMITED.to_owned(),
        quantity => quantity.to_string(),
    }
}

const UNLIMITED: &str = "unlimited";

/// A stock quantity as people write it: `unlimited` (or the wire's `-1`), `0` for out of stock, or a
/// positive whole number. Accepted wherever tables print stock (`--stock`, the CSV `stockQty` column).
///
/// # Errors
/// A message naming the accepted forms.
pub(crate) fn parse_stock(text: &str) -> Result<i64, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case(UNLIMITED) {
        return Ok(-1);
    }
    match text.parse::<i64>() {
        Ok(quantity) if quantity >= -1 => Ok(quantity),
        _ => Err(format!(
            "{text:?} is not a stock quantity: use a whole number (0 = out of stock) or `unlimited` (or -1)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_stock, stock};

    #[test]
    fn stock_reads_back_what_tables_print() {
        for quantity in [-1, 0, 7] {
            assert_eq!(parse_stock(&stock(quantity)), Ok(quantity));
        }
        assert_eq!(parse_stock("Unlimited"), Ok(-1));
        assert!(parse_stock("-2").is_err());
        assert!(parse_stock("lots").is_err());
    }
}
