//! The stored form of a product's fields that both backends write alike: JSON columns, the lower-cased tag
//! keys the tag filters match, and the text `q` searches.

use payments_domain::inventory::ItemFields;

/// Columns derived from [`ItemFields`] (the rest are stored as they are).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ItemColumns {
    pub(crate) tags_json: String,
    /// Lower-cased tags: the filters match tags case-insensitively.
    pub(crate) tag_keys_json: String,
    pub(crate) attributes_json: String,
    pub(crate) shipping_config_json: String,
    pub(crate) search_text: String,
}

impl ItemColumns {
    /// # Errors
    /// When a value cannot be serialized (our own types always can).
    pub(crate) fn of(fields: &ItemFields) -> serde_json::Result<Self> {
        let tag_keys: Vec<String> = fields.tags.iter().map(|tag| tag.to_lowercase()).collect();
        Ok(ItemColumns {
            tags_json: serde_json::to_string(&fields.tags)?,
            tag_keys_json: serde_json::to_string(&tag_keys)?,
            attributes_json: serde_json::to_string(&fields.attributes)?,
            shipping_config_json: serde_json::to_string(&fields.shipping_config)?,
            search_text: search_text(fields),
        })
    }
}

/// Lower-cased text `q` searches: name, SKU, description, category and tags, one per line so a search
/// cannot match across two fields.
fn search_text(fields: &ItemFields) -> String {
    let mut parts = vec![
        fields.name.as_str(),
        fields.sku.as_str(),
        fields.description.as_str(),
        &fields.category,
    ];
    parts.extend(fields.tags.iter().map(String::as_str));
    parts.join("\n").to_lowercase()
}
