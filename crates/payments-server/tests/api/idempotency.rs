//! `Idempotency-Key` on creating routes.

use std::time::Duration;

use payments_server::testing::test_wallet;
use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, send};
use crate::receipts_create::receipt_body;

#[tokio::test]
async fn the_same_key_and_body_replays_the_first_response() {
    let api = Api::spawn().await;
    let request = || {
        api.dev(Method::POST, "/api/receipts")
            .header("Idempotency-Key", "create-1")
            .json(&receipt_body("idem-1"))
    };

    let first = send(request()).await;
    let second = send(request()).await;

    assert_eq!(first.status, 201);
    assert_eq!((second.status, &second.json), (201, &first.json));
    assert_eq!(second.header("idempotent-replayed"), "true");
}

#[tokio::test]
async fn the_same_key_with_another_body_is_an_idempotency_conflict() {
    let api = Api::spawn().await;
    let post = |id: &str| {
        api.dev(Method::POST, "/api/receipts")
            .header("Idempotency-Key", "create-2")
            .json(&receipt_body(id))
    };
    assert_eq!(send(post("idem-2")).await.status, 201);

    let reply = send(post("idem-3")).await;

    assert_eq!(reply.status, 409);
    assert_eq!(reply.json["error"], "idempotency_conflict");
    assert_eq!(
        send(api.dev(Method::GET, "/api/receipts/idem-3")).await.status,
        404
    );
}

#[tokio::test]
async fn keys_are_forgotten_after_24_hours() {
    let api = Api::spawn().await;
    let post = || {
        api.dev(Method::POST, "/api/receipts")
            .header("Idempotency-Key", "create-3")
            .json(&receipt_body("idem-4"))
    };
    assert_eq!(send(post()).await.status, 201);

    api.app
        .clock
        .advance(Duration::from_millis(24 * 60 * 60 * 1000 + 1));
    let reply = send(post()).await;

    assert_eq!(
        (reply.status, reply.json["error"].clone()),
        (409, json!("conflict"))
    );
}

#[tokio::test]
async fn keys_belong_to_one_merchant() {
    let api = Api::spawn().await;
    let other = api.app.create_key(test_wallet(0x22), "receipts:write").await;
    let post = |key: &str, id: &str| {
        api.dev_as(key, Method::POST, "/api/receipts")
            .header("Idempotency-Key", "shared")
            .json(&receipt_body(id))
    };

    let mine = send(post(&api.app.key, "m-1")).await;
    let theirs = send(post(&other.key, "t-1")).await;

    assert_eq!((mine.status, theirs.status), (201, 201));
    assert_eq!(theirs.json["id"], "t-1");
}

#[tokio::test]
async fn a_refused_request_is_not_remembered() {
    let api = Api::spawn().await;
    let mut bad = receipt_body("idem-5");
    bad["totalUsd"] = json!(1);
    let post = |body: &serde_json::Value| {
        api.dev(Method::POST, "/api/receipts")
            .header("Idempotency-Key", "create-5")
            .json(body)
    };
    assert_eq!(send(post(&bad)).await.status, 400);

    let fixed = send(post(&receipt_body("idem-5"))).await;

    assert_eq!(fixed.status, 201);
}

#[tokio::test]
async fn a_replay_after_the_kept_response_was_lost_answers_the_same_receipt_and_creates_nothing() {
    let api = Api::spawn().await;
    let request = || {
        api.dev(Method::POST, "/api/receipts")
            .header("Idempotency-Key", "create-lost")
            .json(&receipt_body("idem-lost"))
    };
    let first = send(request()).await;
    assert_eq!(first.status, 201);
    lose_kept_answer(&api, "create-lost");
    let db = rusqlite::Connection::open(&api.app.db_path).unwrap();

    let replay = send(request()).await;
    let again = send(request()).await;

    assert_eq!((replay.status, &replay.json), (201, &first.json));
    assert_eq!(replay.header("idempotent-replayed"), "true");
    assert_eq!((again.status, &again.json), (201, &first.json));
    let receipts: i64 = db
        .query_row("SELECT COUNT(*) FROM receipts", [], |row| row.get(0))
        .unwrap();
    assert_eq!(receipts, 1);
    let kept: (i64, Vec<u8>) = db
        .query_row(
            "SELECT status, body FROM idempotency_keys WHERE key = 'create-lost'",
            [],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .unwrap();
    assert_eq!(kept.0, 201, "the recovered answer is kept again");
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&kept.1).unwrap(),
        first.json
    );
}

/// The process stopped between the commit and keeping the answer under `key`: the claim is there, naming
/// what it made, its response not.
pub(crate) fn lose_kept_answer(api: &Api, key: &str) {
    let db = rusqlite::Connection::open(&api.app.db_path).unwrap();
    let cleared = db
        .execute(
            "UPDATE idempotency_keys SET status = 0, body = X'' WHERE key = ?1",
            [key],
        )
        .unwrap();
    assert_eq!(cleared, 1, "one answer kept under {key}");
}
