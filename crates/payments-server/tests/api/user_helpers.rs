//! Users for the discovery tests: wallets signed in through the real EIP-712 routes, profiles written
//! through `PUT /api/users/me`, and xp earned the only way there is: paid receipts naming the wallet as buyer.

use payments_server::testing::{AdminClient, TestKey};
use reqwest::Method;
use serde_json::{Value, json};

use crate::admin_helpers::admin;
use crate::helpers::{Api, Reply, send};

/// A valid private key per `n` (never used for real funds).
pub(crate) fn user_key(n: u16) -> [u8; 32] {
    let mut key = [0x22; 32];
    key[30..].copy_from_slice(&n.to_be_bytes());
    key
}

/// Signs in user `n`.
pub(crate) async fn sign_in(api: &Api, n: u16) -> AdminClient {
    api.app.admin_for(user_key(n)).await
}

/// `PUT /api/users/me` as `user`.
pub(crate) async fn put_profile(api: &Api, user: &AdminClient, profile: Value) -> Reply {
    send(admin(api, user, Method::PUT, "/api/users/me").json(&profile)).await
}

/// Signs in user `n` and saves its profile; panics when refused.
pub(crate) async fn user_with(api: &Api, n: u16, profile: Value) -> AdminClient {
    let user = sign_in(api, n).await;
    let saved = put_profile(api, &user, profile).await;
    assert_eq!(saved.status, 200, "{}", saved.json);
    user
}

/// The merchant buyers pay: signed in, with a split and an all-scopes key.
pub(crate) struct Shop {
    pub(crate) admin: AdminClient,
    pub(crate) key: TestKey,
}

impl Shop {
    pub(crate) async fn open(api: &Api) -> Shop {
        let (session, key) = api.app.merchant_admin().await;
        let recipients = json!([
            {"address": session.wallet, "sharesBps": 9950},
            {"address": "0x5050505050505050505050505050505050505050", "sharesBps": 50},
        ]);
        let split = send(
            admin(api, &session, Method::POST, "/api/split/deploy").json(&json!({"recipients": recipients})),
        )
        .await;
        assert_eq!(split.status, 200, "{}", split.json);
        Shop { admin: session, key }
    }

    /// Receipt `id` of `usd`, paid by `buyer` (the admin attests the payment and names the buyer, as the
    /// chain watcher does for on-chain payments).
    pub(crate) async fn sell(&self, api: &Api, id: &str, usd: f64, buyer: &str) {
        let body = json!({"id": id, "lineItems": [{"label": "Ticket", "priceUsd": usd}], "totalUsd": usd});
        let created = send(
            api.dev_as(&self.key.key, Method::POST, "/api/receipts")
                .json(&body),
        )
        .await;
        assert_eq!(created.status, 201, "{}", created.json);
        self.post_status(api, id, json!({"status": "paid", "buyerWallet": buyer}))
            .await;
    }

    /// Posts `fields` (at least `status`) for receipt `id` as the admin.
    pub(crate) async fn post_status(&self, api: &Api, id: &str, fields: Value) {
        let mut body = json!({"receiptId": id, "wallet": self.key.wallet});
        for (name, value) in fields.as_object().unwrap() {
            body[name] = value.clone();
        }
        let posted = send(admin(api, &self.admin, Method::POST, "/api/receipts/status").json(&body)).await;
        assert_eq!(posted.status, 200, "{}", posted.json);
    }
}

/// `GET path` with the test merchant's key; panics unless 200.
pub(crate) async fn get_ok(api: &Api, path: &str) -> Value {
    let reply = send(api.dev(Method::GET, path)).await;
    assert_eq!(reply.status, 200, "{path}: {}", reply.json);
    reply.json
}

/// The display names of a search or live answer's list `field`, in order.
pub(crate) fn names(answer: &Value, field: &str) -> Vec<String> {
    answer[field]
        .as_array()
        .unwrap_or_else(|| panic!("no {field} in {answer}"))
        .iter()
        .map(|user| user["displayName"].as_str().unwrap().to_owned())
        .collect()
}
