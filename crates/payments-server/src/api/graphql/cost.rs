//! What a document would cost, computed on the parsed document before anything expands or runs it.
//!
//! async-graphql's own depth and complexity checks walk the document with every fragment spread inlined,
//! so a document whose fragments each spread the previous one twice makes them do work that doubles per
//! fragment (a 1.3 KB document at 30 levels never finished). Here each fragment is costed once and its
//! cost reused at every spread (memoised), so the work is linear in the document's length whatever it
//! would expand to; only a document this pass admits (at most [`MAX_NODES`] fields once expanded) reaches
//! the schema, whose own checks are then bounded too.

use std::collections::HashMap;

use async_graphql::parser::types::{ExecutableDocument, Field, Selection, SelectionSet};
use async_graphql::{Name, Value, Variables};

use super::schema::PAGED_FIELDS;
use super::{DEFAULT_PAGE, MAX_COMPLEXITY, MAX_DEPTH, MAX_PAGE};

/// Most fields a document may hold once every fragment spread is expanded. The standard introspection
/// query expands to about 200; a legitimate query of this schema to far fewer.
pub(crate) const MAX_NODES: u64 = 2_000;

/// The three measures of a document (of its costliest operation for depth and complexity; of all of it,
/// every operation and fragment expanded, for the node count). Saturating: a document that would expand
/// past `u64::MAX` reads as `u64::MAX`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct DocumentCost {
    /// Deepest nesting of fields (fragments add no level, as in async-graphql's count).
    pub(crate) depth: u64,
    /// Each field 1 plus its selection; a paged field `first` times its selection (the schema's rule).
    pub(crate) complexity: u64,
    /// Fields once expanded.
    pub(crate) nodes: u64,
    /// Whether it asks for `__schema` or `__type` anywhere.
    pub(crate) introspects: bool,
}

/// Why a document is refused before it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// A fragment spreads itself, directly or through others.
    FragmentCycle(String),
    TooLarge(u64),
    TooDeep(u64),
    TooComplex(u64),
}

impl Refusal {
    /// The message of the GraphQL error; the depth and complexity ones are async-graphql's own words, so a
    /// client sees the same text whichever check refused.
    pub(crate) fn message(&self) -> String {
        match self {
            Refusal::FragmentCycle(name) => format!("Fragment \"{name}\" spreads itself."),
            Refusal::TooLarge(nodes) => format!(
                "Query is too large: it expands to {} fields (at most {MAX_NODES}).",
                shown(*nodes)
            ),
            Refusal::TooDeep(_) => "Query is nested too deep.".to_owned(),
            Refusal::TooComplex(_) => "Query is too complex.".to_owned(),
        }
    }
}

fn shown(count: u64) -> String {
    if count == u64::MAX {
        "more than 2^64".to_owned()
    } else {
        count.to_string()
    }
}

/// Refuses a document over any bound; the size first, since it is what bounds every later check's work.
pub(crate) fn admit(document: &ExecutableDocument, variables: &Variables) -> Result<DocumentCost, Refusal> {
    let cost = measure(document, variables)?;
    if cost.nodes > MAX_NODES {
        return Err(Refusal::TooLarge(cost.nodes));
    }
    if cost.depth > MAX_DEPTH as u64 {
        return Err(Refusal::TooDeep(cost.depth));
    }
    if cost.complexity > MAX_COMPLEXITY as u64 {
        return Err(Refusal::TooComplex(cost.complexity));
    }
    Ok(cost)
}

/// The document's cost, each fragment costed once.
pub(crate) fn measure(document: &ExecutableDocument, variables: &Variables) -> Result<DocumentCost, Refusal> {
    let mut meter = Meter {
        document,
        variables,
        fragments: HashMap::new(),
    };
    let mut total = DocumentCost::default();
    for (_, operation) in document.operations.iter() {
        let cost = meter.selection_set(&operation.node.selection_set.node)?;
        total.depth = total.depth.max(cost.depth);
        total.complexity = total.complexity.max(cost.complexity);
        total.nodes = total.nodes.saturating_add(cost.nodes);
        total.introspects |= cost.introspects;
    }
    // A fragment no operation spreads is still validated (and walked) by the schema, so it counts once.
    for name in document.fragments.keys() {
        if !meter.fragments.contains_key(name) {
            let cost = meter.fragment(name)?;
            total.nodes = total.nodes.saturating_add(cost.nodes);
            total.introspects |= cost.introspects;
        }
    }
    Ok(total)
}

/// A fragment being costed (a spread of it now is a cycle), or its cost.
#[derive(Debug, Clone, Copy)]
enum Memo {
    InProgress,
    Done(DocumentCost),
}

struct Meter<'a> {
    document: &'a ExecutableDocument,
    variables: &'a Variables,
    fragments: HashMap<&'a Name, Memo>,
}

impl<'a> Meter<'a> {
    fn selection_set(&mut self, set: &'a SelectionSet) -> Result<DocumentCost, Refusal> {
        let mut total = DocumentCost::default();
        for item in &set.items {
            let cost = match &item.node {
                Selection::Field(field) => self.field(&field.node)?,
                Selection::FragmentSpread(spread) => self.fragment(&spread.node.fragment_name.node)?,
                Selection::InlineFragment(inline) => self.selection_set(&inline.node.selection_set.node)?,
            };
            total.depth = total.depth.max(cost.depth);
            total.complexity = total.complexity.saturating_add(cost.complexity);
            total.nodes = total.nodes.saturating_add(cost.nodes);
            total.introspects |= cost.introspects;
        }
        Ok(total)
    }

