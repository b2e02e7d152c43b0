//! GET /api/users/search over a seeded set: every filter, the ordering, and the limit and scan clamps.

use std::time::Duration;

use payments_server::testing::AdminClient;
use reqwest::Method;
use serde_json::json;

use crate::admin_helpers::admin;
use crate::helpers::{Api, send};
use crate::user_helpers::{Shop, get_ok, names, sign_in, user_with};

/// Five users; xp (from purchases) Max 60, Bob 45, Cleo 30, Dan 10, maxine 0 (display names use letters no hex wallet has, so `q`
/// matches them by name only). Only Max is live now: Bob's
/// space is private and Cleo's last heartbeat is three minutes old.
async fn seeded() -> (Api, Vec<AdminClient>) {
    let api = Api::spawn().await;
    let profiles = [
        json!({"displayName": "Max", "domains": ["defi", "nft"], "platforms": ["twitch"], "languages": ["en", "fr"]}),
        json!({"displayName": "Bob", "domains": ["defi"], "platforms": ["youtube"], "languages": ["en"]}),
        json!({"displayName": "Cleo", "domains": ["gaming"], "platforms": ["twitch", "youtube"], "languages": ["fr"]}),
        json!({"displayName": "Dan", "domains": ["nft"], "platforms": ["twitch"], "languages": ["de", "en"]}),
        json!({"displayName": "maxine", "languages": ["es"]}),
    ];
    let mut users = Vec::new();
    for (n, profile) in (1..).zip(profiles) {
        users.push(user_with(&api, n, profile).await);
    }
    let shop = Shop::open(&api).await;
    for (n, (user, usd)) in users.iter().zip([60.0, 45.0, 30.0, 10.0]).enumerate() {
        shop.sell(&api, &format!("seed-{n}"), usd, &user.wallet.to_string())
            .await;
    }
    let beat = |user: &AdminClient, space_public: bool| {
        send(
            admin(&api, user, Method::POST, "/api/users/heartbeat")
                .json(&json!({"live": true, "spacePublic": space_public})),
        )
    };
    assert_eq!(beat(&users[2], true).await.status, 200);
    api.app.clock.advance(Duration::from_secs(180));
    assert_eq!(beat(&users[0], true).await.status, 200);
    assert_eq!(beat(&users[1], false).await.status, 200);
    (api, users)
}

async fn found(api: &Api, query: &str) -> Vec<String> {
    names(&get_ok(api, &format!("/api/users/search{query}")).await, "users")
}

#[tokio::test]
async fn search_orders_by_derived_xp_and_filters_by_every_parameter() {
    let (api, users) = seeded().await;

    let all = get_ok(&api, "/api/users/search").await;
    assert_eq!(names(&all, "users"), ["Max", "Bob", "Cleo", "Dan", "maxine"]);
    assert_eq!(all["total"], 5);
    let xp: Vec<i64> = all["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|user| user["xp"].as_i64().unwrap())
        .collect();
    assert_eq!(xp, [60, 45, 30, 10, 0]);

    let cases: [(&str, &[&str]); 16] = [
        ("?q=max", &["Max", "maxine"]),
        ("?q=MAX", &["Max", "maxine"]),
        ("?domains=defi", &["Max", "Bob"]),
        ("?domains=defi,nft", &["Max"]),
        ("?platforms=twitch", &["Max", "Cleo", "Dan"]),
        ("?platforms=TWITCH,%20youtube", &["Cleo"]),
        ("?languages=en", &["Max", "Bob", "Dan"]),
        ("?languages=en,fr", &["Max"]),
        ("?domains=nft&languages=en", &["Max", "Dan"]),
        ("?minXp=30", &["Max", "Bob", "Cleo"]),
        ("?maxXp=30", &["Cleo", "Dan", "maxine"]),
        ("?minXp=10&maxXp=45", &["Bob", "Cleo", "Dan"]),
        ("?minXp=45.5", &["Max"]),
        ("?live=true", &["Max"]),
        ("?live=false", &["Max", "Bob", "Cleo", "Dan", "maxine"]),
        ("?languages=klingon", &[]),
    ];
    for (query, expected) in cases {
        assert_eq!(found(&api, query).await, expected, "{query}");
    }
    let bob = users[1].wallet.to_string();
    assert_eq!(found(&api, &format!("?q={}", &bob[..10])).await, ["Bob"]);
    assert_eq!(
        found(&api, &format!("?q={}", bob.to_uppercase().replace("0X", "0x"))).await,
        ["Bob"]
    );
}

#[tokio::test]
async fn limit_is_clamped_and_scan_bounds_the_candidates_q_looks_at() {
    let (api, _) = seeded().await;

    let two = get_ok(&api, "/api/users/search?limit=2").await;
    assert_eq!(
        (names(&two, "users"), &two["total"]),
        (vec!["Max".to_owned(), "Bob".to_owned()], &json!(5))
    );
    assert_eq!(found(&api, "?limit=0").await, ["Max"]);
    assert_eq!(found(&api, "?limit=-4").await, ["Max"]);
    assert_eq!(found(&api, "?limit=7.9").await.len(), 5);

    // Dan has the 4th most xp: scan=3 never reads him, scan=4 does, and a scan below limit is raised to it.
    let dan_beyond_scan = get_ok(&api, "/api/users/search?q=dan&limit=1&scan=3").await;
    assert_eq!(
        (names(&dan_beyond_scan, "users").len(), &dan_beyond_scan["total"]),
        (0, &json!(0))
    );
    assert_eq!(found(&api, "?q=dan&limit=1&scan=4").await, ["Dan"]);
    assert_eq!(found(&api, "?q=dan&limit=4&scan=1").await, ["Dan"]);
    assert_eq!(found(&api, "?q=dan&limit=1&scan=-9").await, Vec::<String>::new());
    assert_eq!(found(&api, "?q=dan&limit=1&scan=99999").await, ["Dan"]);
    let counted = get_ok(&api, "/api/users/search?q=o&limit=1&scan=3").await;
    assert_eq!(
        (names(&counted, "users"), &counted["total"]),
        (vec!["Bob".to_owned()], &json!(2))
    );
}

#[tokio::test]
async fn parameters_that_are_not_numbers_or_below_zero_are_refused() {
    let api = Api::spawn().await;

    for (query, field) in [
        ("limit=ten", "limit"),
        ("scan=1e3", "scan"),
        ("minXp=-1", "minXp"),
        ("maxXp=-0.5", "maxXp"),
        ("minXp=lots", "minXp"),
        ("live=maybe", "live"),
    ] {
        let reply = send(api.dev(Method::GET, &format!("/api/users/search?{query}"))).await;
        assert_eq!(reply.status, 400, "{query}: {}", reply.json);
        assert_eq!(
            (reply.json["error"].as_str(), reply.json["field"].as_str()),
            (Some("invalid_input"), Some(field))
        );
    }
}

#[tokio::test]
async fn a_limit_above_one_hundred_returns_one_hundred_users() {
    let api = Api::spawn().await;
    for n in 1..=101 {
        let user = sign_in(&api, n).await;
        let reply = send(
            admin(&api, &user, Method::POST, "/api/users/heartbeat")
                .json(&json!({"live": false, "spacePublic": false})),
        )
        .await;
        assert_eq!(reply.status, 200, "{}", reply.json);
    }

    let page = get_ok(&api, "/api/users/search?limit=250").await;

    assert_eq!(page["users"].as_array().unwrap().len(), 100);
    assert_eq!(page["total"], 101, "every match among the scanned candidates");
    assert_eq!(found(&api, "").await.len(), 25, "the default limit");
}
