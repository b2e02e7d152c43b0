//! Typed filters, sorting and paging of `GET /api/inventory`.

use payments_core::Cents;
use url::Url;

/// Filters, sort and page of an inventory listing. Every field is optional; unset fields use the
/// service's defaults (newest `updatedAt` first, 100 per page, page 0).
///
/// ```
/// use payments_client::{InventoryQuery, SortField, SortOrder, StockFilter};
/// let query = InventoryQuery::new()
///     .category("mugs")
///     .stock(StockFilter::InStock)
///     .sort(SortField::PriceUsd, SortOrder::Asc)
///     .page_size(50);
/// assert_eq!(query.page_size, Some(50));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InventoryQuery {
    /// Free text over name, SKU, description, category and tags.
    pub q: Option<String>,
    /// Exact category.
    pub category: Option<String>,
    /// Lowest price, inclusive.
    pub price_min: Option<Cents>,
    /// Highest price, inclusive.
    pub price_max: Option<Cents>,
    /// Tags to match (sent comma-separated).
    pub tags: Vec<String>,
    /// Whether an item needs all of [`InventoryQuery::tags`] or any of them.
    pub tags_mode: Option<TagsMode>,
    /// Industry pack.
    pub industry_pack: Option<String>,
    /// Only taxable (`true`) or only non-taxable (`false`) products.
    pub taxable: Option<bool>,
    /// Stock filter.
    pub stock: Option<StockFilter>,
    /// Sort field.
    pub sort: Option<SortField>,
    /// Sort order.
    pub order: Option<SortOrder>,
    /// Page size, 1..=200.
    pub page_size: Option<u32>,
    /// Page number, 0-indexed.
    pub page: Option<u32>,
    /// Start after this position: an [`crate::InventoryPage::next_cursor`] of the same filters and sort
    /// (then leave [`InventoryQuery::page`] unset).
    pub cursor: Option<String>,
}

/// How [`InventoryQuery::tags`] combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TagsMode {
    /// The item has every tag (the default).
    All,
    /// The item has at least one tag.
    Any,
}

/// Stock filter of a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StockFilter {
    /// Unlimited or a positive quantity.
    InStock,
    /// Quantity 0.
    OutOfStock,
    /// No stock filter.
    All,
}

/// Sort field of a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SortField {
    /// Name.
    Name,
    /// Unit price.
    PriceUsd,
    /// Stock quantity.
    StockQty,
    /// Creation time.
    CreatedAt,
    /// Last update (the default).
    UpdatedAt,
}

/// Sort direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SortOrder {
    /// Ascending.
    Asc,
    /// Descending (the default).
    Desc,
}

impl TagsMode {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            TagsMode::All => "all",
            TagsMode::Any => "any",
        }
    }
}

impl StockFilter {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            StockFilter::InStock => "in",
            StockFilter::OutOfStock => "out",
            StockFilter::All => "all",
        }
    }
}

impl SortField {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            SortField::Name => "name",
            SortField::PriceUsd => "priceUsd",
            SortField::StockQty => "stockQty",
            SortField::CreatedAt => "createdAt",
            SortField::UpdatedAt => "updatedAt",
        }
    }
}

impl SortOrder {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            SortOrder::Asc => "asc",
            SortOrder::Desc => "desc",
        }
    }
}

impl InventoryQuery {
    /// A query with no filters: the service's defaults.
    pub fn new() -> Self {
        InventoryQuery::default()
    }

    /// Sets the free-text search.
    pub fn q(mut self, text: impl Into<String>) -> Self {
        self.q = Some(text.into());
        self
    }

    /// Sets the category filter.
    pub fn category(mut self, category: impl Into<String>) -> Self {
        self.category = Some(category.into());
        self
    }

    /// Sets the inclusive price range; `None` leaves that side open.
    pub fn price_range(mut self, min: Option<Cents>, max: Option<Cents>) -> Self {
        self.price_min = min;
        self.price_max = max;
        self
    }

