//! Requests as a signed-in admin, and the raw sign-in steps for the session tests.

use payments_core::AdminLogin;
use payments_server::testing::{AdminClient, TEST_START_MS, sign_login, wallet_of_key};
use reqwest::{Method, RequestBuilder};
use serde_json::json;

use crate::helpers::{Api, Reply, send};

/// Another well-formed private key (its wallet has no special role).
pub(crate) const OTHER_KEY: [u8; 32] = [0x11; 32];
/// Unix seconds at the harness's start time.
pub(crate) const START_SECS: u64 = (TEST_START_MS / 1000) as u64;

/// An admin request with the session cookie and the CSRF header.
pub(crate) fn admin(api: &Api, admin: &AdminClient, method: Method, path: &str) -> RequestBuilder {
    admin_without_csrf(api, admin, method, path).header("x-csrf-token", &admin.csrf_token)
}

/// An admin request with the session cookie only.
pub(crate) fn admin_without_csrf(
    api: &Api,
    admin: &AdminClient,
    method: Method,
    path: &str,
) -> RequestBuilder {
    api.anonymous(method, path).header("cookie", &admin.cookie)
}

pub(crate) async fn fetch_nonce(api: &Api, private_key: [u8; 32]) -> String {
    let wallet = wallet_of_key(private_key);
    let reply = send(api.anonymous(Method::GET, &format!("/api/auth/nonce?wallet={wallet}"))).await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json["nonce"].as_str().unwrap().to_owned()
}

/// Posts a login for the wallet of `claimed_key`, signed by `signing_key`.
pub(crate) async fn login_with(
    api: &Api,
    claimed_key: [u8; 32],
    signing_key: [u8; 32],
    nonce: &str,
    issued_at_secs: u64,
) -> Reply {
    // The sign-in domain's chain is the server's (the test-mode chain's, or a node's).
    let site = send(api.anonymous(Method::GET, "/api/site/config")).await;
    let chain_id = site.json["chainId"].as_u64().unwrap();
    let login = AdminLogin {
        wallet: wallet_of_key(claimed_key),
        nonce: nonce.to_owned(),
        issued_at_secs,
    };
    let body = json!({
        "wallet": login.wallet,
        "nonce": nonce,
        "issuedAt": issued_at_secs,
        "signature": sign_login(signing_key, &login, chain_id),
    });
    send(api.anonymous(Method::POST, "/api/auth/login").json(&body)).await
}
