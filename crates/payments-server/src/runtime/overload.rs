//! Admission of connections under the connection cap, and the answer to the ones over it: a complete
//! `503 overloaded` response written straight to the socket (no request is parsed), then the connection is
//! closed. The answer costs a descriptor for a moment, so only a few are written at once; beyond those, a
//! connection over the cap is closed without an answer.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Overload answers being written at once.
const REFUSALS_AT_ONCE: usize = 64;
/// Time to write the answer.
const REFUSAL_WRITE_TIMEOUT: Duration = Duration::from_secs(1);
/// Time to let the client's request drain before the close: closing a socket with unread input sends a reset,
/// which can make the client lose the answer. Short, so refusals free their slot quickly.
const REFUSAL_DRAIN_TIMEOUT: Duration = Duration::from_millis(100);
/// At most this much of the refused request is read and dropped.
const REFUSAL_DRAIN_BYTES: usize = 16 * 1024;

const OVERLOADED_BODY: &str =
    r#"{"error":"overloaded","message":"the server is at its connection limit; retry shortly"}"#;

/// Hands out one permit per served connection.
#[derive(Debug, Clone)]
pub(crate) struct Admission {
    connections: Arc<Semaphore>,
    refusals: Arc<Semaphore>,
}

/// What to do with an accepted connection.
#[derive(Debug)]
pub(crate) enum Admitted {
    /// Serve it; the permit is released when the connection ends.
    Serve(OwnedSemaphorePermit),
    /// Over the cap: answer 503 and close.
    Refuse(OwnedSemaphorePermit),
    /// Over the cap with too many answers in flight: close at once.
    Drop,
}

impl Admission {
    pub(crate) fn new(max_connections: usize) -> Self {
        Admission {
            connections: Arc::new(Semaphore::new(max_connections)),
            refusals: Arc::new(Semaphore::new(REFUSALS_AT_ONCE)),
        }
    }

    pub(crate) fn admit(&self) -> Admitted {
        if let Ok(permit) = Arc::clone(&self.connections).try_acquire_owned() {
            return Admitted::Serve(permit);
        }
        match Arc::clone(&self.refusals).try_acquire_owned() {
            Ok(permit) => Admitted::Refuse(permit),
            Err(_) => Admitted::Drop,
        }
    }
}

/// Writes the 503 answer, lets the request drain briefly, and closes. Failures only mean the client left.
pub(crate) async fn refuse(mut stream: TcpStream, _permit: OwnedSemaphorePermit) {
    let answer = overloaded_response();
    let written = tokio::time::timeout(REFUSAL_WRITE_TIMEOUT, async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await
    })
    .await;
    if !matches!(written, Ok(Ok(()))) {
        return;
    }
    let mut drained = 0;
    let mut buffer = [0_u8; 4096];
    while drained < REFUSAL_DRAIN_BYTES {
        match tokio::time::timeout(REFUSAL_DRAIN_TIMEOUT, stream.read(&mut buffer)).await {
            Ok(Ok(read)) if read > 0 => drained += read,
            _ => break,
        }
    }
}

fn overloaded_response() -> String {
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         retry-after: 1\r\nconnection: close\r\n\r\n{OVERLOADED_BODY}",
        OVERLOADED_BODY.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_over_the_cap_are_refused_then_dropped_once_refusals_are_busy() {
        let admission = Admission::new(1);

        let served = admission.admit();
        let refusals: Vec<Admitted> = (0..REFUSALS_AT_ONCE).map(|_| admission.admit()).collect();
        let dropped = admission.admit();

        assert!(matches!(served, Admitted::Serve(_)));
        assert!(
            refusals
                .iter()
                .all(|admitted| matches!(admitted, Admitted::Refuse(_)))
        );
        assert!(matches!(dropped, Admitted::Drop));
        drop(served);
        assert!(matches!(admission.admit(), Admitted::Serve(_)));
    }

    #[test]
    fn the_overloaded_answer_speaks_the_shared_error_vocabulary() {
        let body: serde_json::Value = serde_json::from_str(OVERLOADED_BODY).unwrap();

        assert_eq!(body["error"], payments_core::ErrorCode::Overloaded.as_str());
        assert_eq!(payments_core::ErrorCode::Overloaded.http_status(), 503);
    }
}
