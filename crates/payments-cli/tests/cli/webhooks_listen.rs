//! `payments webhooks listen` as a child process: deliveries from the real server, forged and oversized
//! requests next to valid ones, usage errors, and a clean stop on SIGTERM.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use payments_client::{CreateReceipt, PostStatus, ReceiptLine};
use payments_core::{Cents, ReceiptStatus};
use payments_server::testing::{eventually, spawn_app};
use serde_json::Value;
use webhook_verify::{ApiKey, WebhookSecret, testing};

use crate::helpers::{client, forward_target};

/// Every wait on the child is bounded by this.
pub(crate) const WAIT: Duration = Duration::from_secs(20);

/// A running `payments webhooks listen`, killed when the test ends however it ends.
pub(crate) struct Listener {
    pub(crate) child: Child,
    stdout: mpsc::Receiver<String>,
    stderr: mpsc::Receiver<String>,
    /// `http://127.0.0.1:PORT`, read from the first stdout line.
    pub(crate) url: String,
}

impl Listener {
    /// Starts the listener on a free port with `args` and `env` (PAYMENTS_* of the test's own
    /// environment removed) and waits for its address.
    pub(crate) fn start(args: &[&str], env: &[(&str, &str)]) -> Listener {
        let mut child = listen_command(args, env)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = lines_of(child.stdout.take().unwrap());
        let stderr = lines_of(child.stderr.take().unwrap());
        let mut listener = Listener {
            child,
            stdout,
            stderr,
            url: String::new(),
        };
        let first = listener.next_stdout();
        listener.url = first
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line: {first}"))
            .to_owned();
        listener
    }

    pub(crate) fn next_stdout(&self) -> String {
        next_line(&self.stdout, "stdout")
    }

