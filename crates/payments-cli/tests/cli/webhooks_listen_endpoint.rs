//! `payments webhooks listen` with a key, like `stripe listen`: it registers a temporary endpoint for every
//! event of the merchant, prints what that endpoint receives (verified with its own secret), deletes it on
//! SIGTERM, cleans up after a crashed listener of the same host, and explains a production server's refusal
//! of its loopback URL.

use std::process::Command;

use payments_client::{CreatePlan, CreateReceipt, EndpointFields, PostStatus, ReceiptLine};
use payments_core::{BillingPeriod, Cents, ReceiptStatus};
use payments_server::testing::{TestOptions, spawn_app_with};

use crate::helpers::client;
use crate::webhooks_listen::{Listener, run_to_exit};
use crate::webhooks_listen_events::{spawn_app_at_real_time, subscribe};

/// This machine's name as the listener reads it (Linux).
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .unwrap()
        .trim()
        .to_owned()
}

/// The next stdout line of `listener` containing `needle`, skipping a few others (endpoint deliveries are
/// not ordered).
fn next_line_with(listener: &Listener, needle: &str) -> String {
    let mut skipped = Vec::new();
    for _ in 0..5 {
        let line = listener.next_stdout();
        if line.contains(needle) {
            return line;
        }
        skipped.push(line);
    }
    panic!("no line with {needle:?} among {skipped:?}");
}

/// The id of a process that has exited.
fn pid_of_an_exited_process() -> u32 {
    let mut child = Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread")]
async fn listen_registers_a_temporary_endpoint_prints_its_verified_events_and_deletes_it_on_sigterm() {
    let app = spawn_app_at_real_time().await;
    let client = client(&app);
    let mut listener = Listener::start(&["--key", &app.key, "--url", &app.base_url], &[]);
    let registered = listener.next_stderr_starting("registered temporary webhook endpoint");
    let endpoints = client.webhook_endpoints().await.unwrap();
    let line = ReceiptLine {
        label: "Coffee".to_owned(),
        price_usd: Cents::new(350),
        qty: None,
    };
    let plan = CreatePlan {
        name: "Monthly box".to_owned(),
        description: String::new(),
        price_usd: Cents::new(250),
        period: BillingPeriod::Monthly,
        trial_days: None,
        webhook_url: None,
        idempotency_key: None,
    };

    // No webhook_url on the receipt or the plan: the events reach the listener through its endpoint.
    client
        .create_receipt(&CreateReceipt::new("listen-endpoint-1", vec![line]))
        .await
        .unwrap();
    client
        .post_receipt_status(&PostStatus::new(
            "listen-endpoint-1",
            app.wallet,
            ReceiptStatus::LinkOpened,
        ))
        .await
        .unwrap();
    let receipt_line = next_line_with(&listener, "receiptId=listen-endpoint-1");
    let plan = client.create_plan(&plan).await.unwrap();
    let subscription = subscribe(&app, &plan.plan_id).await;
    let subscription_line = next_line_with(&listener, "subscription.created");
    let killed = Command::new("kill")
        .args(["-TERM", &listener.child.id().to_string()])
        .status()
        .unwrap();
    let code = tokio::task::block_in_place(|| listener.wait_for_exit());
    let after = client.webhook_endpoints().await.unwrap();

    assert_eq!(endpoints.len(), 1, "{endpoints:?}");
    let endpoint = &endpoints[0];
    assert!(registered.contains(&endpoint.id), "{registered}");
    assert_eq!(endpoint.url, format!("{}/", listener.url));
    assert_eq!(endpoint.events, ["*"]);
    assert_eq!(
        endpoint.description.as_deref(),
        Some(
            format!(
                "payments webhooks listen (temporary) {} {}",
                host_name(),
                listener.child.id()
            )
            .as_str()
        )
    );
    assert!(
        receipt_line.contains("  receipt.status_updated  receiptId=listen-endpoint-1 status=link_opened"),
        "{receipt_line}"
    );
    assert!(
        receipt_line.starts_with("evt_") || receipt_line.starts_with("msg_"),
        "an endpoint delivery names its event id: {receipt_line}"
    );
    assert!(
        subscription_line.contains(&format!(
            "  subscription.created  subscriptionId={subscription} status=active planId={}",
            plan.plan_id
        )),
        "{subscription_line}"
    );
    assert!(killed.success());
    assert_eq!(code, Some(0));
    assert!(after.is_empty(), "the temporary endpoint is gone: {after:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_new_listener_deletes_the_endpoints_crashed_listeners_of_its_host_left_and_nothing_else() {
    let app = spawn_app_at_real_time().await;
    let client = client(&app);
    let crashed = format!(
        "payments webhooks listen (temporary) {} {}",
        host_name(),
        pid_of_an_exited_process()
    );
    let elsewhere = "payments webhooks listen (temporary) another-host 1".to_owned();
    for (url, description) in [
        ("http://127.0.0.1:9/crashed", crashed),
        ("http://127.0.0.1:9/elsewhere", elsewhere),
        ("https://example.com/hooks", "production receiver".to_owned()),
    ] {
        let mut fields = EndpointFields::new(url, vec!["*".to_owned()]);
        fields.description = Some(description);
        client.create_webhook_endpoint(&fields).await.unwrap();
    }

    let listener = Listener::start(&["--key", &app.key, "--url", &app.base_url], &[]);
    listener.next_stderr_starting("registered temporary webhook endpoint");
    let mut urls: Vec<String> = client
        .webhook_endpoints()
        .await
        .unwrap()
        .into_iter()
        .map(|endpoint| endpoint.url)
        .collect();
    urls.sort();

    let mut expected = vec![
        "http://127.0.0.1:9/elsewhere".to_owned(),
        format!("{}/", listener.url),
        "https://example.com/hooks".to_owned(),
    ];
    expected.sort();
    assert_eq!(urls, expected);
}

#[tokio::test(flavor = "multi_thread")]
async fn against_a_production_server_listen_explains_that_only_development_mode_delivers_to_loopback() {
    let app = spawn_app_with(TestOptions {
        production_mode: true,
        ..TestOptions::default()
    })
    .await;

    let (code, stderr) =
        tokio::task::block_in_place(|| run_to_exit(&["--key", &app.key, "--url", &app.base_url], &[]));
    let endpoints = client(&app).webhook_endpoints().await.unwrap();

    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("endpoint_refused"), "{stderr}");
    assert!(stderr.contains("development-mode server"), "{stderr}");
    assert!(stderr.contains("--no-endpoint"), "{stderr}");
    assert!(endpoints.is_empty(), "{endpoints:?}");
}
