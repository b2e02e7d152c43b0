//! Tracing setup for the binary: text or JSON lines on stderr (stdout is kept for command output).

use std::io::IsTerminal as _;

use tracing_subscriber::EnvFilter;

use crate::runtime::log_writer::{BatchedLogGuard, batched_log};

/// Log line format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line, with the request span's fields (correlation id, method, path).
    Json,
}

/// Keeps the log writer thread running; dropping it flushes every line still queued.
#[derive(Debug)]
#[must_use = "logs queued when the guard drops are flushed; drop it only at exit"]
pub struct LogGuard {
    _writer: BatchedLogGuard,
}

/// Installs the global subscriber; the level comes from `RUST_LOG` (default `info`).
///
/// Lines go to stderr in batches written by one thread ([`crate::runtime::log_writer`]), so a request
/// never waits on the write syscall nor wakes a thread. Lines are not lost, only delayed (at most 50 ms;
/// a logging thread waits when 4 MiB are pending).
///
/// # Errors
/// When a global subscriber is already installed, or the writer thread cannot start.
pub fn init_tracing(format: LogFormat) -> Result<LogGuard, Box<dyn std::error::Error + Send + Sync>> {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let (writer, guard) = batched_log(std::io::stderr())?;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        // Colour codes only for a person at a terminal; redirected logs and log collectors get plain text.
        .with_ansi(std::io::stderr().is_terminal());
    match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
    }?;
    Ok(LogGuard { _writer: guard })
}
