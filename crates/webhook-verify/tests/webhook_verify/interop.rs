//! Interoperability with the official libraries: npm `standardwebhooks` and `svix` sign what this crate
//! verifies, verify what its signer produces, and refuse the same tampered body.
//!
//! The libraries are installed by `tests/interop/install.sh` (CI runs it); without node or them the tests
//! say so and pass locally, and fail under `CI=true`.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use webhook_verify::{Event, Verifier, VerifyError, WebhookSecret, testing};

const LIBRARIES: [&str; 2] = ["standardwebhooks", "svix"];
/// An endpoint secret of 32 bytes, as the service issues them.
const SECRET: &str = "whsec_Jn0xJ0N3iVsw5cQf6QdyqP1vb1dB6kM5x9p1Kc0Bf3s=";
const OLD_SECRET: &str = "whsec_q83vEjRWeJASNFZ4kKvN7xI0VniQq83vEjRWeJCrze8=";
/// An endpoint delivery: a `subscription.created` envelope with non-ASCII text in it.
const BODY: &str = r#"{"id":"msg_interop_1","type":"subscription.created","createdAt":1767600000123,"test":false,"data":{"event":"subscription.created","subscriptionId":"csub_é1","planId":"plan_7","status":"active","previousStatus":null,"period":"MONTHLY","priceUsd":2.50,"priceBaseUnits":"2500000","charge":null,"cancelReason":null}}"#;
const ID: &str = "msg_interop_1";

fn interop_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/interop")
}

/// Runs the requests through `tests/interop/interop.js`; `None` (after saying why) when node or the
/// libraries are missing outside CI.
fn run_official(requests: &Value) -> Option<Vec<Value>> {
    let installed = LIBRARIES
        .iter()
        .all(|library| interop_dir().join("node_modules").join(library).exists());
    let node = Command::new("node").arg("--version").output();
    if !installed || node.is_err() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "the official webhook libraries are not installed under CI=true: run \
             crates/webhook-verify/tests/interop/install.sh"
        );
        eprintln!(
            "skipping: node or the official webhook libraries are missing (crates/webhook-verify/tests/interop/install.sh)"
        );
        return None;
    }
    let mut child = Command::new("node")
        .arg("interop.js")
        .current_dir(interop_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(requests.to_string().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "interop.js failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(serde_json::from_slice(&output.stdout).unwrap())
}

fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs()
}

fn secret(text: &str) -> WebhookSecret {
    WebhookSecret::new(text).unwrap()
}

/// The headers object the libraries take.
fn headers_object(headers: &[(&str, String)]) -> Value {
    Value::Object(
        headers
            .iter()
            .map(|(name, value)| ((*name).to_owned(), Value::String(value.clone())))
            .collect(),
    )
}

fn verify_request(library: &str, secret: &str, headers: &[(&str, String)], body: &str) -> Value {
    json!({"library": library, "op": "verify", "secret": secret, "headers": headers_object(headers), "body": body})
}

#[test]
fn a_body_signed_by_the_official_libraries_verifies_and_parses_with_webhook_verify() {
    let timestamp = now_secs();
    let requests: Vec<Value> = LIBRARIES
        .iter()
        .map(|library| {
            json!({"library": library, "op": "sign", "secret": SECRET, "id": ID, "timestamp": timestamp, "body": BODY})
        })
        .collect();
    let Some(answers) = run_official(&Value::Array(requests)) else {
        return;
    };

    for (library, answer) in LIBRARIES.iter().zip(answers) {
        let headers = [
            ("webhook-id", ID.to_owned()),
            ("webhook-timestamp", timestamp.to_string()),
            (
                "webhook-signature",
                answer["signature"].as_str().unwrap().to_owned(),
            ),
        ];

        let webhook = Verifier::standard_webhooks(secret(SECRET))
            .verify_and_parse(&headers, BODY.as_bytes())
            .unwrap_or_else(|err| panic!("{library}: {err}"));

        let Event::SubscriptionCreated(created) = webhook.into_event() else {
            panic!("{library}: expected subscription.created");
        };
        assert_eq!(created.subscription_id, "csub_é1", "{library}");
    }
}

#[test]
fn what_webhook_verify_signs_is_accepted_by_the_official_libraries_and_a_tampered_body_by_none() {
    let headers = testing::standard_webhooks_headers(&secret(SECRET), ID, BODY.as_bytes(), SystemTime::now());
    let tampered = BODY.replace("2.50", "0.25");
    let mut requests = Vec::new();
    for library in LIBRARIES {
        requests.push(verify_request(library, SECRET, &headers, BODY));
        requests.push(verify_request(library, SECRET, &headers, &tampered));
    }
    let Some(answers) = run_official(&Value::Array(requests)) else {
        return;
    };
    let ours_on_tampered = Verifier::standard_webhooks(secret(SECRET)).verify(&headers, tampered.as_bytes());

    for (library, answers) in LIBRARIES.iter().zip(answers.chunks(2)) {
        assert_eq!(answers[0]["valid"], true, "{library}: {}", answers[0]);
        assert_eq!(answers[1]["valid"], false, "{library} accepted a tampered body");
    }
    assert!(
        matches!(ours_on_tampered, Err(VerifyError::SignatureMismatch)),
        "{ours_on_tampered:?}"
    );
}

#[test]
fn a_rotation_header_signed_with_two_secrets_verifies_with_either_in_the_official_libraries() {
    let timestamp = now_secs();
    let signature = format!(
        "{} {}",
        testing::sign_standard_webhooks(&secret(SECRET), ID, timestamp, BODY.as_bytes()),
        testing::sign_standard_webhooks(&secret(OLD_SECRET), ID, timestamp, BODY.as_bytes()),
    );
    let headers = [
        ("webhook-id", ID.to_owned()),
        ("webhook-timestamp", timestamp.to_string()),
        ("webhook-signature", signature),
    ];
    let third = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
    let mut requests = Vec::new();
    for library in LIBRARIES {
        for secret in [SECRET, OLD_SECRET, third] {
            requests.push(verify_request(library, secret, &headers, BODY));
        }
    }
    let Some(answers) = run_official(&Value::Array(requests)) else {
        return;
    };

    let valid: Vec<bool> = answers.iter().map(|answer| answer["valid"] == true).collect();
    assert_eq!(valid, [true, true, false, true, true, false], "{answers:?}");
}

#[test]
fn the_whsec_form_of_an_api_key_is_the_secret_the_official_libraries_need_for_per_receipt_webhooks() {
    let api_key = "sk_test_6cf2d133187c8df95247f2866028de71";
    let whsec = format!("whsec_{}", STANDARD.encode(api_key));
    let timestamp = SystemTime::now() - Duration::from_secs(30);
    let body = r#"{"event":"receipt.status_updated","receiptId":"R-1","status":"paid"}"#;
    let headers = testing::standard_webhooks_headers(
        &WebhookSecret::from_api_key(api_key).unwrap(),
        "0b9d1c2e-0000-4000-8000-000000000001",
        body.as_bytes(),
        timestamp,
    );
    let requests = LIBRARIES
        .iter()
        .map(|library| verify_request(library, &whsec, &headers, body))
        .collect();
    let Some(answers) = run_official(&Value::Array(requests)) else {
        return;
    };

    for (library, answer) in LIBRARIES.iter().zip(answers) {
        assert_eq!(answer["valid"], true, "{library}: {answer}");
    }
}
