//! `payments webhooks listen`: a local receiver that verifies and prints each webhook, like `stripe listen`.
//!
//! With a key it registers a temporary webhook endpoint for all the merchant's events (`*`, or `--events`)
//! pointing at its own loopback URL, verifies the deliveries with that endpoint's `whsec_` secret, and
//! deletes the endpoint when it stops (Ctrl-C, SIGTERM); a development-mode server accepts the loopback
//! URL, another one refuses it and the listener says so. With `--no-endpoint` (or `--secret`) it registers
//! nothing: point a receipt's `webhook_url` or a plan's `webhookUrl` (or an endpoint of your own) at
//! `http://127.0.0.1:PORT/any/path`. Either way it checks every delivery exactly as a merchant backend must:
//! receipt and subscription events, endpoint envelopes, and event types this version does not know
//! (printed by type). It binds loopback only: it is a tool for development, not a production receiver.

mod forward;
mod receiver;
mod stop_signals;
mod summary;
mod temporary_endpoint;
mod verification;

use std::io::{self, Write as _};
use std::net::{Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use clap::Args;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use webhook_verify::Verifier;

use crate::connection::block_on;
use crate::report::exit_code;
use crate::webhook_keys::SecretText;
use forward::Forwarder;
use receiver::{Line, Receiver};
use stop_signals::StopSignals;
use temporary_endpoint::TemporaryEndpoint;
use verification::{Verification, endpoint_verifier, signing_secrets};

const AFTER_HELP: &str = "\
With --key (or PAYMENTS_KEY) it registers a temporary webhook endpoint at --url for all your events (or
--events), described `payments webhooks listen (temporary) <host> <pid>`, and deletes it on exit; endpoints
left by a crashed listener of this host are deleted at the next start. Only a development-mode server
delivers to the listener's http://127.0.0.1 address. --no-endpoint registers nothing: point a receipt's
webhook_url or a plan's webhookUrl at the listener instead.

Prints `listening on http://127.0.0.1:PORT` first, then one line per verified delivery (or, with --json, its
body): receipt events, subscription events, webhook-endpoint envelopes (`--secret whsec_...` of an endpoint
of yours), and event types this version does not know, by type. On stderr it names the `whsec_` secret the
service signs Standard Webhooks with for --key (like `stripe listen`). With --forward-to URL each verified
delivery is sent on to URL with its original body and headers, and URL's status is the answer to the
service. Every path accepts POSTs. Invalid requests are answered 4xx and reported on stderr as `rejected:
<reason>`. Ctrl-C or SIGTERM stops it (exit 0). Exits 2 on a usage error or when the port cannot be bound.

The service signs at its own clock: against a test server with a fixed clock, pass --tolerance-secs 0.";

/// Exit status of a usage error, as clap's own: no key, or a port that cannot be bound.
const EXIT_USAGE: u8 = 2;
/// Lines waiting for the terminal. When it stops reading, requests are answered 503 (the service retries)
/// instead of blocking or buffering without bound.
const PENDING_LINES: usize = 1024;
/// A client that stalls while sending headers or the body does not hold a connection for long.
const READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long requests in flight may take to finish once a stop is asked for.
const GRACE: Duration = Duration::from_secs(5);

/// Receive webhooks on 127.0.0.1, verify each one and print it.
#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub(crate) struct ListenArgs {
    /// Port on 127.0.0.1; 0 picks a free one (the first output line names it).
    #[arg(
        long,
        value_name = "PORT",
        env = "PAYMENTS_LISTEN_PORT",
        default_value_t = 4000
    )]
    port: u16,

    /// API key: registers the temporary endpoint, and verifies what a receipt or plan it created sends here;
    /// repeat it to accept the old and the new key during a rotation.
    #[arg(
        long = "key",
        value_name = "KEY",
        env = "PAYMENTS_KEY",
        hide_env_values = true
    )]
    keys: Vec<SecretText>,

    /// Standard Webhooks secret `whsec_<base64>` (a webhook endpoint's own secret, or the whsec_ form of an
    /// API key), repeatable for a rotation; when given, --key (and PAYMENTS_KEY) is ignored.
    #[arg(
        long = "secret",
        value_name = "WHSEC",
        env = "PAYMENTS_WEBHOOK_SECRET",
        hide_env_values = true
    )]
    secrets: Vec<SecretText>,

    /// Send each verified delivery on to this URL (e.g. http://127.0.0.1:3000/webhooks), with its original
    /// body and headers; the URL's answer status becomes the listener's answer to the service.
    #[arg(long, value_name = "URL", env = "PAYMENTS_FORWARD_TO")]
    forward_to: Option<String>,

    /// Freshness window of the delivery timestamp in seconds, both directions; 0 disables the check.
    #[arg(
        long,
        value_name = "SECS",
        env = "PAYMENTS_WEBHOOK_TOLERANCE_SECS",
        default_value_t = 300
    )]
    tolerance_secs: u64,

    /// Print each verified event body as one JSON line instead of a summary line.
    #[arg(long)]
    json: bool,

    /// Base URL of the service the temporary endpoint is registered with.
    #[arg(long, env = "PAYMENTS_URL", default_value = "http://127.0.0.1:8080")]
    url: String,

    /// Event types or patterns of the temporary endpoint, comma-separated: `*`, `receipt.*`, ...
    #[arg(long, value_delimiter = ',', default_value = "*")]
    events: Vec<String>,

    /// Register no endpoint: only verify what is pointed at the listener (a receipt's webhook_url, a
    /// plan's webhookUrl, an endpoint of yours with --secret).
    #[arg(long)]
    no_endpoint: bool,
}