    fn field(&mut self, field: &'a Field) -> Result<DocumentCost, Refusal> {
        let children = self.selection_set(&field.selection_set.node)?;
        let complexity = if PAGED_FIELDS.contains(&field.name.node.as_str()) {
            self.page_size(field).saturating_mul(children.complexity)
        } else {
            children.complexity.saturating_add(1)
        };
        let name = field.name.node.as_str();
        Ok(DocumentCost {
            depth: children.depth.saturating_add(1),
            complexity,
            nodes: children.nodes.saturating_add(1),
            introspects: children.introspects || name == "__schema" || name == "__type",
        })
    }

    /// A spread costs what its fragment costs, computed the first time and reused after. A fragment the
    /// document does not define costs nothing here (the schema refuses the document for it).
    fn fragment(&mut self, name: &'a Name) -> Result<DocumentCost, Refusal> {
        match self.fragments.get(name) {
            Some(Memo::Done(cost)) => return Ok(*cost),
            Some(Memo::InProgress) => return Err(Refusal::FragmentCycle(name.to_string())),
            None => {}
        }
        let Some(definition) = self.document.fragments.get(name) else {
            return Ok(DocumentCost::default());
        };
        self.fragments.insert(name, Memo::InProgress);
        let cost = self.selection_set(&definition.node.selection_set.node)?;
        self.fragments.insert(name, Memo::Done(cost));
        Ok(cost)
    }

    /// `first` as the schema prices it: the literal, else the variable's value, else the default page,
    /// within 1..=MAX_PAGE (an out-of-range page is refused later, when the field runs).
    fn page_size(&self, field: &Field) -> u64 {
        let value = field.get_argument("first").and_then(|argument| {
            argument
                .node
                .clone()
                .into_const_with(|name| self.variables.get(&name).cloned().ok_or(()))
                .ok()
        });
        let first = match value {
            Some(Value::Number(number)) => number.as_i64(),
            _ => None,
        };
        let first = first.unwrap_or(i64::from(DEFAULT_PAGE));
        first.clamp(1, i64::from(MAX_PAGE)).unsigned_abs()
    }
}

#[cfg(test)]
mod tests {
    use async_graphql::parser::parse_query;

    use super::*;

    /// `fragment F0 on User { wallet }` and each `Fn` spreading `F(n-1)` twice inside `follows`.
    fn doubling(levels: usize) -> String {
        let mut text =
            "query { leaderboard(first: 1) { ...F0 } }\nfragment F0 on User { wallet }\n".to_owned();
        for level in 1..=levels {
            let previous = level - 1;
            text.push_str(&format!(
                "fragment F{level} on User {{ a: follows(first: 1) {{ nodes {{ ...F{previous} }} }} b: follows(first: 1) {{ nodes {{ ...F{previous} }} }} }}\n"
            ));
        }
        text.replacen("...F0 }", &format!("...F{levels} }}"), 1)
    }

    fn cost_of(text: &str) -> Result<DocumentCost, Refusal> {
        let document = parse_query(text).unwrap_or_else(|error| panic!("{error}: {text}"));
        measure(&document, &Variables::default())
    }

    #[test]
    fn a_plain_query_costs_its_fields_its_depth_and_its_pages() {
        let cost = cost_of("{ leaderboard(first: 10) { wallet follows(first: 2) { nodes { wallet } } } }");

        assert_eq!(
            cost.unwrap(),
            DocumentCost {
                depth: 4,
                complexity: 10 * (1 + 2 * (1 + 1)),
                nodes: 5,
                introspects: false,
            }
        );
    }

    #[test]
    fn the_fragment_doubling_query_at_sixty_levels_is_measured_without_expanding_it() {
        let cost = cost_of(&doubling(60)).unwrap();

        // Level n holds 5 * 2^n - 4 fields (two `follows`, two `nodes` and twice level n - 1), plus the root.
        assert_eq!(cost.nodes, 5 * (1 << 60) - 3);
        assert_eq!(cost.depth, 2 * 60 + 2);
    }

    #[test]
    fn the_fragment_doubling_query_at_thirty_levels_is_refused_as_too_large() {
        let document = parse_query(doubling(30)).unwrap();

        let refusal = admit(&document, &Variables::default()).unwrap_err();

        assert_eq!(refusal, Refusal::TooLarge(5 * (1 << 30) - 3));
    }

    #[test]
    fn a_fragment_that_spreads_itself_through_another_is_a_cycle() {
        let cost = cost_of(
            "{ leaderboard { ...A } } fragment A on User { ...B } fragment B on User { follows { nodes { ...A } } }",
        );

        assert!(matches!(cost, Err(Refusal::FragmentCycle(_))), "{cost:?}");
    }

    #[test]
    fn a_schema_or_type_field_inside_a_fragment_is_introspection_and_typename_is_not() {
        let plain = cost_of("{ leaderboard { __typename wallet } }").unwrap();
        let hidden = cost_of("{ leaderboard { ...T } } fragment T on User { __typename ... on User { x: __type(name: \"User\") { name } } }").unwrap();

        assert_eq!((plain.introspects, hidden.introspects), (false, true));
    }

    #[test]
    fn a_page_size_from_a_variable_prices_the_page() {
        let document = parse_query("query($n: Int) { leaderboard(first: $n) { wallet } }").unwrap();
        let variables = Variables::from_json(serde_json::json!({"n": 40}));

        let cost = measure(&document, &variables).unwrap();

        assert_eq!(cost.complexity, 40);
    }
}
