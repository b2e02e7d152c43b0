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
        .env_remove("PAYMENTS_KEY")
        .env_remove("PAYMENTS_WEBHOOK_SECRET")
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
        stderr(&output).starts_with("error: io_error: cannot read the body from"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn with_a_key_and_a_secret_the_secret_is_used_and_that_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let (_, body, _, standard) = vector(2);
    let body_file = write_body(dir.path(), &body);
    let field = |name: &str| standard[name].as_str().unwrap().to_owned();

    let output = Command::new(env!("CARGO_BIN_EXE_payments"))
        .args([
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
        ])
        .env("PAYMENTS_KEY", "sk_test_not_the_signer")
        .output()
        .unwrap();

    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    assert!(
        stderr(&output).contains("PAYMENTS_KEY is not used"),
        "{}",
        stderr(&output)
    );
}

/// `payments ARGS` with `env` and `stdin` fed to it (PAYMENTS_KEY and PAYMENTS_WEBHOOK_SECRET of the
/// test's environment removed).
fn payments_with(args: &[&str], env: &[(&str, &str)], stdin: &[u8]) -> Output {
    use std::io::Write as _;
    use std::process::Stdio;

    let mut child = Command::new(env!("CARGO_BIN_EXE_payments"))
        .args(args)
        .env_remove("PAYMENTS_KEY")
        .env_remove("PAYMENTS_WEBHOOK_SECRET")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn the_key_comes_from_payments_key_and_the_body_from_stdin() {
    let (key, body, signature, _) = vector(1);

    let output = payments_with(
        &[
            "webhooks",
            "verify",
            "--body-file",
            "-",
            "--signature",
            &signature,
        ],
        &[("PAYMENTS_KEY", &key)],
        &body,
    );

    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    assert_eq!(stdout(&output), "valid\n");
}

#[test]
fn a_captured_headers_file_gives_the_signature_of_either_scheme() {
    let dir = tempfile::tempdir().unwrap();
    let (key, body, signature, standard) = vector(2);
    let body_file = write_body(dir.path(), &body);
    let field = |name: &str| standard[name].as_str().unwrap().to_owned();
    let curl_dump = dir.path().join("x-service.txt");
    std::fs::write(
        &curl_dump,
        format!("POST /hook HTTP/1.1\r\nContent-Type: application/json\r\nX-Service-Signature: {signature}\r\n\r\n"),
    )
    .unwrap();
    let json_headers = dir.path().join("standard.json");
    let object = serde_json::json!({
        "webhook-id": field("webhookId"),
        "webhook-timestamp": field("webhookTimestamp"),
        "webhook-signature": field("webhookSignature"),
    });
    std::fs::write(&json_headers, object.to_string()).unwrap();
    let body_arg = body_file.to_str().unwrap();

    let x_service = payments_with(
        &[
            "webhooks",
            "verify",
            "--body-file",
            body_arg,
            "--headers-file",
            curl_dump.to_str().unwrap(),
        ],
        &[("PAYMENTS_KEY", &key)],
        b"",
    );
    let standard_webhooks = payments_with(
        &[
            "webhooks",
            "verify",
            "--body-file",
            body_arg,
            "--headers-file",
            json_headers.to_str().unwrap(),
            "--tolerance-secs",
            "0",
        ],
        &[("PAYMENTS_WEBHOOK_SECRET", &field("secret"))],
        b"",
    );

    assert_eq!(x_service.status.code(), Some(0), "stderr: {}", stderr(&x_service));
    assert_eq!(
        standard_webhooks.status.code(),
        Some(0),
        "stderr: {}",
        stderr(&standard_webhooks)
    );
}

#[test]
fn json_prints_one_result_object_for_a_valid_and_an_invalid_signature() {
    let dir = tempfile::tempdir().unwrap();
    let (key, body, signature, _) = vector(1);
    let body_file = write_body(dir.path(), &body);
    let other_signature = vector(0).2;

    let valid = verify_x_service(&body_file, &key, &signature, &["--json"]);
    let invalid = verify_x_service(&body_file, &key, &other_signature, &["--json"]);

    let valid_json: Value = serde_json::from_str(&stdout(&valid)).unwrap();
    let invalid_json: Value = serde_json::from_str(&stdout(&invalid)).unwrap();
    assert_eq!(valid.status.code(), Some(0));
    assert_eq!(valid_json["valid"], true);
    assert_eq!(valid_json["scheme"], "x_service");
    assert_eq!(invalid.status.code(), Some(1));
    assert_eq!(invalid_json["valid"], false);
    assert_eq!(invalid_json["error"], "signature_mismatch");
}

#[test]
fn a_malformed_key_or_secret_is_a_usage_error_that_never_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    let body_file = write_body(dir.path(), b"{}");
    let body_arg = body_file.to_str().unwrap();
    let key = "sk_live_do_not_print_me\n";
    let secret = "sk_live_not_a_whsec_secret";

    let bad_key = payments_with(
        &[
            "webhooks",
            "verify",
            "--body-file",
            body_arg,
            "--signature",
            "sha256=00",
        ],
        &[("PAYMENTS_KEY", key)],
        b"",
    );
    let bad_secret = payments_with(
        &[
            "--json",
            "webhooks",
            "verify",
            "--body-file",
            body_arg,
            "--signature",
            "v1,AA",
        ],
        &[("PAYMENTS_WEBHOOK_SECRET", secret)],
        b"",
    );

    assert_eq!(bad_key.status.code(), Some(2));
    assert!(stderr(&bad_key).contains("invalid_key"), "{}", stderr(&bad_key));
    assert!(
        !stderr(&bad_key).contains("do_not_print_me"),
        "{}",
        stderr(&bad_key)
    );
    assert_eq!(bad_secret.status.code(), Some(2));
    let error: Value = serde_json::from_str(stderr(&bad_secret).trim()).unwrap();
    assert_eq!(error["error"], "invalid_secret");
    assert!(
        !stderr(&bad_secret).contains("not_a_whsec"),
        "{}",
        stderr(&bad_secret)
    );
}