    /// Sets the tags filter and how the tags combine.
    pub fn tags<I, S>(mut self, tags: I, mode: TagsMode) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.tags = tags.into_iter().map(Into::into).collect();
        self.tags_mode = Some(mode);
        self
    }

    /// Sets the industry-pack filter.
    pub fn industry_pack(mut self, pack: impl Into<String>) -> Self {
        self.industry_pack = Some(pack.into());
        self
    }

    /// Sets the tax-status filter.
    pub fn taxable(mut self, taxable: bool) -> Self {
        self.taxable = Some(taxable);
        self
    }

    /// Sets the stock filter.
    pub fn stock(mut self, stock: StockFilter) -> Self {
        self.stock = Some(stock);
        self
    }

    /// Sets the sort field and direction.
    pub fn sort(mut self, field: SortField, order: SortOrder) -> Self {
        self.sort = Some(field);
        self.order = Some(order);
        self
    }

    /// Sets the page size (the service accepts 1..=200).
    pub fn page_size(mut self, size: u32) -> Self {
        self.page_size = Some(size);
        self
    }

    /// Sets the 0-indexed page number.
    pub fn page(mut self, page: u32) -> Self {
        self.page = Some(page);
        self
    }

    /// Sets the position to start after (a page's `next_cursor`).
    pub fn cursor(mut self, cursor: impl Into<String>) -> Self {
        self.cursor = Some(cursor.into());
        self
    }

    /// Appends the set parameters to `url`'s query string.
    pub(crate) fn append_to(&self, url: &mut Url) {
        let mut pairs = url.query_pairs_mut();
        let mut put = |name: &str, value: &str| {
            pairs.append_pair(name, value);
        };
        if let Some(q) = &self.q {
            put("q", q);
        }
        if let Some(category) = &self.category {
            put("category", category);
        }
        if let Some(min) = self.price_min {
            put("priceMin", &min.to_string());
        }
        if let Some(max) = self.price_max {
            put("priceMax", &max.to_string());
        }
        if !self.tags.is_empty() {
            put("tags", &self.tags.join(","));
        }
        if let Some(mode) = self.tags_mode {
            put("tagsMode", mode.as_str());
        }
        if let Some(pack) = &self.industry_pack {
            put("industryPack", pack);
        }
        if let Some(taxable) = self.taxable {
            put("taxable", if taxable { "true" } else { "false" });
        }
        if let Some(stock) = self.stock {
            put("stock", stock.as_str());
        }
        if let Some(sort) = self.sort {
            put("sort", sort.as_str());
        }
        if let Some(order) = self.order {
            put("order", order.as_str());
        }
        if let Some(size) = self.page_size {
            put("pageSize", &size.to_string());
        }
        if let Some(page) = self.page {
            put("page", &page.to_string());
        }
        if let Some(cursor) = &self.cursor {
            put("cursor", cursor);
        }
    }
}

#[cfg(test)]
mod tests {
    use payments_core::Cents;
    use url::Url;

    use super::{InventoryQuery, SortField, SortOrder, StockFilter, TagsMode};

    fn rendered(query: &InventoryQuery) -> String {
        let mut url = Url::parse("http://host/api/inventory").unwrap();
        query.append_to(&mut url);
        url.query().unwrap_or_default().to_owned()
    }

    #[test]
    fn an_empty_query_sends_no_parameters() {
        assert_eq!(rendered(&InventoryQuery::new()), "");
    }

    #[test]
    fn every_filter_uses_the_wire_names_and_values() {
        let query = InventoryQuery::new()
            .q("blue mug")
            .category("kitchen")
            .price_range(Some(Cents::new(150)), Some(Cents::new(2000)))
            .tags(["a", "b"], TagsMode::Any)
            .industry_pack("retail")
            .taxable(true)
            .stock(StockFilter::OutOfStock)
            .sort(SortField::PriceUsd, SortOrder::Asc)
            .page_size(200)
            .page(3);
        assert_eq!(
            rendered(&query),
            "q=blue+mug&category=kitchen&priceMin=1.50&priceMax=20.00&tags=a%2Cb&tagsMode=any\
             &industryPack=retail&taxable=true&stock=out&sort=priceUsd&order=asc&pageSize=200&page=3"
        );
    }
}
