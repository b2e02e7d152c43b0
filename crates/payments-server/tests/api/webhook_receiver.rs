//! A webhook receiver for tests: a small hyper server on 127.0.0.1:0 that records every request and answers
//! with the next status of a script (then 200).

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use payments_server::testing::eventually;
use tokio::net::TcpListener;

/// One request the receiver got.
#[derive(Debug, Clone)]
pub(crate) struct Received {
    pub(crate) headers: hyper::HeaderMap,
    pub(crate) body: Bytes,
}

impl Received {
    pub(crate) fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("")
    }

    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

#[derive(Debug, Default)]
struct Shared {
    received: Vec<Received>,
    script: VecDeque<u16>,
    /// How long each answer takes (a request is recorded when it arrives).
    delay: Duration,
}

pub(crate) struct Receiver {
    pub(crate) url: String,
    shared: Arc<Mutex<Shared>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Receiver {
    /// Answers `script` in order, then 200 to everything.
    pub(crate) async fn start(script: &[u16]) -> Receiver {
        Receiver::start_with(script, Duration::ZERO).await
    }

    /// Answers 200 to everything, each answer `delay` after the request arrived.
    pub(crate) async fn slow(delay: Duration) -> Receiver {
        Receiver::start_with(&[], delay).await
    }

    async fn start_with(script: &[u16], delay: Duration) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hooks", listener.local_addr().unwrap());
        let shared = Arc::new(Mutex::new(Shared {
            received: Vec::new(),
            script: script.iter().copied().collect(),
            delay,
        }));
        let state = Arc::clone(&shared);
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let state = Arc::clone(&state);
                tokio::spawn(async move {
                    let service = service_fn(move |request: Request<hyper::body::Incoming>| {
                        let state = Arc::clone(&state);
                        async move {
                            let (parts, body) = request.into_parts();
                            let body = body.collect().await.map(|b| b.to_bytes()).unwrap_or_default();
                            let (status, delay) = {
                                let mut shared = state.lock().unwrap();
                                shared.received.push(Received {
                                    headers: parts.headers,
                                    body,
                                });
                                (shared.script.pop_front().unwrap_or(200), shared.delay)
                            };
                            tokio::time::sleep(delay).await;
                            let mut response = Response::new(Full::new(Bytes::from_static(b"ok")));
                            *response.status_mut() = StatusCode::from_u16(status).unwrap();
                            Ok::<_, Infallible>(response)
                        }
                    });
                    http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await
                        .ok();
                });
            }
        });
        Receiver { url, shared, task }
    }

    pub(crate) fn received(&self) -> Vec<Received> {
        self.shared.lock().unwrap().received.clone()
    }

    /// Waits (bounded) until at least `count` requests arrived; returns them all.
    /// Waits for `count` distinct deliveries (by `webhook-id`), the first request of each in arrival order.
    /// Delivery is at least once: a test that moves the manual clock far (a week) while an attempt is still
    /// recording its success expires that attempt's lease, and the delivery is sent again with the same id,
    /// which receivers are told to drop.
    pub(crate) async fn wait_for_distinct(&self, count: usize) -> Vec<Received> {
        eventually(
            &format!("{count} distinct webhook deliveries"),
            Duration::from_secs(10),
            || async {
                let mut seen = std::collections::HashSet::new();
                let distinct: Vec<Received> = self
                    .received()
                    .into_iter()
                    .filter(|request| seen.insert(request.header("webhook-id").to_owned()))
                    .collect();
                (distinct.len() >= count).then_some(distinct)
            },
        )
        .await
    }

    /// The body of the first request with `status`, once its `X-Service-Signature` verified with `api_key` at
    /// the test clock's start (when the harness's manual clock signed it).
    pub(crate) async fn signed_with_status(&self, api_key: &str, status: &str) -> serde_json::Value {
        let verifier = webhook_verify::Verifier::new(webhook_verify::ApiKey::new(api_key).unwrap());
        let signed_at = std::time::UNIX_EPOCH
            + Duration::from_millis(u64::try_from(payments_server::testing::TEST_START_MS).unwrap());
        let request = eventually(
            &format!("a {status} webhook"),
            Duration::from_secs(30),
            || async {
                self.received()
                    .into_iter()
                    .find(|request| request.json()["status"] == status)
            },
        )
        .await;
        verifier
            .verify_at(&request.headers, &request.body, signed_at)
            .unwrap();
        request.json()
    }

    pub(crate) async fn wait_for(&self, count: usize) -> Vec<Received> {
        eventually(
            &format!("{count} webhook requests"),
            Duration::from_secs(10),
            || async {
                let received = self.received();
                (received.len() >= count).then_some(received)
            },
        )
        .await
    }
}
