//! How failures are reported: `error: <code>: <message> (hint: <fix>)` on one line, or with `--json` a
//! `{error, message, hint}` object; exit 1 for a refusal, 2 for usage, 3 for transport. The key is never
//! echoed.

use std::net::TcpListener;

use payments_server::testing::spawn_app;
use serde_json::Value;

use crate::helpers::{payments, payments_with_key};

/// A URL where nothing listens: connecting is refused.
fn closed_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    format!("http://{}", listener.local_addr().unwrap())
}

#[tokio::test(flavor = "multi_thread")]
async fn a_missing_key_is_reported_before_sending_with_how_to_set_one() {
    let app = spawn_app().await;

    // Pointed at a closed port: had anything been sent, this would be a connection failure instead.
    let run = payments_with_key(&app, None, &["inventory", "list", "--url", &closed_url()]).await;

    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .starts_with("error: missing_key: this command needs a subscription key and none was given (hint: set PAYMENTS_KEY or pass --key"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_key_keeps_the_service_code_exits_1_and_is_never_echoed() {
    let app = spawn_app().await;
    let wrong = "sk_test_not-a-real-key-but-secret-all-the-same";

    let run = payments_with_key(&app, Some(wrong), &["inventory", "list"]).await;

    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr
            .starts_with("error: unauthorized: missing or invalid subscription key (hint: set PAYMENTS_KEY"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains(wrong), "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_key_with_a_line_break_is_refused_before_sending_without_echoing_it() {
    let app = spawn_app().await;
    let pasted = format!("{}\n", app.key);

    let run = payments_with_key(&app, Some(&pasted), &["ping"]).await;

    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.starts_with("error: invalid_key: "), "{}", run.stderr);
    assert!(!run.stderr.contains(app.key.as_str()), "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn connection_refused_names_the_url_suggests_starting_the_server_and_exits_3() {
    let app = spawn_app().await;
    let closed = closed_url();

    let run = payments(&app, &["ping", "--url", &closed]).await;

    assert_eq!(run.code, 3, "{run:?}");
    let expected = format!(
        "error: connection_failed: cannot connect to {closed}: connection refused (hint: start the server \
         (`payments-server`), or point --url / PAYMENTS_URL at it (now {closed}))\n"
    );
    assert_eq!(run.stderr, expected);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_https_url_for_the_plain_http_server_says_it_answered_in_plain_http_and_exits_3() {
    let app = spawn_app().await;
    let https = app.base_url.replacen("http://", "https://", 1);

    let run = payments(&app, &["ping", "--url", &https]).await;

    assert_eq!(run.code, 3, "{run:?}");
    let expected = format!(
        "error: connection_failed: {https} answered in plain HTTP, not HTTPS (hint: use --url {} (the \
         payments server speaks plain HTTP unless a TLS proxy is in front of it), or the proxy's https:// \
         address)\n",
        app.base_url
    );
    assert_eq!(run.stderr, expected);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_service_that_does_not_answer_in_time_is_a_timeout_exit_3() {
    let app = spawn_app().await;
    // Connections complete in the kernel's backlog, but nothing ever answers.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", silent.local_addr().unwrap());

    let run = payments(&app, &["ping", "--url", &url, "--timeout", "1"]).await;

    assert_eq!(run.code, 3, "{run:?}");
    assert!(
        run.stderr.starts_with(&format!(
            "error: timeout: {url} did not answer in time (hint: raise --timeout"
        )),
        "{}",
        run.stderr
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_url_without_a_scheme_is_refused_with_the_url_it_probably_meant() {
    let app = spawn_app().await;

    let run = payments(&app, &["ping", "--url", "127.0.0.1:8080"]).await;

    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: invalid_url: --url \"127.0.0.1:8080\" has no scheme (hint: pass --url \
         http://127.0.0.1:8080 (or https://127.0.0.1:8080); set PAYMENTS_URL to keep it)\n"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refusal_keeps_the_service_code_and_says_what_to_do() {
    let app = spawn_app().await;

    let missing = payments(&app, &["inventory", "delete", "prod_missing"]).await;
    let no_split = payments(&app, &["orders", "create", "--item", "MUG-1:1"]).await;

    assert_eq!(missing.code, 1);
    assert!(
        missing.stderr.starts_with("error: not_found: "),
        "{}",
        missing.stderr
    );
    assert!(
        missing.stderr.contains("(hint: check the id"),
        "{}",
        missing.stderr
    );
    assert_eq!(no_split.code, 1);
    assert!(
        no_split.stderr.starts_with("error: split_required: "),
        "{}",
        no_split.stderr
    );
    assert!(
        no_split.stderr.contains("`payments split deploy`"),
        "{}",
        no_split.stderr
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn with_json_anywhere_an_error_is_one_object_with_code_message_and_hint() {
    let app = spawn_app().await;

    let before = payments(&app, &["--json", "inventory", "delete", "prod_missing"]).await;
    let after = payments_with_key(
        &app,
        None,
        &["receipts", "list", "--json", "--url", &closed_url()],
    )
    .await;

    assert_eq!((before.code, after.code), (1, 2));
    for (run, code) in [(&before, "not_found"), (&after, "missing_key")] {
        assert_eq!(run.stdout, "", "{run:?}");
        let error: Value = serde_json::from_str(&run.stderr).unwrap();
        let fields: Vec<&String> = error.as_object().unwrap().keys().collect();
        assert_eq!(fields, ["error", "hint", "message"]);
        assert_eq!(error["error"], code);
        assert!(!error["message"].as_str().unwrap().is_empty(), "{error}");
        assert!(!error["hint"].as_str().unwrap().is_empty(), "{error}");
    }
}
