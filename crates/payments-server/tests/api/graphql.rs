//! /api/graphql: the read-only queries over GET and POST, scopes, and the limits that keep one query from
//! scanning the database.

use reqwest::Method;
use serde_json::{Value, json};

use crate::admin_helpers::admin;
use crate::helpers::{Api, Reply, send};
use crate::user_helpers::{Shop, user_with};

async fn post(api: &Api, key: &str, query: &str, variables: Value) -> Reply {
    let body = json!({"query": query, "variables": variables});
    send(api.dev_as(key, Method::POST, "/api/graphql").json(&body)).await
}

fn error_codes(reply: &Reply) -> Vec<String> {
    reply.json["errors"]
        .as_array()
        .unwrap_or_else(|| panic!("no errors in {}", reply.json))
        .iter()
        .map(|error| {
            error["extensions"]["code"]
                .as_str()
                .unwrap_or_else(|| error["message"].as_str().unwrap_or_default())
                .to_owned()
        })
        .collect()
}

/// Ada (xp 20, live) follows Bob (xp 5) and Cleo (xp 0).
async fn seeded() -> (Api, [String; 3]) {
    let api = Api::spawn().await;
    let ada = user_with(&api, 1, json!({"displayName": "Ada", "languages": ["en"]})).await;
    let bob = user_with(&api, 2, json!({"displayName": "Bob"})).await;
    let cleo = user_with(&api, 3, json!({"displayName": "Cleo"})).await;
    let shop = Shop::open(&api).await;
    shop.sell(&api, "g-1", 20.0, &ada.wallet.to_string()).await;
    shop.sell(&api, "g-2", 5.0, &bob.wallet.to_string()).await;
    for star in [&bob, &cleo] {
        let followed =
            send(admin(&api, &ada, Method::POST, "/api/users/follows").json(&json!({"wallet": star.wallet})))
                .await;
        assert_eq!(followed.status, 200, "{}", followed.json);
    }
    let beat = send(
        admin(&api, &ada, Method::POST, "/api/users/heartbeat")
            .json(&json!({"live": true, "spacePublic": true})),
    )
    .await;
    assert_eq!(beat.status, 200);
    (api, [ada, bob, cleo].map(|user| user.wallet.to_string()))
}

#[tokio::test]
async fn the_four_queries_read_users_follows_live_users_and_the_leaderboard() {
    let (api, [ada, bob, cleo]) = seeded().await;
    let query = "query($w: String!) {
        user(wallet: $w) { displayName xp live languages }
        follows(wallet: $w, first: 1) { nodes { displayName } hasNextPage endCursor }
        liveUsers(first: 5) { displayName }
        leaderboard(first: 2) { displayName xp }
    }";

    let reply = post(&api, &api.app.key, query, json!({"w": ada})).await;

    assert_eq!(reply.status, 200);
    let mut followed = [bob.clone(), cleo.clone()];
    followed.sort();
    let first_name = if followed[0] == bob { "Bob" } else { "Cleo" };
    assert_eq!(
        reply.json,
        json!({"data": {
            "user": {"displayName": "Ada", "xp": 20, "live": true, "languages": ["en"]},
            "follows": {"nodes": [{"displayName": first_name}], "hasNextPage": true, "endCursor": followed[0]},
            "liveUsers": [{"displayName": "Ada"}],
            "leaderboard": [{"displayName": "Ada", "xp": 20}, {"displayName": "Bob", "xp": 5}],
        }})
    );
    let next = post(
        &api,
        &api.app.key,
        "query($w: String!, $after: String) { follows(wallet: $w, first: 5, after: $after) { nodes { wallet } hasNextPage } }",
        json!({"w": ada, "after": followed[0]}),
    )
    .await;
    assert_eq!(
        next.json["data"]["follows"],
        json!({"nodes": [{"wallet": followed[1]}], "hasNextPage": false})
    );
}

#[tokio::test]
async fn a_get_request_runs_the_query_from_the_query_string() {
    let (api, [ada, ..]) = seeded().await;
    let url = format!(
        "/api/graphql?query={}",
        "{ leaderboard(first: 1) { wallet } }".replace(' ', "%20")
    );

    let reply = send(api.dev(Method::GET, &url)).await;

    assert_eq!(reply.json, json!({"data": {"leaderboard": [{"wallet": ada}]}}));
    let unknown_user = post(
        &api,
        &api.app.key,
        "{ user(wallet: \"0x9999999999999999999999999999999999999999\") { xp } }",
        json!({}),
    )
    .await;
    assert_eq!(unknown_user.json, json!({"data": {"user": null}}));
}

