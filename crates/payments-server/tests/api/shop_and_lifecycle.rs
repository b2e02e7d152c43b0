use std::time::Duration;

use payments_server::testing::eventually;
use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, send};

#[tokio::test]
async fn shop_config_has_defaults_for_a_merchant_that_never_saved_one() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::GET, "/api/shop/config")).await;

    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.json,
        json!({"wallet": "0x1111111111111111111111111111111111111111", "brandName": "",
               "processingFeePct": 0.0, "platformFeePct": 0.5, "brandKey": null, "supportEmail": null,
               "logoUrl": null, "redirectUrl": null, "jurisdictions": [], "defaultJurisdiction": null})
    );
}

#[tokio::test]
async fn shop_config_needs_the_shop_read_scope() {
    let api = Api::spawn().await;
    let reader = api.app.create_key(api.app.wallet, "inventory:read").await;

    let reply = send(api.dev_as(&reader.key, Method::GET, "/api/shop/config")).await;

    assert_eq!(reply.status, 403);
    assert_eq!(
        reply.json["message"],
        "the subscription key lacks the shop:read scope"
    );
}

#[tokio::test]
async fn after_shutdown_the_server_stops_accepting_connections() {
    let api = Api::spawn().await;
    let address = api.app.base_url.trim_start_matches("http://").to_owned();
    assert_eq!(send(api.anonymous(Method::GET, "/healthz")).await.status, 200);

    api.app.shutdown().await;

    eventually("the port to refuse connections", Duration::from_secs(5), || {
        let address = address.clone();
        async move {
            tokio::net::TcpStream::connect(address)
                .await
                .is_err()
                .then_some(())
        }
    })
    .await;
}
