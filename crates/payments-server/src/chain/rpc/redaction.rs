//! Chain errors without node URLs.

/// HTTP client errors name the URL they failed on, and node URLs often carry an API key in their path or query
/// (`https://…/v3/<key>`): chain errors are logged, stored with settlement attempts and shown on receipts, so
/// every URL in them is cut to its scheme.
pub(super) fn without_urls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = ["https://", "http://"]
        .iter()
        .filter_map(|scheme| rest.find(scheme))
        .min()
    {
        out.push_str(&rest[..start]);
        let url = &rest[start..];
        let end = url
            .find(|c: char| c.is_whitespace() || matches!(c, ')' | '"' | '\'' | '>' | ','))
            .unwrap_or(url.len());
        let scheme_end = url.find("://").map_or(0, |at| at + 3);
        out.push_str(&url[..scheme_end]);
        out.push_str("[node]");
        rest = &url[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::without_urls;

    #[test]
    fn chain_errors_never_carry_the_node_url_or_its_key() {
        let text =
            "error sending request for url (https://base.example/v3/SECRETKEY?x=1): connection refused";
        let shown = without_urls(text);
        assert_eq!(
            shown,
            "error sending request for url (https://[node]): connection refused"
        );
        assert_eq!(without_urls("no url here"), "no url here");
        assert_eq!(
            without_urls("a http://h:8545/k and http://h/j"),
            "a http://[node] and http://[node]"
        );
    }
}