#[tokio::test]
async fn a_mutation_is_refused_with_a_graphql_error_and_changes_nothing() {
    let (api, [ada, ..]) = seeded().await;

    let reply = post(
        &api,
        &api.app.key,
        "mutation { saveProfile(displayName: \"Mallory\") { xp } }",
        json!({}),
    )
    .await;
    let by_get = send(api.dev(Method::GET, "/api/graphql?query=mutation%20%7B%20x%20%7D")).await;

    assert_eq!(reply.status, 200);
    assert!(reply.json["data"].is_null(), "{}", reply.json);
    let message = reply.json["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("mutation"), "{message}");
    assert!(
        by_get.json["errors"]
            .as_array()
            .is_some_and(|errors| !errors.is_empty())
    );
    let after = post(
        &api,
        &api.app.key,
        "query($w: String!) { user(wallet: $w) { displayName } }",
        json!({"w": ada}),
    )
    .await;
    assert_eq!(after.json["data"]["user"]["displayName"], "Ada");
}

#[tokio::test]
async fn an_over_deep_query_is_refused_before_it_runs() {
    let (api, [ada, ..]) = seeded().await;
    let mut selection = "wallet".to_owned();
    for _ in 0..8 {
        selection = format!("follows(first: 1) {{ nodes {{ {selection} }} }}");
    }
    let query = format!("query($w: String!) {{ user(wallet: $w) {{ {selection} }} }}");

    let reply = post(&api, &api.app.key, &query, json!({"w": ada})).await;

    assert!(reply.json["data"].is_null(), "{}", reply.json);
    assert!(
        reply.json["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("nested too deep"),
        "{}",
        reply.json
    );
}

#[tokio::test]
async fn a_query_that_would_read_too_many_users_is_refused() {
    let (api, _) = seeded().await;
    let costly = "{ leaderboard(first: 100) { wallet follows(first: 100) { nodes { wallet } } } }";

    let reply = post(&api, &api.app.key, costly, json!({})).await;

    assert!(reply.json["data"].is_null(), "{}", reply.json);
    assert!(
        reply.json["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("too complex"),
        "{}",
        reply.json
    );
}

#[tokio::test]
async fn a_page_of_more_than_one_hundred_or_less_than_one_is_an_error() {
    let (api, _) = seeded().await;

    for first in [101, 0, -1] {
        let reply = post(
            &api,
            &api.app.key,
            &format!("{{ leaderboard(first: {first}) {{ wallet }} }}"),
            json!({}),
        )
        .await;
        assert_eq!(error_codes(&reply), ["invalid_input"], "first: {first}");
    }
}

#[tokio::test]
async fn a_field_the_key_may_not_read_is_a_forbidden_error_not_a_null() {
    let (api, [ada, ..]) = seeded().await;
    let key = api.app.create_key(api.app.wallet, "graphql:read").await;

    let reply = post(
        &api,
        &key.key,
        "query($w: String!) { user(wallet: $w) { xp } }",
        json!({"w": ada}),
    )
    .await;

    assert_eq!(error_codes(&reply), ["forbidden"]);
    assert!(
        reply.json["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("users:read")
    );
}

#[tokio::test]
async fn a_key_without_graphql_read_is_refused_with_403() {
    let api = Api::spawn().await;
    let key = api.app.create_key(api.app.wallet, "users:read").await;

    let reply = post(&api, &key.key, "{ leaderboard { wallet } }", json!({})).await;

    assert_eq!(
        (reply.status, reply.json["error"].as_str()),
        (403, Some("forbidden"))
    );
}

#[tokio::test]
async fn introspection_describes_the_schema_within_the_limits() {
    let api = Api::spawn().await;
    // The standard introspection query's deepest path: args' types seven `ofType`s down (13 levels).
    let mut type_ref = "kind name".to_owned();
    for _ in 0..7 {
        type_ref = format!("kind name ofType {{ {type_ref} }}");
    }
    let query = format!(
        "{{ __schema {{ queryType {{ name }} mutationType {{ name }} types {{ name fields {{ name args {{ name type {{ {type_ref} }} }} }} }} }} }}"
    );

    let reply = post(&api, &api.app.key, &query, json!({})).await;

    assert!(reply.json["errors"].is_null(), "{}", reply.json);
    let schema = &reply.json["data"]["__schema"];
    assert_eq!(
        (schema["queryType"]["name"].as_str(), &schema["mutationType"]),
        (Some("Query"), &Value::Null)
    );
    let query_type = schema["types"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "Query")
        .unwrap();
    let fields: Vec<&str> = query_type["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["user", "follows", "liveUsers", "leaderboard"]);
}

#[tokio::test]
async fn a_graphql_query_during_an_outage_is_an_error_naming_the_datastore() {
    let (api, _) = seeded().await;
    let before = post(&api, &api.app.key, "{ leaderboard { wallet } }", json!({})).await;
    assert!(before.json["errors"].is_null(), "{}", before.json);
    api.app.set_datastore_available(false);

    let reply = post(&api, &api.app.key, "{ leaderboard { wallet } }", json!({})).await;

    assert_eq!(error_codes(&reply), ["datastore_unavailable"]);
}
