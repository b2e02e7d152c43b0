//! Test support: the path shapes the route table in `routes.rs` routes, read from its source, so checks
//! over "every route" (metrics labels, OpenAPI operations) follow the table without a second list.

/// One arm of the route table: the methods it matches (`None` for `_`) and a concrete path it matches (each
/// `_` or binding segment becomes `x1`; each `"a" | "b"` alternative gives its own shape).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RoutedShape {
    pub(crate) methods: Option<Vec<String>>,
    pub(crate) path: String,
}

/// Every shape the arms of `route` match, in table order.
pub(crate) fn routed_shapes() -> Vec<RoutedShape> {
    let source = include_str!("routes.rs");
    let end = source.find("pub(crate) fn pattern").unwrap_or(source.len());
    let mut shapes = Vec::new();
    for line in source[..end]
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with('('))
    {
        let (Some(open), Some(close)) = (line.find(", ["), line.find("]) =>")) else {
            continue;
        };
        let methods = match &line[1..open] {
            "_" => None,
            methods => Some(
                methods
                    .split(" | ")
                    .map(|method| method.trim_start_matches("&Method::").to_owned())
                    .collect(),
            ),
        };
        for shape in line[open + 3..close].split("] | [") {
            for path in expand(shape) {
                shapes.push(RoutedShape {
                    methods: methods.clone(),
                    path,
                });
            }
        }
    }
    shapes
}

/// Every concrete path one `"a", _, "b" | "c"` segment pattern matches (a binding becomes one segment).
fn expand(shape: &str) -> Vec<String> {
    let mut paths = vec![String::new()];
    for segment in shape.split(", ") {
        let choices: Vec<String> = if segment.starts_with('"') {
            segment
                .split(" | ")
                .map(|choice| choice.trim_matches('"').to_owned())
                .collect()
        } else {
            vec!["x1".to_owned()]
        };
        paths = paths
            .iter()
            .flat_map(|path| choices.iter().map(move |choice| format!("{path}/{choice}")))
            .collect();
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alternatives_and_bindings_expand_into_concrete_shapes() {
        assert_eq!(
            expand(r#""api", "receipts", "refund" | "terminal""#),
            ["/api/receipts/refund", "/api/receipts/terminal"]
        );
        assert_eq!(expand(r#""portal", id"#), ["/portal/x1"]);
    }

    #[test]
    fn the_table_is_read_with_its_methods() {
        let shapes = routed_shapes();

        assert!(shapes.contains(&RoutedShape {
            methods: Some(vec!["GET".to_owned(), "HEAD".to_owned()]),
            path: "/portal/x1".to_owned(),
        }));
        assert!(shapes.contains(&RoutedShape {
            methods: None,
            path: "/api/split/withdraw".to_owned(),
        }));
        assert!(shapes.len() > 40, "only {} shapes", shapes.len());
    }
}