/// Listens until a stop signal; the exit code says stopped (0), failed (1) or usage error (2).
pub(crate) fn run(args: ListenArgs) -> ExitCode {
    let (verification, forward) = match Verification::of(&args).and_then(|verification| {
        let forward = args.forward_to.as_deref().map(Forwarder::new).transpose()?;
        Ok((verification, forward))
    }) {
        Ok(ready) => ready,
        Err(error) => return exit_code(Err(error)),
    };
    if !args.secrets.is_empty() && !args.keys.is_empty() {
        // Said out loud: a key exported in the environment must not look like it is being checked.
        eprintln!(
            "note: verifying the Standard Webhooks headers with --secret; --key / PAYMENTS_KEY is not used"
        );
    }
    let (lines, queue) = mpsc::sync_channel(PENDING_LINES);
    let (stdout_failed, stdout_gone) = oneshot::channel();
    let printer = std::thread::spawn(move || print_lines(&queue, stdout_failed));
    let output = Output {
        json: args.json,
        lines,
        forward,
        secrets: signing_secrets(&args),
    };
    let code = block_on(listen(args.port, verification, output, stdout_gone)).unwrap_or_else(|err| {
        eprintln!("error: {err:#}");
        ExitCode::FAILURE
    });
    // The runtime is gone, and every sender with it: the printer drains what is queued and ends.
    wait_for(&printer, GRACE);
    code
}

/// Where verified deliveries go, and what the start-up notice shows.
#[derive(Debug)]
struct Output {
    json: bool,
    lines: mpsc::SyncSender<Line>,
    forward: Option<Forwarder>,
    /// The keys' `whsec_` forms, shown once like `stripe listen` shows its secret.
    secrets: Vec<String>,
}

