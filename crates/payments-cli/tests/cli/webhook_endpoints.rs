//! `payments webhooks endpoints ...` and `payments webhooks trigger` through the real binary: an endpoint
//! registered from the command line receives a test event signed with the secret the create printed.

use std::time::{Duration, UNIX_EPOCH};

use payments_server::testing::{TEST_START_MS, spawn_app};
use serde_json::Value;
use webhook_verify::{Verifier, WebhookSecret};

use crate::helpers::{forward_target, payments};

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|error| panic!("{error}: {stdout}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn an_endpoint_made_from_the_command_line_receives_a_triggered_test_event_it_can_verify() {
    let app = spawn_app().await;
    let (url, received) = forward_target(200).await;

    let created = payments(
        &app,
        &[
            "webhooks",
            "endpoints",
            "create",
            "--endpoint-url",
            &url,
            "--events",
            "subscription.*",
            "--json",
        ],
    )
    .await;
    assert_eq!(created.code, 0, "{created:?}");
    let endpoint = json(&created.stdout);
    let id = endpoint["id"].as_str().unwrap().to_owned();
    let secret = endpoint["secret"].as_str().unwrap().to_owned();
    let triggered = payments(&app, &["webhooks", "trigger", "subscription.charged", "--json"]).await;
    let request =
        tokio::task::spawn_blocking(move || received.recv_timeout(Duration::from_secs(10)).unwrap())
            .await
            .unwrap();
    let listed = payments(&app, &["webhooks", "endpoints", "list"]).await;
    let log = payments(&app, &["webhooks", "endpoints", "deliveries", &id, "--json"]).await;
    let disabled = payments(
        &app,
        &[
            "webhooks",
            "endpoints",
            "update",
            &id,
            "--enabled",
            "false",
            "--json",
        ],
    )
    .await;
    let rotated = payments(&app, &["webhooks", "endpoints", "rotate", &id]).await;
    let since = TEST_START_MS.to_string();
    let recovered = payments(
        &app,
        &["webhooks", "endpoints", "recover", &id, "--since", &since],
    )
    .await;
    let nothing = payments(&app, &["webhooks", "endpoints", "update", &id]).await;
    let deleted = payments(&app, &["webhooks", "endpoints", "delete", &id]).await;
    let gone = payments(&app, &["webhooks", "endpoints", "deliveries", &id]).await;

    assert!(secret.starts_with("whsec_"), "{secret}");
    assert_eq!(triggered.code, 0, "{triggered:?}");
    assert_eq!(json(&triggered.stdout)["deliveries"], 1);
    let signed_at: u64 = request.headers["webhook-timestamp"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    let verified = Verifier::standard_webhooks(WebhookSecret::new(&secret).unwrap()).verify_at(
        &request.headers,
        &request.body,
        UNIX_EPOCH + Duration::from_secs(signed_at),
    );
    assert!(verified.is_ok(), "{verified:?}");
    let body: Value = serde_json::from_slice(&request.body).unwrap();
    assert_eq!(
        (body["type"].as_str(), body["test"].as_bool()),
        (Some("subscription.charged"), Some(true))
    );
    assert!(
        listed.stdout.contains(&id) && listed.stdout.contains("subscription.*"),
        "{listed:?}"
    );
    assert!(!listed.stdout.contains("whsec_"), "{listed:?}");
    assert_eq!(
        json(&log.stdout)["deliveries"][0]["eventType"],
        "subscription.charged"
    );
    assert_eq!(json(&disabled.stdout)["enabled"], false);
    assert!(rotated.stdout.contains("secret: whsec_"), "{rotated:?}");
    assert!(!rotated.stdout.contains(&secret), "{rotated:?}");
    assert_eq!(
        recovered.stdout, "queued 0 failed deliveries again\n",
        "{recovered:?}"
    );
    assert_ne!(nothing.code, 0, "{nothing:?}");
    assert!(nothing.stderr.contains("nothing to change"), "{nothing:?}");
    assert_eq!(deleted.stdout, format!("deleted {id}\n"));
    assert_ne!(gone.code, 0, "{gone:?}");
    assert!(
        gone.stderr.contains("not_found") || gone.stderr.contains("not found"),
        "{gone:?}"
    );
}
