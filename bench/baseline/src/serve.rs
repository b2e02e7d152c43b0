//! The accept loop shared by both baselines, configured like payments-server's (`server.rs`): HTTP/1
//! with keep-alive, the same header read timeout, one task per connection. Whatever differs between a
//! baseline and the server is then the handler, not the connection handling.

use std::convert::Infallible;
use std::future::Future;
use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use anyhow::Context as _;
use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;

/// As payments-server: slow or idle clients get this long to send their request headers.
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);
/// As payments-server: pause after a failed accept (e.g. out of file descriptors) so the loop does not spin.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(50);

/// Serves `handler` on 127.0.0.1:`port` until SIGINT or SIGTERM. Open connections are dropped then: a
/// baseline has nothing to finish, and the benchmark has stopped sending by the time it is stopped.
pub(crate) async fn serve<H, F>(port: u16, handler: H) -> anyhow::Result<()>
where
    H: Fn(Request<Incoming>) -> F + Clone + Send + Sync + 'static,
    F: Future<Output = Response<Full<Bytes>>> + Send + 'static,
{
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let listener = TcpListener::bind(address)
        .await
        .with_context(|| format!("binding {address}"))?;
    let bound = listener.local_addr().context("reading the bound address")?;
    eprintln!("bench-baseline listening on http://{bound}");
    let stop = stop_signal();
    tokio::pin!(stop);
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => {
                    let handler = handler.clone();
                    let service = service_fn(move |request| {
                        let response = handler(request);
                        async move { Ok::<_, Infallible>(response.await) }
                    });
                    let mut builder = http1::Builder::new();
                    builder.timer(TokioTimer::new()).header_read_timeout(HEADER_READ_TIMEOUT);
                    let connection = builder.serve_connection(TokioIo::new(stream), service);
                    tokio::spawn(async move {
                        // A client closing mid-request is routine under load; nothing to report.
                        let _ = connection.await;
                    });
                }
                Err(error) => {
                    eprintln!("bench-baseline: accepting a connection failed: {error}");
                    tokio::time::sleep(ACCEPT_ERROR_PAUSE).await;
                }
            },
            result = &mut stop => return result,
        }
    }
}

/// Completes on SIGINT or SIGTERM (what `bench/compare.sh` sends on exit).
async fn stop_signal() -> anyhow::Result<()> {
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .context("listening for SIGTERM")?;
    tokio::select! {
        result = tokio::signal::ctrl_c() => result.context("listening for SIGINT"),
        _ = terminate.recv() => Ok(()),
    }
}
