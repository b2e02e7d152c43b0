//! A merchant backend's webhook receiver: receipt events, subscription events, webhook-endpoint envelopes,
//! and event types it does not know yet (acknowledged and named).
//!
//! It verifies each delivery against the raw body, acknowledges duplicates (by `X-Service-Delivery`, or the
//! signed `webhook-id`) without handling them twice, answers 2xx at once and handles the event on a
//! background task. Configuration:
//! `MERCHANT_API_KEY` (or `MERCHANT_WEBHOOK_SECRET=whsec_...`), optional `MERCHANT_API_KEY_PREVIOUS`, and
//! `LISTEN` (default `127.0.0.1:4000`).

use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use webhook_verify::Webhook;

mod config;
mod dedupe;
mod handler;
mod receiver;

use config::Config;
use dedupe::RecentDeliveries;
use receiver::{Receiver, WEBHOOK_PATH};

/// How many delivery ids to remember; retries come within seconds, so this is plenty.
const REMEMBERED_DELIVERIES: usize = 10_000;
/// Events waiting for the worker before the receiver answers 503.
const QUEUE_LENGTH: usize = 1_024;

#[tokio::main]
async fn main() -> ExitCode {
    let config = match Config::from_env() {
        Ok(config) => config,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::FAILURE;
        }
    };
    let listener = match TcpListener::bind(config.listen).await {
        Ok(listener) => listener,
        Err(err) => {
            eprintln!("error: cannot listen on {}: {err}", config.listen);
            return ExitCode::FAILURE;
        }
    };
    let (events, queue) = mpsc::channel(QUEUE_LENGTH);
    let worker = tokio::spawn(handle_events(queue));
    let receiver = Arc::new(Receiver {
        verifier: config.verifier,
        recent: Mutex::new(RecentDeliveries::new(REMEMBERED_DELIVERIES)),
        events,
    });
    // The bound address, not the configured one: `LISTEN=127.0.0.1:0` picks a free port.
    let bound = listener.local_addr().unwrap_or(config.listen);
    println!(
        "listening on http://{bound}{WEBHOOK_PATH} ({})",
        receiver.verifier.scheme()
    );

    serve(listener, receiver).await;
    // Every sender is gone once the connections are: the worker drains the queue and stops.
    if tokio::time::timeout(Duration::from_secs(5), worker)
        .await
        .is_err()
    {
        eprintln!("stopped before every queued event was handled");
    }
    ExitCode::SUCCESS
}

/// Accepts connections until Ctrl-C, then lets open requests finish (for up to five seconds).
async fn serve(listener: TcpListener, receiver: Arc<Receiver>) {
    let graceful = GracefulShutdown::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _peer)) => stream,
                    Err(err) => {
                        eprintln!("accept failed: {err}");
                        continue;
                    }
                };
                let receiver = Arc::clone(&receiver);
                let service = service_fn(move |request| {
                    let receiver = Arc::clone(&receiver);
                    async move { receiver.handle(request).await }
                });
                let connection = graceful.watch(http1::Builder::new().serve_connection(TokioIo::new(stream), service));
                tokio::spawn(async move {
                    if let Err(err) = connection.await {
                        eprintln!("connection error: {err}");
                    }
                });
            }
            _ = tokio::signal::ctrl_c() => break,
        }
    }
    drop(receiver);
    if tokio::time::timeout(Duration::from_secs(5), graceful.shutdown())
        .await
        .is_err()
    {
        eprintln!("some connections were still open at shutdown");
    }
}

/// The slow part of handling an event runs here, after the service already has its 2xx.
async fn handle_events(mut queue: mpsc::Receiver<Webhook>) {
    while let Some(webhook) = queue.recv().await {
        for line in handler::describe(&webhook) {
            println!("{line}");
        }
    }
}
