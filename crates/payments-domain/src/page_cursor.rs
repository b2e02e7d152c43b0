//! Opaque list cursors (`cursor` in, `nextCursor` out): the position just after the last item of a page,
//! as the list's sort key plus the row's insertion id. A page after a cursor is a keyset query ("rows
//! after this key"), never an OFFSET, so rows inserted or deleted while a client walks the pages neither
//! repeat nor skip the rows it has not seen yet.
//!
//! The text is base64url of `<kind>1:<fields>`: opaque to clients (they only hand it back), versioned so
//! the format can change, and checked strictly on the way in. It names no merchant and grants nothing:
//! the list is still the caller's own, the cursor only says where in it to start.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::field_error::FieldError;
use crate::inventory::{InventoryItem, SortField, SortOrder};

/// The longest cursor read: every cursor this server makes is far shorter (a product name is at most a
/// few hundred bytes).
const MAX_CURSOR_CHARS: usize = 1024;

/// Where a receipts page ends: receipts list newest first, `(created_at, row id)` descending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReceiptKey {
    pub created_at: i64,
    pub row_id: i64,
}

/// The sort value of the last product of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SortValue {
    /// `price_cents`, `stock_qty`, `created_at`, `updated_at`.
    Int(i64),
    /// `name` (compared case-insensitively, as the listing sorts it).
    Text(String),
}

/// Where an inventory page ends, for the sort and order it was made with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InventoryKey {
    pub sort: SortField,
    pub order: SortOrder,
    pub value: SortValue,
    pub row_id: i64,
}

impl ReceiptKey {
    /// The `nextCursor` text.
    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode(format!("r1:{}:{}", self.created_at, self.row_id))
    }

    /// Reads a `cursor` parameter of `GET /api/receipts`.
    ///
    /// # Errors
    /// A [`FieldError`] on `cursor` for anything this server did not make.
    pub fn decode(cursor: &str) -> Result<Self, FieldError> {
        let text = decoded(cursor)?;
        let mut parts = text.split(':');
        match (parts.next(), parts.next(), parts.next(), parts.next()) {
            (Some("r1"), Some(created_at), Some(row_id), None) => Ok(ReceiptKey {
                created_at: created_at.parse().map_err(|_| malformed())?,
                row_id: row_id.parse().map_err(|_| malformed())?,
            }),
            _ => Err(malformed()),
        }
    }
}

impl InventoryKey {
    /// The key of `item` (stored under `row_id`) in a listing sorted by `sort` and `order`.
    pub fn of(item: &InventoryItem, row_id: i64, sort: SortField, order: SortOrder) -> Self {
        let value = match sort {
            SortField::Name => SortValue::Text(item.fields.name.clone()),
            SortField::PriceUsd => SortValue::Int(item.fields.price_usd.as_i64()),
            SortField::StockQty => SortValue::Int(item.fields.stock_qty),
            SortField::CreatedAt => SortValue::Int(item.created_at),
            SortField::UpdatedAt => SortValue::Int(item.updated_at),
        };
        InventoryKey {
            sort,
            order,
            value,
            row_id,
        }
    }

    /// The `nextCursor` text.
    pub fn encode(&self) -> String {
        let value = match &self.value {
            SortValue::Int(number) => number.to_string(),
            SortValue::Text(text) => text.clone(),
        };
        // The value goes last: a name may contain ':'.
        let text = format!(
            "i1:{}:{}:{}:{value}",
            sort_code(self.sort),
            order_code(self.order),
            self.row_id
        );
        URL_SAFE_NO_PAD.encode(text)
    }

    /// Reads a `cursor` parameter of `GET /api/inventory` listed with `sort` and `order`.
    ///
    /// # Errors
    /// A [`FieldError`] on `cursor` for anything this server did not make, or a cursor of another sort or
    /// order (its position means nothing in this one).
    pub fn decode(cursor: &str, sort: SortField, order: SortOrder) -> Result<Self, FieldError> {
        let text = decoded(cursor)?;
        let mut parts = text.splitn(5, ':');
        let (Some("i1"), Some(sort_text), Some(order_text), Some(row_id), Some(value)) = (
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
        ) else {
            return Err(malformed());
        };
        if sort_text != sort_code(sort) || order_text != order_code(order) {
            return Err(FieldError::new(
                "cursor",
                "was made for another sort or order; list again without it",
            ));
        }
        let value = match sort {
            SortField::Name => SortValue::Text(value.to_owned()),
            _ => SortValue::Int(value.parse().map_err(|_| malformed())?),
        };
        Ok(InventoryKey {
            sort,
            order,
            value,
            row_id: row_id.parse().map_err(|_| malformed())?,
        })
    }
}

/// The text inside a cursor (checked for length and encoding only); shared by every list's cursor.
pub(super) fn decoded(cursor: &str) -> Result<String, FieldError> {
    if cursor.len() > MAX_CURSOR_CHARS {
        return Err(malformed());
    }
    let bytes = URL_SAFE_NO_PAD.decode(cursor).map_err(|_| malformed())?;
    String::from_utf8(bytes).map_err(|_| malformed())
}

/// The refusal of a cursor this server did not make.
pub(super) fn malformed() -> FieldError {
    FieldError::new(
        "cursor",
        "is not a cursor of this list: pass a nextCursor value unchanged, or list without it",
    )
}

fn sort_code(sort: SortField) -> &'static str {
    match sort {
        SortField::Name => "name",
        SortField::PriceUsd => "price",
        SortField::StockQty => "stock",
        SortField::CreatedAt => "created",
        SortField::UpdatedAt => "updated",
    }
}

fn order_code(order: SortOrder) -> &'static str {
    match order {
        SortOrder::Asc => "asc",
        SortOrder::Desc => "desc",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_read_back_what_they_encode() {
        let receipt = ReceiptKey {
            created_at: 1_700_000_000_123,
            row_id: 42,
        };
        let product = InventoryKey {
            sort: SortField::Name,
            order: SortOrder::Asc,
            value: SortValue::Text("Mug: blue".to_owned()),
            row_id: 7,
        };

        assert_eq!(ReceiptKey::decode(&receipt.encode()), Ok(receipt));
        assert_eq!(
            InventoryKey::decode(&product.encode(), SortField::Name, SortOrder::Asc),
            Ok(product)
        );
    }

    #[test]
    fn anything_else_is_refused_on_the_cursor_field() {
        let product = InventoryKey {
            sort: SortField::PriceUsd,
            order: SortOrder::Desc,
            value: SortValue::Int(250),
            row_id: 3,
        }
        .encode();
        let receipt = ReceiptKey {
            created_at: 1,
            row_id: 1,
        }
        .encode();

        for bad in ["", "not base64!", "cjE6eDp5", &product, &"A".repeat(2000)] {
            assert_eq!(ReceiptKey::decode(bad).unwrap_err().field, "cursor", "{bad}");
        }
        assert!(InventoryKey::decode(&receipt, SortField::PriceUsd, SortOrder::Desc).is_err());
        let other_order = InventoryKey::decode(&product, SortField::PriceUsd, SortOrder::Asc).unwrap_err();
        assert!(other_order.message.contains("another sort"), "{other_order}");
    }
}
