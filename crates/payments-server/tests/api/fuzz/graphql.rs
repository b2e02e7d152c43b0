//! `POST /api/graphql` with generated documents: grammar-shaped ones over the schema's own fields
//! (aliases, arguments of any value, directives, variables, inline fragments, fragments that spread each
//! other, cycles included), nesting far past the depth limit, and token soup. Every document is answered
//! with a GraphQL result (data or errors) or a refusal in the envelope, never a 5xx.

use proptest::prelude::*;
use reqwest::Method;
use serde_json::{Value, json};

use super::{envelope_problem, request, runner, send_raw, server, still_answers, unpooled_client};

const FIELDS: &[&str] = &[
    "user",
    "follows",
    "liveUsers",
    "leaderboard",
    "nodes",
    "wallet",
    "displayName",
    "pfpUrl",
    "spaceUrl",
    "xp",
    "live",
    "spacePublic",
    "liveSince",
    "lastSeen",
    "lastHeartbeat",
    "platform",
    "domains",
    "platforms",
    "languages",
    "totalCount",
    "pageInfo",
    "__typename",
    "__schema",
    "__type",
    "types",
    "name",
    "receipts",
];

const ARGUMENTS: &[&str] = &["first", "after", "wallet", "name", "if"];

fn argument_value() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i32>().prop_map(|number| number.to_string()),
        Just("2147483648".to_owned()),
        Just("1e400".to_owned()),
        "[a-zA-Z0-9 ]{0,12}".prop_map(|text| format!("{text:?}")),
        "0x[0-9a-f]{40}".prop_map(|text| format!("\"{text}\"")),
        Just("$v".to_owned()),
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("[1, 2, {a: 3}]".to_owned()),
    ]
}

fn field() -> impl Strategy<Value = String> {
    (
        proptest::option::of("[a-z]{1,3}"),
        proptest::sample::select(FIELDS),
        proptest::collection::vec((proptest::sample::select(ARGUMENTS), argument_value()), 0..3),
        proptest::option::of(prop_oneof![
            Just("@include(if: true)"),
            Just("@skip(if: $v)"),
            Just("@include"),
            Just("@unknown(x: 1)"),
        ]),
    )
        .prop_map(|(alias, name, arguments, directive)| {
            let mut text = alias.map(|alias| format!("{alias}: ")).unwrap_or_default();
            text.push_str(name);
            if !arguments.is_empty() {
                let arguments: Vec<String> = arguments
                    .iter()
                    .map(|(name, value)| format!("{name}: {value}"))
                    .collect();
                text.push_str(&format!("({})", arguments.join(", ")));
            }
            if let Some(directive) = directive {
                text.push(' ');
                text.push_str(directive);
            }
            text
        })
}

/// A selection set: fields (some with their own selection sets), spreads of fragments `F0..F5` and
/// inline fragments.
fn selection_set() -> impl Strategy<Value = String> {
    let leaf = field();
    let selection = leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            field(),
            (field(), proptest::collection::vec(inner.clone(), 1..5))
                .prop_map(|(field, children)| format!("{field} {{ {} }}", children.join(" "))),
            (0..6_u8).prop_map(|index| format!("...F{index}")),
            proptest::collection::vec(inner, 1..4)
                .prop_map(|children| format!("... on User {{ {} }}", children.join(" "))),
        ]
    });
    proptest::collection::vec(selection, 1..6).prop_map(|items| format!("{{ {} }}", items.join(" ")))
}

fn document() -> impl Strategy<Value = String> {
    let grammar = (
        prop_oneof![
            Just(""),
            Just("query"),
            Just("query Q($v: Boolean)"),
            Just("mutation"),
            Just("subscription")
        ],
        selection_set(),
        proptest::collection::vec(
            (
                0..6_u8,
                prop_oneof![Just("User"), Just("Query"), Just("Nope")],
                selection_set(),
            ),
            0..6,
        ),
    )
        .prop_map(|(operation, selections, fragments)| {
            let mut text = format!("{operation} {selections}\n");
            for (index, on, body) in fragments {
                text.push_str(&format!("fragment F{index} on {on} {body}\n"));
            }
            text
        });
    let deep = (1..30_000_usize, any::<bool>()).prop_map(|(depth, close)| {
        let closing = if close { "}".repeat(depth) } else { String::new() };
        format!("{}{closing}", "{ user(wallet: \"0x\") ".repeat(depth))
    });
    let soup = proptest::collection::vec(
        prop_oneof![
            proptest::sample::select(
                &[
                    "{", "}", "(", ")", "...", "@", "$", ":", "\"", "#", "fragment", "on", "query", "!"
                ][..]
            )
            .prop_map(str::to_owned),
            proptest::sample::select(FIELDS).prop_map(str::to_owned),
            ".{0,6}",
        ],
        0..120,
    )
    .prop_map(|tokens| tokens.join(" "));
    prop_oneof![6 => grammar, 1 => deep, 2 => soup]
}

fn variables() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(|value| json!({"v": value})),
        ".{0,8}".prop_map(|text| json!({"v": text})),
        Just(json!([1, 2])),
    ]
}

#[test]
fn any_graphql_document_gets_a_graphql_answer_or_an_envelope_never_a_5xx() {
    let (runtime, api) = server();

    let client = unpooled_client();
    let outcome = runner().run(&(document(), variables()), |(query, variables)| {
        let body = json!({"query": query, "variables": variables});
        let Some(reply) = runtime.block_on(send_raw(
            request(&client, &api, Method::POST, "/api/graphql", true).json(&body),
        )) else {
            // Only a body over the route's limit is refused before it is read (413).
            prop_assert!(
                body.to_string().len() > payments_server::DEFAULT_MAX_JSON_BODY_BYTES,
                "the connection closed under a document within the JSON limit"
            );
            prop_assert!(
                runtime.block_on(still_answers(&api)),
                "the server stopped answering"
            );
            return Ok(());
        };
        let shown = String::from_utf8_lossy(&reply.body)
            .chars()
            .take(300)
            .collect::<String>();
        let preview = query.chars().take(300).collect::<String>();
        prop_assert!(
            reply.status < 500,
            "{preview:?} answered {}: {shown}",
            reply.status
        );
        if reply.status == 200 {
            let json: Value = serde_json::from_slice(&reply.body).map_err(|error| {
                TestCaseError::fail(format!("{preview:?}: a 200 that is not JSON ({error}): {shown}"))
            })?;
            prop_assert!(
                json.get("data").is_some() || json["errors"].is_array(),
                "{preview:?}: neither data nor errors: {shown}"
            );
        } else if let Some(problem) = envelope_problem(&reply) {
            prop_assert!(false, "{preview:?}: {problem}");
        }
        Ok(())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }

    assert!(runtime.block_on(still_answers(&api)));
}