/// Binds, registers the temporary endpoint (unless told not to), announces the address, serves until a
/// signal or until stdout is closed, then deletes the endpoint.
async fn listen(
    port: u16,
    verification: Verification,
    output: Output,
    stdout_gone: oneshot::Receiver<io::Error>,
) -> ExitCode {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let listener = match TcpListener::bind(address).await {
        Ok(listener) => listener,
        Err(err) => {
            eprintln!("error: cannot listen on {address}: {err}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    // Installed before the address is printed, so a signal sent as soon as it is read is not lost.
    let mut stop = match StopSignals::install() {
        Ok(stop) => stop,
        Err(err) => {
            eprintln!("error: cannot install the signal handlers: {err}");
            return ExitCode::FAILURE;
        }
    };
    let bound = listener.local_addr().unwrap_or(address);
    let (verifier, endpoint) = match verifier_for(verification, bound).await {
        Ok(ready) => ready,
        Err(error) => return exit_code(Err(error)),
    };
    let code = announce_and_serve(listener, bound, verifier, output, &mut stop, stdout_gone).await;
    match endpoint {
        Some(endpoint) => remove(endpoint, code).await,
        None => code,
    }
}

/// The verifier, registering the temporary endpoint first when there is one.
async fn verifier_for(
    verification: Verification,
    bound: SocketAddr,
) -> anyhow::Result<(Verifier, Option<TemporaryEndpoint>)> {
    match verification {
        Verification::Ready(verifier) => Ok((verifier, None)),
        Verification::Endpoint {
            plan,
            key_secrets,
            tolerance,
        } => {
            let events = plan.events.join(",");
            let endpoint = plan.register(&format!("http://{bound}/")).await?;
            let verifier = match endpoint_verifier(&endpoint.secret, key_secrets, tolerance) {
                Ok(verifier) => verifier,
                Err(error) => {
                    endpoint.delete().await.ok();
                    return Err(error);
                }
            };
            eprintln!(
                "registered temporary webhook endpoint {} for events {events}; it is deleted on exit",
                endpoint.id
            );
            Ok((verifier, Some(endpoint)))
        }
    }
}

/// Deletes the temporary endpoint after the listener stopped; a failure is said (with the id to delete by
/// hand) and turns a clean stop into a failure.
async fn remove(endpoint: TemporaryEndpoint, code: ExitCode) -> ExitCode {
    let id = endpoint.id.clone();
    match endpoint.delete().await {
        Ok(()) => {
            eprintln!("deleted temporary webhook endpoint {id}");
            code
        }
        Err(error) => {
            eprintln!(
                "error: cannot delete temporary webhook endpoint {id}: {error} (delete it with \
                 `payments webhooks endpoints delete {id}`)"
            );
            ExitCode::FAILURE
        }
    }
}

/// Announces the address and serves until a stop; the exit code of the serving part.
async fn announce_and_serve(
    listener: TcpListener,
    bound: SocketAddr,
    verifier: Verifier,
    output: Output,
    stop: &mut StopSignals,
    stdout_gone: oneshot::Receiver<io::Error>,
) -> ExitCode {
    if let Err(err) = announce(bound) {
        eprintln!("error: cannot write to stdout: {err}");
        return ExitCode::FAILURE;
    }
    let scheme = verifier.scheme();
    eprintln!("verifying {scheme} signatures on every path; Ctrl-C stops");
    for secret in &output.secrets {
        eprintln!(
            "webhook signing secret: {secret} (Standard Webhooks form of the key: as private as the key)"
        );
    }
    if let Some(forwarder) = &output.forward {
        eprintln!("forwarding verified deliveries to {}", forwarder.url());
    }
    let receiver = Receiver {
        verifier,
        json: output.json,
        lines: output.lines,
        forward: output.forward,
    };
    match serve(listener, Arc::new(receiver), stop, stdout_gone).await {
        None => ExitCode::SUCCESS,
        Some(err) => {
            eprintln!("error: cannot write to stdout: {err}");
            ExitCode::FAILURE
        }
    }
}

/// The first stdout line, flushed at once: scripts and tests read the port from it.
fn announce(bound: SocketAddr) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "listening on http://{bound}")?;
    stdout.flush()
}

/// Accepts connections until a stop signal (`None`) or a failed stdout (`Some`), then lets the requests in
/// flight finish for up to [`GRACE`].
async fn serve(
    listener: TcpListener,
    receiver: Arc<Receiver>,
    stop: &mut StopSignals,
    mut stdout_gone: oneshot::Receiver<io::Error>,
) -> Option<io::Error> {
    let graceful = GracefulShutdown::new();
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(READ_TIMEOUT);
    let failure = loop {
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _peer)) => stream,
                    Err(err) => {
                        // E.g. out of file descriptors: pause rather than spin.
                        eprintln!("accept failed: {err}");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                };
                let receiver = Arc::clone(&receiver);
                let service = service_fn(move |request| {
                    let receiver = Arc::clone(&receiver);
                    async move { receiver.handle(request).await }
                });
                let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
                tokio::spawn(async move {
                    // A client that hangs up early is its own business; the listener keeps going.
                    connection.await.ok();
                });
            }
            () = stop.recv() => break None,
            Ok(err) = &mut stdout_gone => break Some(err),
        }
    };
    drop(listener);
    if tokio::time::timeout(GRACE, graceful.shutdown()).await.is_err() {
        eprintln!("some connections were still open at shutdown");
    }
    failure
}

/// Writes the lines on a thread of its own, so a slow terminal or pipe never delays an answer to the
/// service. A failed stdout is reported once through `stdout_failed`; stderr failures are ignored.
fn print_lines(queue: &mpsc::Receiver<Line>, stdout_failed: oneshot::Sender<io::Error>) {
    for line in queue {
        match line {
            Line::Out(text) => {
                let mut stdout = io::stdout().lock();
                if let Err(err) = writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
                    stdout_failed.send(err).ok();
                    return;
                }
            }
            Line::Err(text) => {
                writeln!(io::stderr(), "{text}").ok();
            }
        }
    }
}

/// Waits up to `limit` for the printer to drain; a terminal that stopped reading must not hang the exit.
fn wait_for(printer: &JoinHandle<()>, limit: Duration) {
    let deadline = Instant::now() + limit;
    while !printer.is_finished() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
}
