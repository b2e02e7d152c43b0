//! GET /api/inventory query parameters, parsed into a filter the store can run.

use payments_core::Cents;

use crate::field_error::FieldError;
use crate::inventory::item::InventoryItem;
use crate::page_cursor::InventoryKey;

pub(super) const DEFAULT_PAGE_SIZE: u32 = 100;
pub(super) const MAX_PAGE_SIZE: u32 = 200;
/// Bounds the OFFSET so it cannot overflow; no merchant has this many pages.
const MAX_PAGE: u32 = 1_000_000;
/// The longest query string a listing reads (4 KiB): every filter fits many times over, and no request can
/// make the store compare thousands of values.
pub(super) const MAX_QUERY_BYTES: usize = 4096;
/// The most tags one `tags=` filter may name (a product has at most 24).
pub(super) const MAX_FILTER_TAGS: usize = 50;
/// The longest tag a filter may name, in bytes (a product's tags are at most 40 characters).
pub(super) const MAX_FILTER_TAG_BYTES: usize = 64;

/// `tagsMode`: whether an item needs all listed tags or any one of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagsMode {
    All,
    Any,
}

/// `stock`: `in` (stockQty -1 or > 0), `out` (stockQty 0) or `all`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StockFilter {
    All,
    In,
    Out,
}

/// `sort`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortField {
    Name,
    PriceUsd,
    StockQty,
    CreatedAt,
    UpdatedAt,
}

/// `order`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    Asc,
    Desc,
}

/// A parsed inventory listing request. Text filters are lower-cased here; the store compares lower-cased.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InventoryQuery {
    pub q: Option<String>,
    pub category: Option<String>,
    pub price_min: Option<Cents>,
    pub price_max: Option<Cents>,
    pub tags: Vec<String>,
    pub tags_mode: TagsMode,
    pub industry_pack: Option<String>,
    pub taxable: Option<bool>,
    pub stock: StockFilter,
    pub sort: SortField,
    pub order: SortOrder,
    pub page: u32,
    pub page_size: u32,
    /// `cursor`: list the products after this one (instead of a page number).
    pub after: Option<InventoryKey>,
}

/// One page of a listing.
#[derive(Debug, Clone, PartialEq)]
pub struct InventoryPage {
    pub items: Vec<InventoryItem>,
    pub total: u64,
    /// Where the next page starts; `None` when this page is the last.
    pub next: Option<InventoryKey>,
}

impl InventoryQuery {
    /// `query_bytes` is the length of the raw query string; `param(name)` returns a parameter's value (empty
    /// values count as absent).
    pub fn parse<'a>(
        query_bytes: usize,
        param: impl Fn(&str) -> Option<&'a str>,
    ) -> Result<Self, FieldError> {
        if query_bytes > MAX_QUERY_BYTES {
            return Err(FieldError::new(
                "query",
                format!("the query string is {query_bytes} bytes; at most {MAX_QUERY_BYTES} are read"),
            ));
        }
        let get = |name: &str| param(name).map(str::trim).filter(|value| !value.is_empty());
        let sort = get("sort").map_or(Ok(SortField::UpdatedAt), sort)?;
        let order = get("order").map_or(Ok(SortOrder::Desc), order)?;
        let query = InventoryQuery {
            q: get("q").map(str::to_lowercase),
            category: get("category").map(str::to_lowercase),
            price_min: get("priceMin").map(|text| usd("priceMin", text)).transpose()?,
            price_max: get("priceMax").map(|text| usd("priceMax", text)).transpose()?,
            tags: get("tags").map(tag_list).transpose()?.unwrap_or_default(),
            tags_mode: get("tagsMode").map_or(Ok(TagsMode::All), tags_mode)?,
            industry_pack: get("industryPack").map(str::to_lowercase),
            taxable: get("taxable").map(|text| boolean("taxable", text)).transpose()?,
            stock: get("stock").map_or(Ok(StockFilter::All), stock)?,
            sort,
            order,
            page: get("page").map_or(Ok(0), |text| number("page", text, 0, MAX_PAGE))?,
            page_size: get("pageSize").map_or(Ok(DEFAULT_PAGE_SIZE), |text| {
                number("pageSize", text, 1, MAX_PAGE_SIZE)
            })?,
            after: get("cursor")
                .map(|cursor| InventoryKey::decode(cursor, sort, order))
                .transpose()?,
        };
        if query.after.is_some() && query.page > 0 {
            return Err(FieldError::new(
                "page",
                "cannot be combined with cursor: a cursor already says where the page starts",
            ));
        }
        if let (Some(min), Some(max)) = (query.price_min, query.price_max)
            && min > max
        {
            return Err(FieldError::new("priceMin", "must not be greater than priceMax"));
        }
        Ok(query)
    }
}

fn usd(field: &str, text: &str) -> Result<Cents, FieldError> {
    Cents::parse_usd(text).map_err(|error| FieldError::new(field, error.to_string()))
}

/// Counted as written (before de-duplication), so a long list of one repeated tag is refused too.
fn tag_list(text: &str) -> Result<Vec<String>, FieldError> {
    let mut tags: Vec<String> = text
        .split(',')
        .map(str::trim)
        .filter(|tag| !tag.is_empty())
        .map(|tag| {
            if tag.len() > MAX_FILTER_TAG_BYTES {
                Err(FieldError::new(
                    "tags",
                    format!("each tag is at most {MAX_FILTER_TAG_BYTES} bytes"),
                ))
            } else {
                Ok(tag.to_lowercase())
            }
        })
        .collect::<Result<_, _>>()?;
    if tags.len() > MAX_FILTER_TAGS {
        return Err(FieldError::new(
            "tags",
            format!("at most {MAX_FILTER_TAGS} tags, got {}", tags.len()),
        ));
    }
    tags.sort();
    tags.dedup();
    Ok(tags)
}

