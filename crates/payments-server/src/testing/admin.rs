//! Signed-in admins for tests: the harness holds private keys, signs the EIP-712 login with k256 and
//! goes through the real `/api/auth/nonce` + `/api/auth/login` routes (in process, no HTTP client).
//!
//! ```text
//! let app = payments_server::testing::spawn_app().await;
//! let (admin, key) = app.merchant_admin().await;
//! // POST {app.base_url}/api/split/deploy with headers
//! //   Cookie: {admin.cookie}
//! //   x-csrf-token: {admin.csrf_token}
//! // and Dev routes of the same wallet with X-Gateway-Subscription-Key: {key.key}
//! ```

use alloy_primitives::keccak256;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::{CONTENT_TYPE, SET_COOKIE};
use hyper::{Method, Request};
use k256::ecdsa::SigningKey;
use payments_core::{AdminLogin, Wallet};
use serde_json::{Value, json};

use crate::domain::scope::Scopes;
use crate::runtime::clock::Clock;
use crate::testing::{TestApp, TestKey};

/// Private key of [`TestApp::merchant_admin`] (a well-known test key: never use it for real funds).
pub const TEST_ADMIN_PRIVATE_KEY: [u8; 32] = [
    0x4c, 0x08, 0x83, 0xa6, 0x91, 0x02, 0x93, 0x7d, 0x62, 0x31, 0x47, 0x1b, 0x5d, 0xbb, 0x62, 0x04, 0xfe,
    0x51, 0x29, 0x61, 0x70, 0x82, 0x79, 0x2a, 0xe4, 0x68, 0xd0, 0x1a, 0x3f, 0x36, 0x23, 0x18,
];
/// The wallet of [`TEST_ADMIN_PRIVATE_KEY`].
pub const TEST_ADMIN_WALLET: &str = "0x2c7536e3605d9c16a7a3d7b1898e529396a65c23";

/// A signed-in admin session.
#[derive(Debug, Clone)]
pub struct AdminClient {
    /// The wallet that signed in.
    pub wallet: Wallet,
    /// `cb_auth_token=<jwt>`, ready to send as the `Cookie` header.
    pub cookie: String,
    /// The session's CSRF token, for the `x-csrf-token` header of admin writes.
    pub csrf_token: String,
}

impl TestApp {
    /// Signs in the wallet of `private_key` through the real nonce and login routes.
    pub async fn admin_for(&self, private_key: [u8; 32]) -> AdminClient {
        let wallet = wallet_of_key(private_key);
        let (_, nonce) = self
            .call(Method::GET, &format!("/api/auth/nonce?wallet={wallet}"), None)
            .await;
        let login = AdminLogin {
            wallet,
            nonce: nonce["nonce"].as_str().unwrap_or_default().to_owned(),
            issued_at_secs: u64::try_from(self.clock.now_ms() / 1000).unwrap_or_default(),
        };
        let body = json!({
            "wallet": wallet,
            "nonce": login.nonce,
            "issuedAt": login.issued_at_secs,
            "signature": sign_login(private_key, &login, self.app.config().chain_id),
        });
        let (cookie, reply) = self.call(Method::POST, "/api/auth/login", Some(body)).await;
        let csrf_token = reply["csrfToken"]
            .as_str()
            .unwrap_or_else(|| panic!("admin login failed: {reply}"))
            .to_owned();
        AdminClient {
            wallet,
            cookie: cookie.unwrap_or_else(|| panic!("admin login set no cookie: {reply}")),
            csrf_token,
        }
    }

    /// Signs in [`TEST_ADMIN_WALLET`] and issues it a subscription key with every scope, so a test can
    /// use admin and Dev routes of one merchant.
    pub async fn merchant_admin(&self) -> (AdminClient, TestKey) {
        let admin = self.admin_for(TEST_ADMIN_PRIVATE_KEY).await;
        let issued = self
            .key_admin()
            .create(
                admin.wallet,
                Scopes::all(),
                Some("test merchant admin".to_owned()),
            )
            .await
            .unwrap_or_else(|error| panic!("creating the merchant admin's key: {error}"));
        let key = TestKey {
            key: issued.key.expose().to_owned(),
            subscription_id: issued.subscription_id.as_str().to_owned(),
            wallet: admin.wallet,
        };
        (admin, key)
    }

    /// One in-process request; returns the session cookie it set (name=value) and the JSON body.
    async fn call(&self, method: Method, path: &str, body: Option<Value>) -> (Option<String>, Value) {
        let bytes = body.map_or_else(Bytes::new, |body| Bytes::from(body.to_string()));
        let request = Request::builder()
            .method(method)
            .uri(path)
            .header(CONTENT_TYPE, "application/json")
            .body(Full::new(bytes))
            .unwrap_or_else(|error| panic!("building {path}: {error}"));
        let response = self.app.handle(request).await;
        let cookie = response
            .headers()
            .get(SET_COOKIE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(';').next())
            .map(str::to_owned);
        let collected = response
            .into_body()
            .collect()
            .await
            .unwrap_or_else(|error| panic!("reading {path}: {error}"));
        let json = serde_json::from_slice(&collected.to_bytes()).unwrap_or(Value::Null);
        (cookie, json)
    }
}

/// The wallet (address) of a secp256k1 private key.
pub fn wallet_of_key(private_key: [u8; 32]) -> Wallet {
    let key = signing_key(private_key);
    let point = key.verifying_key().to_encoded_point(false);
    let hash = keccak256(&point.as_bytes()[1..]);
    let mut address = [0u8; 20];
    address.copy_from_slice(&hash[12..]);
    Wallet::from_address(address.into())
}

/// The 65-byte `r || s || v` (v = 27/28) hex signature of `login` under the admin EIP-712 domain.
pub fn sign_login(private_key: [u8; 32], login: &AdminLogin, chain_id: u64) -> String {
    let (signature, recovery) = signing_key(private_key)
        .sign_prehash_recoverable(login.signing_hash(chain_id).as_slice())
        .unwrap_or_else(|error| panic!("signing the login: {error}"));
    let mut bytes = signature.to_bytes().to_vec();
    bytes.push(27 + recovery.to_byte());
    format!("0x{}", hex::encode(bytes))
}

fn signing_key(private_key: [u8; 32]) -> SigningKey {
    SigningKey::from_slice(&private_key).unwrap_or_else(|error| panic!("invalid private key: {error}"))
}