    /// The next stderr line starting with `prefix`, skipping the others (the start-up notice).
    pub(crate) fn next_stderr_starting(&self, prefix: &str) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let line = next_line(&self.stderr, "stderr");
            if line.starts_with(prefix) {
                return line;
            }
            assert!(
                Instant::now() < deadline,
                "no stderr line starting with {prefix:?}"
            );
        }
    }

    /// Waits for the process to exit; its exit code.
    pub(crate) fn wait_for_exit(&mut self) -> Option<i32> {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            assert!(
                Instant::now() < deadline,
                "the listener did not exit within {WAIT:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

fn listen_command(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_payments"));
    command
        .args(["webhooks", "listen", "--port", "0"])
        .args(args)
        .env_remove("PAYMENTS_KEY")
        .env_remove("PAYMENTS_URL")
        .env_remove("PAYMENTS_WEBHOOK_SECRET")
        .env_remove("PAYMENTS_LISTEN_PORT")
        .env_remove("PAYMENTS_WEBHOOK_TOLERANCE_SECS")
        .envs(env.iter().copied());
    command
}

/// The lines of a child's pipe, read on a thread so every wait can have a timeout.
fn lines_of(pipe: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// The next line, without stalling the runtime's other tasks (the in-process server) while waiting.
fn next_line(lines: &mpsc::Receiver<String>, which: &str) -> String {
    tokio::task::block_in_place(|| lines.recv_timeout(WAIT))
        .unwrap_or_else(|err| panic!("no {which} line from the listener within {WAIT:?}: {err}"))
}

/// Runs the listener to completion (killed after [`WAIT`]); its exit code and stderr.
pub(crate) fn run_to_exit(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut child = listen_command(args, env)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = lines_of(child.stderr.take().unwrap());
    let deadline = Instant::now() + WAIT;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() >= deadline {
            child.kill().ok();
            child.wait().ok();
            panic!("the listener did not exit within {WAIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // The reader thread may still be behind the exit: read up to EOF (the sender is dropped there).
    let mut lines = Vec::new();
    while let Ok(line) = stderr.recv_timeout(WAIT) {
        lines.push(line);
    }
    (status.code(), lines.join("\n"))
}

pub(crate) fn now_ms() -> i64 {
    let ms = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis();
    i64::try_from(ms).unwrap()
}

/// POSTs `body` with `headers` to the listener; the status and the answer's text.
pub(crate) async fn post(url: &str, headers: &[(&str, String)], body: Vec<u8>) -> (u16, String) {
    let mut request = reqwest::Client::new().post(url).body(body);
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread")]
async fn the_listener_prints_the_event_the_real_server_sends_and_answers_200() {
    let app = spawn_app().await;
    // The listener checks freshness against its own clock, so the server must sign at the real time.
    app.clock.set(now_ms());
    let listener = Listener::start(&["--no-endpoint", "--key", &app.key, "--json"], &[]);
    let client = client(&app);
    let line = ReceiptLine {
        label: "Coffee".to_owned(),
        price_usd: Cents::new(350),
        qty: None,
    };
    let receipt = CreateReceipt::new("listen-1", vec![line]).webhook_url(format!("{}/hook", listener.url));

    client.create_receipt(&receipt).await.unwrap();
    let wallet = app.wallet;
    client
        .post_receipt_status(&PostStatus::new("listen-1", wallet, ReceiptStatus::LinkOpened))
        .await
        .unwrap();

    let event: Value = serde_json::from_str(&listener.next_stdout()).unwrap();
    assert_eq!(event["event"], "receipt.status_updated");
    assert_eq!(event["receiptId"], "listen-1");
    assert_eq!(event["status"], "link_opened");
    assert_eq!(event["previousStatus"], "pending");
    assert_eq!(event["totalUsd"], 3.5);
    let answered = eventually("the delivery log to show a 200", WAIT, || {
        let client = &client;
        async move {
            let deliveries = client.receipt_webhooks("listen-1").await.ok()?;
            let attempt = deliveries.first()?.attempts.first()?.clone();
            attempt.status_code
        }
    })
    .await;
    assert_eq!(answered, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn forged_or_oversized_requests_are_rejected_and_the_next_valid_one_is_printed() {
    let key_text = "sk_test_listen_key";
    let key = ApiKey::new(key_text).unwrap();
    // The key from the environment, as the other commands take it.
    let listener = Listener::start(&["--no-endpoint"], &[("PAYMENTS_KEY", key_text)]);
    let url = format!("{}/webhooks/any/path", listener.url);
    let body = br#"{"event":"receipt.status_updated","receiptId":"R-7","status":"paid","previousStatus":"checkout_initialized","totalUsd":25.0,"transactionHash":"0xabc"}"#;
    let headers = testing::x_service_headers(&key, body, SystemTime::now());
    let tampered = String::from_utf8_lossy(body).replace("25.0", "2.5").into_bytes();
    let other_key = ApiKey::new("sk_test_someone_else").unwrap();
    let wrong_key = testing::x_service_headers(&other_key, body, SystemTime::now());

    let forged = post(&url, &headers, tampered).await;
    let forged_rejection = listener.next_stderr_starting("rejected:");
    let unsigned = post(&url, &wrong_key, body.to_vec()).await;
    let unsigned_rejection = listener.next_stderr_starting("rejected:");
    let oversized = post(&url, &headers, vec![b' '; 1024 * 1024 + 1]).await;
    let oversized_rejection = listener.next_stderr_starting("rejected:");
    let fetched = reqwest::get(&url).await.unwrap().status().as_u16();
    let valid = post(&url, &headers, body.to_vec()).await;
    let printed = listener.next_stdout();

    assert_eq!(forged.0, 401, "{forged:?}");
    assert!(forged.1.contains("signature"), "{forged:?}");
    assert!(forged_rejection.contains("signature"), "{forged_rejection}");
    assert_eq!(unsigned.0, 401, "{unsigned:?}");
    assert!(unsigned_rejection.contains("signature"), "{unsigned_rejection}");
    assert_eq!(oversized.0, 413, "{oversized:?}");
    assert!(
        oversized_rejection.contains("larger than"),
        "{oversized_rejection}"
    );
    assert_eq!(fetched, 405);
    assert_eq!(valid, (200, "ok\n".to_owned()));
    let delivery = &headers
        .iter()
        .find(|(name, _)| *name == "x-service-delivery")
        .unwrap()
        .1;
    assert_eq!(
        printed,
        format!(
            "{delivery}  receipt.status_updated  receiptId=R-7 status=paid previousStatus=checkout_initialized \
             totalUsd=25.00 transactionHash=0xabc"
        )
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn no_key_or_a_bad_port_is_a_usage_error() {
    let (no_key, no_key_stderr) = tokio::task::block_in_place(|| run_to_exit(&[], &[]));
    let (bad_port, bad_port_stderr) =
        tokio::task::block_in_place(|| run_to_exit(&["--port", "70000", "--key", "k"], &[]));
    let (bad_secret, bad_secret_stderr) =
        tokio::task::block_in_place(|| run_to_exit(&["--secret", "not-a-secret"], &[]));

    assert_eq!(no_key, Some(2), "{no_key_stderr}");
    assert!(no_key_stderr.contains("--key"), "{no_key_stderr}");
    assert_eq!(bad_port, Some(2), "{bad_port_stderr}");
    assert!(bad_port_stderr.contains("--port"), "{bad_port_stderr}");
    assert_eq!(bad_secret, Some(2), "{bad_secret_stderr}");
    assert!(bad_secret_stderr.contains("whsec_"), "{bad_secret_stderr}");
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread")]
async fn standard_webhooks_deliveries_are_verified_and_sigterm_stops_the_listener_with_exit_0() {
    let secret_text = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    let secret = WebhookSecret::new(secret_text).unwrap();
    // PAYMENTS_KEY is often set for the other commands; --secret wins over it.
    let mut listener = Listener::start(&["--secret", secret_text], &[("PAYMENTS_KEY", "sk_other")]);
    let body = br#"{"event":"receipt.status_updated","receiptId":"R-8","status":"link_opened"}"#;
    let headers = testing::standard_webhooks_headers(&secret, "msg_1", body, SystemTime::now());

    let valid = post(&listener.url, &headers, body.to_vec()).await;
    let printed = listener.next_stdout();
    let note = listener.next_stderr_starting("note:");
    let killed = Command::new("kill")
        .args(["-TERM", &listener.child.id().to_string()])
        .status()
        .unwrap();
    let code = tokio::task::block_in_place(|| listener.wait_for_exit());

    assert_eq!(valid.0, 200, "{valid:?}");
    assert_eq!(
        printed,
        "msg_1  receipt.status_updated  receiptId=R-8 status=link_opened"
    );
    assert!(note.contains("PAYMENTS_KEY is not used"), "{note}");
    assert!(killed.success());
    assert_eq!(code, Some(0));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_listener_shows_the_whsec_secret_and_forwards_real_deliveries_with_their_signatures() {
    let app = spawn_app().await;
    app.clock.set(now_ms());
    let (target, received) = forward_target(202).await;
    let listener = Listener::start(
        &["--no-endpoint", "--key", &app.key, "--forward-to", &target],
        &[],
    );
    let printed_secret = listener.next_stderr_starting("webhook signing secret: ");
    let client = client(&app);
    let line = ReceiptLine {
        label: "Tea".to_owned(),
        price_usd: Cents::new(275),
        qty: None,
    };
    let receipt = CreateReceipt::new("forward-1", vec![line]).webhook_url(format!("{}/hook", listener.url));

    client.create_receipt(&receipt).await.unwrap();
    client
        .post_receipt_status(&PostStatus::new(
            "forward-1",
            app.wallet,
            ReceiptStatus::LinkOpened,
        ))
        .await
        .unwrap();
    let summary = listener.next_stdout();
    let forward_line = listener.next_stdout();
    let forwarded = tokio::task::block_in_place(|| received.recv_timeout(WAIT)).unwrap();

    let whsec = printed_secret
        .strip_prefix("webhook signing secret: ")
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert!(whsec.starts_with("whsec_"), "{printed_secret}");
    assert!(!printed_secret.contains(&app.key), "only the whsec form is shown");
    let header = |name: &str| forwarded.headers.get(name).unwrap().to_str().unwrap().to_owned();
    let standard = webhook_verify::Verifier::standard_webhooks(WebhookSecret::new(whsec).unwrap());
    standard
        .verify(&forwarded.headers, &forwarded.body)
        .expect("the forwarded Standard Webhooks signature verifies with the printed secret");
    webhook_verify::Verifier::new(ApiKey::new(&app.key).unwrap())
        .verify(&forwarded.headers, &forwarded.body)
        .expect("the forwarded X-Service-Signature verifies with the key");
    assert_eq!(header("x-service-event"), "receipt.status_updated");
    let event: Value = serde_json::from_slice(&forwarded.body).unwrap();
    assert_eq!(event["receiptId"], "forward-1");
    assert!(summary.contains("receiptId=forward-1"), "{summary}");
    assert!(
        forward_line.starts_with(&format!("  -> 202 POST {target}")),
        "{forward_line}"
    );
    let answered = eventually("the delivery log to show the target's 202", WAIT, || {
        let client = &client;
        async move {
            let deliveries = client.receipt_webhooks("forward-1").await.ok()?;
            deliveries.first()?.attempts.first()?.status_code
        }
    })
    .await;
    assert_eq!(answered, 202);
}

#[tokio::test(flavor = "multi_thread")]
async fn forged_deliveries_are_not_forwarded_and_an_unreachable_target_answers_502() {
    let key_text = "sk_test_forward_key";
    let key = ApiKey::new(key_text).unwrap();
    let (target, received) = forward_target(200).await;
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed_url = format!("http://{}/webhooks", closed.local_addr().unwrap());
    drop(closed);
    let forwarding = Listener::start(
        &["--no-endpoint", "--forward-to", &target],
        &[("PAYMENTS_KEY", key_text)],
    );
    let stranded = Listener::start(
        &["--no-endpoint", "--forward-to", &closed_url],
        &[("PAYMENTS_KEY", key_text)],
    );
    let body = br#"{"event":"receipt.status_updated","receiptId":"R-9","status":"paid"}"#;
    let headers = testing::x_service_headers(&key, body, SystemTime::now());
    let forged = testing::x_service_headers(&ApiKey::new("sk_test_other").unwrap(), body, SystemTime::now());

    let refused = post(&forwarding.url, &forged, body.to_vec()).await;
    let accepted = post(&forwarding.url, &headers, body.to_vec()).await;
    let forwarded = tokio::task::block_in_place(|| received.recv_timeout(WAIT)).unwrap();
    let unreachable = post(&stranded.url, &headers, body.to_vec()).await;

    assert_eq!(refused.0, 401, "{refused:?}");
    assert_eq!(accepted, (200, "forwarded: 200\n".to_owned()));
    assert_eq!(forwarded.body, body.to_vec());
    assert!(
        tokio::task::block_in_place(|| received.recv_timeout(Duration::from_millis(200))).is_err(),
        "only the verified delivery reached the target"
    );
    assert_eq!(unreachable.0, 502, "{unreachable:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_forward_url_without_a_scheme_or_a_malformed_key_is_a_usage_error_that_never_shows_the_key() {
    let (bad_url, bad_url_stderr) = tokio::task::block_in_place(|| {
        run_to_exit(&["--key", "k", "--forward-to", "127.0.0.1:3000/hook"], &[])
    });
    let (bad_key, bad_key_stderr) =
        tokio::task::block_in_place(|| run_to_exit(&[], &[("PAYMENTS_KEY", " sk_live_hidden_value")]));

    assert_eq!(bad_url, Some(2), "{bad_url_stderr}");
    assert!(bad_url_stderr.contains("invalid_url"), "{bad_url_stderr}");
    assert_eq!(bad_key, Some(2), "{bad_key_stderr}");
    assert!(bad_key_stderr.contains("invalid_key"), "{bad_key_stderr}");
    assert!(!bad_key_stderr.contains("hidden_value"), "{bad_key_stderr}");
}
