//! HTML escaping. Every value the page interpolates (labels, brand names, ids, failure texts, URIs) passes
//! through [`Html`]: receipt content is written by merchants' callers and must never become markup.

use std::fmt;

/// Displays its text escaped for HTML element content and double- or single-quoted attribute values.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Html<'a>(pub(crate) &'a str);

impl fmt::Display for Html<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(position) = rest.find(['&', '<', '>', '"', '\'']) {
            f.write_str(&rest[..position])?;
            let entity = match rest.as_bytes()[position] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                _ => "&#39;",
            };
            f.write_str(entity)?;
            rest = &rest[position + 1..];
        }
        f.write_str(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::Html;

    #[test]
    fn markup_characters_become_entities() {
        let escaped = Html(r#"<script>alert("x&y's")</script>"#).to_string();
        assert_eq!(
            escaped,
            "&lt;script&gt;alert(&quot;x&amp;y&#39;s&quot;)&lt;/script&gt;"
        );
    }

    #[test]
    fn plain_and_non_ascii_text_is_unchanged() {
        assert_eq!(Html("Café — 2 × mug").to_string(), "Café — 2 × mug");
        assert_eq!(Html("").to_string(), "");
    }
}
