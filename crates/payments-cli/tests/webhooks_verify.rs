//! `payments webhooks verify` on the shared webhook vectors: the real binary, a real body file.

// A test helper that panics is reporting a failure, the same as an assertion.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;

const VECTORS: &str = include_str!("../../webhook-verify/tests/vectors/webhook-signatures.json");

/// Vector `index` as (API key, body, X-Service-Signature, Standard Webhooks object).
fn vector(index: usize) -> (String, Vec<u8>, String, Value) {
    let vectors: Value = serde_json::from_str(VECTORS).unwrap();
    let v = &vectors["vectors"][index];
    let text = |field: &str| v[field].as_str().unwrap().to_owned();
    let body = STANDARD.decode(text("bodyBase64")).unwrap();
    (
        text("apiKey"),
        body,
        text("xServiceSignature"),
        v["standardWebhooks"].clone(),
    )
}

fn write_body(dir: &Path, body: &[u8]) -> PathBuf {
    let path = dir.join("body.json");
    std::fs::write(&path, body).unwrap();
    path
}

fn payments(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_payments"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn verify_x_service(body_file: &Path, key: &str, signature: &str, extra: &[&str]) -> Output {
    let body_file = body_file.to_str().unwrap();
    let mut args = vec![
        "webhooks",
        "verify",
        "--key",
        key,
        "--body-file",
        body_file,
        "--signature",
        signature,
    ];
    args.extend_from_slice(extra);
    payments(&args)
}

#[test]
fn a_vector_body_with_its_signature_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    let (key, body, signature, _) = vector(1);
    let body_file = write_body(dir.path(), &body);

    let output = verify_x_service(&body_file, &key, &signature, &[]);

    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    assert_eq!(stdout(&output), "valid\n");
}

#[test]
fn a_body_tampered_by_one_byte_is_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let (key, mut body, signature, _) = vector(1);
    body[5] ^= 0x01;
    let body_file = write_body(dir.path(), &body);

    let output = verify_x_service(&body_file, &key, &signature, &[]);

    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).starts_with("invalid: signature does not match"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_uppercase_signature_is_invalid_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let (key, body, signature, _) = vector(0);
    let body_file = write_body(dir.path(), &body);

    let output = verify_x_service(
        &body_file,
        &key,
        &signature.to_uppercase().replace("SHA256=", "sha256="),
        &[],
    );

    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("malformed header `x-service-signature`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_old_timestamp_is_stale_unless_the_tolerance_is_disabled() {
    let dir = tempfile::tempdir().unwrap();
    let (key, body, signature, _) = vector(0);
    let body_file = write_body(dir.path(), &body);

    let checked = verify_x_service(&body_file, &key, &signature, &["--timestamp", "1767599992000"]);
    let unchecked = verify_x_service(
        &body_file,
        &key,
        &signature,
        &["--timestamp", "1767599992000", "--tolerance-secs", "0"],
    );

    assert_eq!(checked.status.code(), Some(1));
    assert!(
        stderr(&checked).contains("old, tolerance is 300s"),
        "{}",
        stderr(&checked)
    );
    assert_eq!(unchecked.status.code(), Some(0), "stderr: {}", stderr(&unchecked));
}

#[test]
fn the_standard_webhooks_form_verifies_a_vector() {
    let dir = tempfile::tempdir().unwrap();
    let (_, body, _, standard) = vector(2);
    let body_file = write_body(dir.path(), &body);
    let field = |name: &str| standard[name].as_str().unwrap().to_owned();

    let output = payments(&[
        "webhooks",
        "verify",
        "--secret",
        &field("secret"),
        "--id",
        &field("webhookId"),
        "--sig-timestamp",
        &field("webhookTimestamp"),
        "--signature",
        &field("webhookSignature"),
        "--body-file",
        body_file.to_str().unwrap(),
        "--tolerance-secs",
        "0",
    ]);

    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    assert_eq!(stdout(&output), "valid\n");
}

#[test]
fn a_missing_body_file_is_an_error_not_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let (key, _, signature, _) = vector(0);

    let output = verify_x_service(&dir.path().join("absent.json"), &key, &signature, &[]);

    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).starts_with("error: cannot read body file"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn key_and_secret_together_are_a_usage_error() {
    let output = payments(&[
        "webhooks",
        "verify",
        "--key",
        "sk_test",
        "--secret",
        "whsec_c2VjcmV0",
        "--id",
        "msg_1",
        "--sig-timestamp",
        "1",
        "--signature",
        "v1,AAAA",
        "--body-file",
        "body.json",
    ]);

    assert_eq!(output.status.code(), Some(2));
}
