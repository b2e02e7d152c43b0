//! GET /api/users/live and the 2-minute window on the server clock; scope refusals, degraded answers and
//! rate limits of the discovery routes.

use std::num::NonZeroU32;
use std::time::Duration;

use payments_server::testing::{AdminClient, TestOptions};
use reqwest::Method;
use serde_json::json;

use crate::admin_helpers::admin;
use crate::helpers::{Api, Reply, send};
use crate::user_helpers::{get_ok, names, user_with};

async fn beat(api: &Api, user: &AdminClient, body: serde_json::Value) -> Reply {
    let reply = send(admin(api, user, Method::POST, "/api/users/heartbeat").json(&body)).await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply
}

#[tokio::test]
async fn a_live_user_is_listed_for_two_minutes_after_its_last_heartbeat() {
    let api = Api::spawn().await;
    let profile = json!({"displayName": "Ada", "spaceUrl": "https://space.example/ada", "platforms": ["twitch"],
                         "languages": ["en"], "domains": ["defi"]});
    let ada = user_with(&api, 1, profile).await;
    let private = user_with(&api, 2, json!({"displayName": "Private"})).await;
    let idle = user_with(&api, 3, json!({"displayName": "Idle"})).await;
    let start = payments_server::testing::TEST_START_MS;
    beat(
        &api,
        &ada,
        json!({"live": true, "spacePublic": true, "platform": "YouTube"}),
    )
    .await;
    beat(&api, &private, json!({"live": true, "spacePublic": false})).await;
    beat(&api, &idle, json!({"live": false, "spacePublic": true})).await;

    api.app.clock.advance(Duration::from_secs(60));
    beat(&api, &ada, json!({"live": true, "spacePublic": true})).await;
    let listed = get_ok(&api, "/api/users/live").await;
    assert_eq!(
        listed,
        json!({"live": [{"wallet": ada.wallet, "displayName": "Ada", "pfpUrl": "", "spaceUrl": "https://space.example/ada",
                         "liveSince": start, "lastHeartbeat": start + 60_000, "languages": ["en"], "domains": ["defi"],
                         "platform": "twitch"}]})
    );

    api.app.clock.advance(Duration::from_millis(120_000));
    assert_eq!(
        names(&get_ok(&api, "/api/users/live").await, "live"),
        ["Ada"],
        "exactly 2 minutes old"
    );
    assert_eq!(
        get_ok(&api, &format!("/api/users/{}", ada.wallet)).await["live"],
        true
    );

    api.app.clock.advance(Duration::from_millis(1));
    assert_eq!(get_ok(&api, "/api/users/live").await, json!({"live": []}));
    assert_eq!(
        get_ok(&api, "/api/users/search?live=true").await["users"],
        json!([])
    );
    assert_eq!(
        get_ok(&api, &format!("/api/users/{}", ada.wallet)).await["live"],
        false
    );

    let back = beat(&api, &ada, json!({"live": true, "spacePublic": true})).await;
    assert_eq!(back.json["user"]["live"], true);
    let relisted = get_ok(&api, "/api/users/live").await;
    assert_eq!(
        relisted["live"][0]["liveSince"],
        start + 180_001,
        "a new live session after the gap"
    );
}

#[tokio::test]
async fn the_live_limit_is_clamped_and_a_bad_one_refused() {
    let api = Api::spawn().await;
    for n in 1..=3 {
        let user = user_with(&api, n, json!({"displayName": format!("User {n}")})).await;
        beat(&api, &user, json!({"live": true, "spacePublic": true})).await;
    }

    assert_eq!(
        names(&get_ok(&api, "/api/users/live?limit=0").await, "live").len(),
        1
    );
    assert_eq!(
        names(&get_ok(&api, "/api/users/live?limit=500").await, "live").len(),
        3
    );
    let bad = send(api.dev(Method::GET, "/api/users/live?limit=all")).await;
    assert_eq!((bad.status, bad.json["field"].as_str()), (400, Some("limit")));
}

#[tokio::test]
async fn a_key_without_users_read_is_refused_on_every_discovery_route() {
    let api = Api::spawn().await;
    let key = api
        .app
        .create_key(api.app.wallet, "graphql:read,receipts:read")
        .await;

    for path in [
        "/api/users/search",
        "/api/users/live",
        "/api/users/0x1111111111111111111111111111111111111111",
    ] {
        let reply = send(api.dev_as(&key.key, Method::GET, path)).await;
        assert_eq!(
            (reply.status, reply.json["error"].as_str()),
            (403, Some("forbidden")),
            "{path}"
        );
    }
    let anonymous = send(api.anonymous(Method::GET, "/api/users/search")).await;
    assert_eq!(anonymous.status, 401);
}

#[tokio::test]
async fn discovery_answers_degraded_while_the_datastore_is_down() {
    let api = Api::spawn().await;
    user_with(&api, 1, json!({"displayName": "Ada"})).await;
    get_ok(&api, "/api/users/search").await;
    api.app.set_datastore_available(false);

    let search = send(api.dev(Method::GET, "/api/users/search?q=ada")).await;
    let live = send(api.dev(Method::GET, "/api/users/live")).await;

    assert_eq!(
        (search.status, search.json),
        (
            200,
            json!({"users": [], "degraded": true, "reason": "datastore_unavailable"})
        )
    );
    assert_eq!(
        (live.status, live.json),
        (
            200,
            json!({"live": [], "degraded": true, "reason": "datastore_unavailable"})
        )
    );
    api.app.set_datastore_available(true);
    assert_eq!(names(&get_ok(&api, "/api/users/search").await, "users"), ["Ada"]);
}

#[tokio::test]
async fn discovery_over_the_quota_is_429_with_reset_at() {
    let api = Api::spawn_with(TestOptions {
        rate_limit_per_minute: NonZeroU32::new(2),
        ..TestOptions::default()
    })
    .await;
    assert_eq!(send(api.dev(Method::GET, "/api/users/search")).await.status, 200);
    assert_eq!(send(api.dev(Method::GET, "/api/users/live")).await.status, 200);

    for path in ["/api/users/search", "/api/users/live"] {
        let reply = send(api.dev(Method::GET, path)).await;
        assert_eq!(
            (reply.status, reply.json["error"].as_str()),
            (429, Some("rate_limited")),
            "{path}"
        );
        assert!(reply.json["resetAt"].as_i64().is_some());
    }
}
