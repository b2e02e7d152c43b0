//! Ctrl-C and SIGTERM, the two ways a listener is asked to stop (and delete its temporary endpoint).

use std::io;

/// Ctrl-C and, on Unix, SIGTERM (what `kill` and service managers send).
#[derive(Debug)]
pub(super) struct StopSignals {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl StopSignals {
    #[cfg(unix)]
    pub(super) fn install() -> io::Result<Self> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Self {
            interrupt: signal(SignalKind::interrupt())?,
            terminate: signal(SignalKind::terminate())?,
        })
    }

    #[cfg(not(unix))]
    pub(super) fn install() -> io::Result<Self> {
        Ok(Self {})
    }

    #[cfg(unix)]
    pub(super) async fn recv(&mut self) {
        tokio::select! {
            _ = self.interrupt.recv() => {}
            _ = self.terminate.recv() => {}
        }
    }

    #[cfg(not(unix))]
    pub(super) async fn recv(&mut self) {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}
