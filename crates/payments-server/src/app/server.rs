//! Serving an [`App`] on an already-bound listener, with graceful shutdown, under the connection cap and the
//! header (keep-alive idle) timeout of [`crate::ServerLimits`].

use std::convert::Infallible;
use std::future::Future;
use std::pin::pin;
use std::time::Duration;

use hyper::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;

use crate::app::App;
use crate::http::metrics_access::ListenerAddr;
use crate::http::rate_limit::PeerAddr;
use crate::runtime::limits::connection_cap;
use crate::runtime::overload::{self, Admission, Admitted};

/// After a shutdown signal, in-flight requests get this long to finish.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);
/// Pause after a failed accept (e.g. out of file descriptors) so the loop does not spin.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(50);

/// Serves `app` on `listener` until `shutdown` completes, then stops accepting, lets in-flight requests finish
/// (up to 30 s) and returns. Tests pass a listener bound to port 0.
pub async fn serve(listener: TcpListener, app: App, shutdown: impl Future<Output = ()>) {
    let graceful = GracefulShutdown::new();
    let dispatcher = app.start_webhook_dispatcher();
    let metrics_upkeep = app.start_metrics_upkeep();
    let chain_workers = app.start_chain_workers();
    let subscription_scheduler = app.start_subscription_scheduler();
    let limits = app.config().limits;
    let open_files = rlimit::getrlimit(rlimit::Resource::NOFILE)
        .ok()
        .map(|(soft, _)| soft);
    let cap = connection_cap(limits.max_connections, open_files);
    if cap < limits.max_connections {
        tracing::warn!(
            configured = limits.max_connections,
            cap,
            open_files,
            "the open-file limit lowers the connection cap"
        );
    }
    let admission = Admission::new(cap);
    let mut shutdown = pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let permit = match admission.admit() {
                        Admitted::Serve(permit) => permit,
                        Admitted::Refuse(permit) => {
                            tracing::warn!(%peer, cap, "connection limit reached; answering 503");
                            tokio::spawn(overload::refuse(stream, permit));
                            continue;
                        }
                        Admitted::Drop => {
                            tracing::warn!(%peer, cap, "connection limit reached; closing unanswered");
                            continue;
                        }
                    };
                    let app = app.clone();
                    let listener_ip = stream.local_addr().ok().map(|local| local.ip());
                    let service = service_fn(move |mut request: Request<Incoming>| {
                        request.extensions_mut().insert(PeerAddr(peer.ip()));
                        if let Some(ip) = listener_ip {
                            request.extensions_mut().insert(ListenerAddr(ip));
                        }
                        let app = app.clone();
                        async move { Ok::<_, Infallible>(app.handle(request).await) }
                    });
                    let mut builder = http1::Builder::new();
                    // hyper runs the header timer whenever it waits for a request, idle keep-alive included.
                    builder.timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
                    let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
                    tokio::spawn(async move {
                        if let Err(error) = connection.await {
                            tracing::debug!(%peer, error = %error, "connection closed with an error");
                        }
                        drop(permit);
                    });
                }
                Err(error) => {
                    tracing::warn!(error = %error, "accepting a connection failed");
                    tokio::time::sleep(ACCEPT_ERROR_PAUSE).await;
                }
            },
            () = &mut shutdown => break,
        }
    }
    drop(listener);
    dispatcher.stop().await;
    metrics_upkeep.abort();
    if let Some(workers) = chain_workers {
        workers.stop().await;
    }
    subscription_scheduler.stop().await;
    tracing::info!(
        connections = graceful.count(),
        "shutting down; finishing in-flight requests"
    );
    tokio::select! {
        () = graceful.shutdown() => tracing::info!("all connections closed"),
        () = tokio::time::sleep(SHUTDOWN_GRACE) => tracing::warn!("grace period over; dropping open connections"),
    }
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM.
pub async fn shutdown_signal() {
    let interrupt = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %error, "cannot listen for SIGINT");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::error!(error = %error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => tracing::info!("SIGINT received"),
        () = terminate => tracing::info!("SIGTERM received"),
    }
}
