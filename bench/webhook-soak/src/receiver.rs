//! Webhook receivers on 127.0.0.1: each records, per delivery, the delay from the status change (the body's
//! `timestamp`, the server's clock in ms) to its arrival, then answers 200 (after `delay` for a slow one).

use std::convert::Infallible;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

/// One receiver: its URL and the latencies (ms) of what it received.
#[derive(Debug, Clone)]
pub(crate) struct Receiver {
    pub(crate) url: String,
    latencies: Arc<Mutex<Vec<i64>>>,
}

impl Receiver {
    pub(crate) async fn start(delay: Duration) -> anyhow::Result<Receiver> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/hook", listener.local_addr()?);
        let latencies = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&latencies);
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let recorded = Arc::clone(&recorded);
                tokio::spawn(async move {
                    let service = service_fn(move |request: Request<hyper::body::Incoming>| {
                        let recorded = Arc::clone(&recorded);
                        async move {
                            let body = request.into_body().collect().await.map(|b| b.to_bytes());
                            let arrived = now_ms();
                            if let Ok(body) = body
                                && let Ok(json) = serde_json::from_slice::<serde_json::Value>(&body)
                                && let Some(changed) = json["timestamp"].as_i64()
                            {
                                recorded
                                    .lock()
                                    .unwrap_or_else(PoisonError::into_inner)
                                    .push(arrived - changed);
                            }
                            tokio::time::sleep(delay).await;
                            Ok::<_, Infallible>(Response::new(Full::new(Bytes::from_static(b"ok"))))
                        }
                    });
                    http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await
                        .ok();
                });
            }
        });
        Ok(Receiver { url, latencies })
    }

    pub(crate) fn latencies(&self) -> Vec<i64> {
        self.latencies
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |elapsed| {
        i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX)
    })
}
