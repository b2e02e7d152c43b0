//! `webhook-soak`: drives status changes at a fixed rate against a running payments-server (loopback, in
//! development mode so webhooks may go to 127.0.0.1), with several healthy receivers and one slow one, and
//! prints the latency from status change to delivery for the healthy ones. Bounded: `--seconds` of load,
//! then at most `--drain-seconds` waiting for healthy deliveries.

mod receiver;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use clap::Parser;
use futures_util::{StreamExt as _, stream};
use serde_json::json;
use tokio::sync::Semaphore;

use receiver::Receiver;

/// The statuses each receipt moves through (three webhooks each).
const MOVES: [&str; 3] = ["link_opened", "buyer_logged_in", "checkout_initialized"];

#[derive(Debug, Parser)]
struct Args {
    /// Server base URL (loopback).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    server: String,
    /// A subscription key with receipts:write.
    #[arg(long)]
    key: String,
    /// The key's merchant wallet.
    #[arg(long)]
    wallet: String,
    /// Status changes per second.
    #[arg(long, default_value_t = 1000)]
    rate: u64,
    /// Seconds of load.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// Healthy receivers (each its own endpoint).
    #[arg(long, default_value_t = 4)]
    healthy: usize,
    /// One receipt in this many sends its webhooks to the slow receiver.
    #[arg(long, default_value_t = 20)]
    slow_every: usize,
    /// How long the slow receiver takes to answer, in ms.
    #[arg(long, default_value_t = 3000)]
    slow_ms: u64,
    /// Longest wait for healthy deliveries after the load.
    #[arg(long, default_value_t = 10)]
    drain_seconds: u64,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    anyhow::ensure!(
        args.rate > 0 && args.seconds > 0 && args.seconds <= 600,
        "rate > 0, 1..=600 seconds"
    );
    let healthy: Vec<Receiver> = stream::iter(0..args.healthy.max(1))
        .then(|_| Receiver::start(Duration::ZERO))
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .collect::<Result<_, _>>()?;
    let slow = Receiver::start(Duration::from_millis(args.slow_ms)).await?;
    let client = reqwest::Client::builder().pool_max_idle_per_host(256).build()?;
    let changes = args.rate * args.seconds;
    let receipts = usize::try_from(changes.div_ceil(MOVES.len() as u64))?;
    let hooks: Vec<String> = (0..receipts)
        .map(|n| match n % args.slow_every.max(1) {
            0 => slow.url.clone(),
            _ => healthy[n % healthy.len()].url.clone(),
        })
        .collect();
    let run = format!("soak{}", std::process::id());
    create_receipts(&client, &args, &run, &hooks).await?;
    let posted = drive(&client, &args, &run, receipts, changes).await;
    let expected_healthy = (changes as usize).saturating_sub(changes as usize / args.slow_every.max(1));
    let drain_until = Instant::now() + Duration::from_secs(args.drain_seconds);
    let mut latencies: Vec<i64>;
    loop {
        latencies = healthy.iter().flat_map(Receiver::latencies).collect();
        if latencies.len() >= expected_healthy.saturating_sub(posted.failed as usize)
            || Instant::now() > drain_until
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    latencies.sort_unstable();
    let percentile = |p: f64| -> i64 {
        let index = ((latencies.len() as f64 - 1.0) * p).round() as usize;
        latencies.get(index).copied().unwrap_or(-1)
    };
    println!(
        "{{\"changesPosted\": {}, \"postFailures\": {}, \"achievedRatePerSec\": {:.0}, \"healthyDeliveries\": {}, \
         \"healthyExpected\": {}, \"p50Ms\": {}, \"p99Ms\": {}, \"maxMs\": {}, \"slowDeliveriesReceived\": {}, \
         \"slowReceiverAnswerMs\": {}}}",
        posted.ok,
        posted.failed,
        posted.rate,
        latencies.len(),
        expected_healthy,
        percentile(0.5),
        percentile(0.99),
        latencies.last().copied().unwrap_or(-1),
        slow.latencies().len(),
        args.slow_ms
    );
    Ok(())
}

async fn create_receipts(
    client: &reqwest::Client,
    args: &Args,
    run: &str,
    hooks: &[String],
) -> anyhow::Result<()> {
    let results: Vec<anyhow::Result<()>> = stream::iter(hooks.iter().enumerate())
        .map(|(n, hook)| async move {
            let body = json!({
                "id": format!("{run}-{n}"), "lineItems": [{"label": "Soak", "priceUsd": 1.0}],
                "totalUsd": 1.0, "webhook_url": hook,
            });
            let response = client
                .post(format!("{}/api/receipts", args.server))
                .header("X-Gateway-Subscription-Key", &args.key)
                .json(&body)
                .send()
                .await?;
            anyhow::ensure!(
                response.status().as_u16() == 201,
                "create answered {}",
                response.status()
            );
            Ok(())
        })
        .buffer_unordered(32)
        .collect()
        .await;
    results
        .into_iter()
        .collect::<anyhow::Result<()>>()
        .context("creating receipts")
}

struct Posted {
    ok: u64,
    failed: u64,
    rate: f64,
}

/// Posts change `k` = status `k / receipts` of receipt `k % receipts`, `rate` per second in 10 ms ticks, at
/// most 512 in flight (a tick that finds them all busy waits: the achieved rate is reported).
async fn drive(client: &reqwest::Client, args: &Args, run: &str, receipts: usize, changes: u64) -> Posted {
    let ok = Arc::new(AtomicU64::new(0));
    let failed = Arc::new(AtomicU64::new(0));
    let in_flight = Arc::new(Semaphore::new(512));
    let per_tick = (args.rate / 100).max(1);
    let mut tick = tokio::time::interval(Duration::from_millis(10));
    let started = Instant::now();
    let mut tasks = Vec::new();
    let mut next = 0u64;
    while next < changes {
        tick.tick().await;
        for _ in 0..per_tick.min(changes - next) {
            let Ok(permit) = Arc::clone(&in_flight).acquire_owned().await else {
                break;
            };
            let receipt = next as usize % receipts;
            let status = MOVES[(next as usize / receipts).min(MOVES.len() - 1)];
            let body =
                json!({"receiptId": format!("{run}-{receipt}"), "wallet": args.wallet, "status": status});
            let request = client
                .post(format!("{}/api/receipts/status", args.server))
                .header("X-Gateway-Subscription-Key", &args.key)
                .json(&body);
            let (ok, failed) = (Arc::clone(&ok), Arc::clone(&failed));
            tasks.push(tokio::spawn(async move {
                match request.send().await {
                    Ok(response) if response.status().is_success() => ok.fetch_add(1, Ordering::Relaxed),
                    _ => failed.fetch_add(1, Ordering::Relaxed),
                };
                drop(permit);
            }));
            next += 1;
        }
    }
    for task in tasks {
        task.await.ok();
    }
    let elapsed = started.elapsed().as_secs_f64();
    Posted {
        ok: ok.load(Ordering::Relaxed),
        failed: failed.load(Ordering::Relaxed),
        rate: next as f64 / elapsed.max(f64::EPSILON),
    }
}