fn tags_mode(text: &str) -> Result<TagsMode, FieldError> {
    match text {
        "all" => Ok(TagsMode::All),
        "any" => Ok(TagsMode::Any),
        _ => Err(FieldError::new("tagsMode", "must be all or any")),
    }
}

fn boolean(field: &str, text: &str) -> Result<bool, FieldError> {
    crate::field_error::parse_flag(field, Some(text))?
        .ok_or_else(|| FieldError::new(field, "must be true or false"))
}

fn stock(text: &str) -> Result<StockFilter, FieldError> {
    match text {
        "all" => Ok(StockFilter::All),
        "in" => Ok(StockFilter::In),
        "out" => Ok(StockFilter::Out),
        _ => Err(FieldError::new("stock", "must be in, out or all")),
    }
}

fn sort(text: &str) -> Result<SortField, FieldError> {
    match text {
        "name" => Ok(SortField::Name),
        "priceUsd" => Ok(SortField::PriceUsd),
        "stockQty" => Ok(SortField::StockQty),
        "createdAt" => Ok(SortField::CreatedAt),
        "updatedAt" => Ok(SortField::UpdatedAt),
        _ => Err(FieldError::new(
            "sort",
            "must be name, priceUsd, stockQty, createdAt or updatedAt",
        )),
    }
}

fn order(text: &str) -> Result<SortOrder, FieldError> {
    match text {
        "asc" => Ok(SortOrder::Asc),
        "desc" => Ok(SortOrder::Desc),
        _ => Err(FieldError::new("order", "must be asc or desc")),
    }
}

fn number(field: &str, text: &str, min: u32, max: u32) -> Result<u32, FieldError> {
    text.parse::<u32>()
        .ok()
        .filter(|value| (min..=max).contains(value))
        .ok_or_else(|| FieldError::new(field, format!("must be an integer from {min} to {max}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(pairs: &[(&'static str, &'static str)]) -> Result<InventoryQuery, FieldError> {
        InventoryQuery::parse(0, |name| {
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| *value)
        })
    }

    #[test]
    fn defaults_are_updated_at_descending_first_page_of_100() {
        let query = parse(&[]).unwrap();

        assert_eq!(
            (query.sort, query.order, query.page, query.page_size),
            (SortField::UpdatedAt, SortOrder::Desc, 0, 100)
        );
        assert_eq!((query.tags_mode, query.stock), (TagsMode::All, StockFilter::All));
    }

    #[test]
    fn out_of_range_page_sizes_name_the_parameter() {
        assert_eq!(parse(&[("pageSize", "201")]).unwrap_err().field, "pageSize");
        assert_eq!(parse(&[("pageSize", "0")]).unwrap_err().field, "pageSize");
        assert_eq!(parse(&[("page", "-1")]).unwrap_err().field, "page");
    }

    #[test]
    fn tags_are_split_lower_cased_and_deduplicated() {
        assert_eq!(
            parse(&[("tags", "Red, blue,red,,")]).unwrap().tags,
            vec!["blue".to_owned(), "red".to_owned()]
        );
    }

    #[test]
    fn more_than_fifty_tags_or_a_tag_over_64_bytes_is_refused() {
        let fifty = (0..50).map(|n| format!("t{n}")).collect::<Vec<_>>().join(",");
        let fifty_one = format!("{fifty},t50");
        let long = "x".repeat(65);
        let parse_tags =
            |tags: &str| InventoryQuery::parse(tags.len(), |name| (name == "tags").then_some(tags));

        assert_eq!(parse_tags(&fifty).unwrap().tags.len(), 50);
        assert_eq!(parse_tags(&fifty_one).unwrap_err().field, "tags");
        assert_eq!(parse_tags(&long).unwrap_err().field, "tags");
        assert_eq!(parse_tags(&"x".repeat(64)).unwrap().tags.len(), 1);
    }

    #[test]
    fn a_cursor_is_read_for_the_listed_sort_and_never_with_a_page_number() {
        use crate::page_cursor::SortValue;
        let cursor = InventoryKey {
            sort: SortField::PriceUsd,
            order: SortOrder::Asc,
            value: SortValue::Int(150),
            row_id: 9,
        }
        .encode();
        let with_page = |page: &str| -> Vec<(&'static str, String)> {
            vec![
                ("sort", "priceUsd".to_owned()),
                ("order", "asc".to_owned()),
                ("cursor", cursor.clone()),
                ("page", page.to_owned()),
            ]
        };
        let first = with_page("0");
        let third = with_page("2");
        fn lookup<'a>(pairs: &'a [(&'static str, String)], name: &str) -> Option<&'a str> {
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| value.as_str())
        }

        let parsed = InventoryQuery::parse(0, |name| lookup(&first, name)).unwrap();
        let refused = InventoryQuery::parse(0, |name| lookup(&third, name)).unwrap_err();

        assert_eq!(parsed.after.map(|key| key.row_id), Some(9));
        assert_eq!(refused.field, "page");
        assert_eq!(parse(&[("cursor", "x")]).unwrap_err().field, "cursor");
    }

    #[test]
    fn a_query_string_over_4_kib_is_refused() {
        assert_eq!(parse_len(4097).unwrap_err().field, "query");
        assert!(parse_len(4096).is_ok());
    }

    fn parse_len(bytes: usize) -> Result<InventoryQuery, FieldError> {
        InventoryQuery::parse(bytes, |_| None)
    }
}
