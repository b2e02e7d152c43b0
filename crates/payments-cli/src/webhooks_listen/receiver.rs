//! One request to `payments webhooks listen`: read the raw body, verify it, queue a line, answer at once.

use std::convert::Infallible;
use std::sync::mpsc::{SyncSender, TrySendError};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full, LengthLimitError, Limited};
use hyper::header::{ALLOW, CONTENT_TYPE, HeaderValue};
use hyper::{HeaderMap, Method, Request, Response, StatusCode};
use webhook_verify::{Scheme, Verifier, VerifyError, WEBHOOK_ID, X_SERVICE_DELIVERY};

use super::READ_TIMEOUT;
use super::forward::Forwarder;
use super::summary::summary;
use crate::output::one_line;

/// Event bodies are a few hundred bytes; a megabyte is generous and still bounds memory per request.
const MAX_BODY_BYTES: usize = 1024 * 1024;

/// What to print, and where.
#[derive(Debug)]
pub(super) enum Line {
    Out(String),
    Err(String),
}

type Reply = Response<Full<Bytes>>;

/// Shared by every connection.
#[derive(Debug)]
pub(super) struct Receiver {
    pub(super) verifier: Verifier,
    pub(super) json: bool,
    pub(super) lines: SyncSender<Line>,
    /// `--forward-to`: where verified deliveries go next.
    pub(super) forward: Option<Forwarder>,
}

impl Receiver {
    pub(super) async fn handle(&self, request: Request<hyper::body::Incoming>) -> Result<Reply, Infallible> {
        if request.method() != Method::POST {
            let reason = format!("method {} not allowed, use POST", request.method());
            let mut reply = self.reject(StatusCode::METHOD_NOT_ALLOWED, &reason);
            reply
                .headers_mut()
                .insert(ALLOW, HeaderValue::from_static("POST"));
            return Ok(reply);
        }
        let (parts, body) = request.into_parts();
        // The raw bytes, exactly as sent: the signature covers these, not any re-serialised JSON.
        let read = tokio::time::timeout(READ_TIMEOUT, Limited::new(body, MAX_BODY_BYTES).collect()).await;
        let body = match read {
            Ok(Ok(collected)) => collected.to_bytes(),
            Ok(Err(err)) if err.is::<LengthLimitError>() => {
                let reason = format!("body larger than {MAX_BODY_BYTES} bytes");
                return Ok(self.reject(StatusCode::PAYLOAD_TOO_LARGE, &reason));
            }
            Ok(Err(err)) => {
                return Ok(self.reject(StatusCode::BAD_REQUEST, &format!("unreadable body: {err}")));
            }
            Err(_) => return Ok(self.reject(StatusCode::REQUEST_TIMEOUT, "body not received in time")),
        };
        let Some(forwarder) = &self.forward else {
            return Ok(self.accept(&parts.headers, &body));
        };
        let line = match self.verified_line(&parts.headers, &body) {
            Ok(line) => line,
            Err(rejected) => return Ok(*rejected),
        };
        if let Err(busy) = self.queue(line) {
            return Ok(*busy);
        }
        let forwarded = forwarder.forward(&parts.headers, body).await;
        // Beside the event lines in text mode; on stderr with --json, so stdout stays one JSON event per line.
        let line = if self.json {
            Line::Err(forwarded.line)
        } else {
            Line::Out(forwarded.line)
        };
        self.lines.try_send(line).ok();
        Ok(reply(
            forwarded.status,
            &format!("forwarded: {}", forwarded.status.as_u16()),
        ))
    }

    /// Verifies one request and queues its line; the answer does not wait for the line to be printed.
    fn accept(&self, headers: &HeaderMap, body: &[u8]) -> Reply {
        match self.verified_line(headers, body) {
            Ok(line) => self
                .queue(line)
                .map_or_else(|busy| *busy, |()| reply(StatusCode::OK, "ok")),
            Err(rejected) => *rejected,
        }
    }

    /// Queues a verified delivery's line; a full queue (a terminal that stopped reading) answers 503 so
    /// that the service retries later. (Errors are boxed: a response is large and this is the rare path.)
    fn queue(&self, line: String) -> Result<(), Box<Reply>> {
        match self.lines.try_send(Line::Out(line)) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(Box::new(reply(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy, retry later",
            ))),
            Err(TrySendError::Disconnected(_)) => {
                Err(Box::new(reply(StatusCode::SERVICE_UNAVAILABLE, "shutting down")))
            }
        }
    }

    /// The line of a verified delivery, or the rejection to answer. Every event type is accepted once its
    /// signature holds, including types this version does not know (printed by type), so the service never
    /// retries a delivery the developer's backend would have taken.
    fn verified_line(&self, headers: &HeaderMap, body: &[u8]) -> Result<String, Box<Reply>> {
        match self.verifier.verify_and_parse(headers, body) {
            Ok(_) if self.json => Ok(json_line(body)),
            Ok(webhook) => Ok(summary(&delivery_id(self.verifier.scheme(), headers), &webhook)),
            Err(err) => Err(Box::new(
                self.reject(rejection_status(&err), &rejection_reason(&err)),
            )),
        }
    }

    /// Reports a rejected request on stderr and answers it with `status` and the reason.
    fn reject(&self, status: StatusCode, reason: &str) -> Reply {
        let reason = one_line(reason);
        self.lines.try_send(Line::Err(format!("rejected: {reason}"))).ok();
        reply(status, &reason)
    }
}

/// The delivery's id for the human line: the signed `webhook-id` under Standard Webhooks, else
/// `X-Service-Delivery` (stable across retries, so a redelivery shows the same id).
fn delivery_id(scheme: Scheme, headers: &HeaderMap) -> String {
    let names = match scheme {
        Scheme::StandardWebhooks => [WEBHOOK_ID, X_SERVICE_DELIVERY],
        _ => [X_SERVICE_DELIVERY, WEBHOOK_ID],
    };
    names
        .iter()
        .find_map(|name| headers.get(*name)?.to_str().ok())
        .map_or_else(|| "-".to_owned(), str::to_owned)
}

/// The verified body as one line: as received when it already is one, else compacted.
fn json_line(body: &[u8]) -> String {
    match std::str::from_utf8(body) {
        Ok(text) if !text.contains(['\n', '\r']) => text.trim().to_owned(),
        _ => serde_json::from_slice::<serde_json::Value>(body)
            .map(|value| value.to_string())
            .unwrap_or_else(|_| one_line(&String::from_utf8_lossy(body))),
    }
}

/// 401 when the request is well formed but not signed by us or not fresh; 400 when it is malformed.
fn rejection_status(err: &VerifyError) -> StatusCode {
    match err {
        VerifyError::SignatureMismatch | VerifyError::Stale { .. } | VerifyError::FromTheFuture { .. } => {
            StatusCode::UNAUTHORIZED
        }
        _ => StatusCode::BAD_REQUEST,
    }
}

/// The reason, with the way out for the most common surprise: a server whose clock is not the real time.
fn rejection_reason(err: &VerifyError) -> String {
    match err {
        VerifyError::Stale { .. } | VerifyError::FromTheFuture { .. } => {
            format!("{err} (--tolerance-secs 0 skips the freshness check)")
        }
        _ => err.to_string(),
    }
}

fn reply(status: StatusCode, text: &str) -> Reply {
    let mut response = Response::new(Full::new(Bytes::from(format!("{text}\n"))));
    *response.status_mut() = status;
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::SystemTime;

    use hyper::header::{HeaderName, HeaderValue};
    use hyper::{HeaderMap, StatusCode};
    use webhook_verify::{ApiKey, Verifier, testing};

    use super::{Line, Receiver, json_line};

    const KEY: &str = "sk_test_unit";
    const BODY: &[u8] =
        br#"{"event":"receipt.status_updated","receiptId":"R-1","status":"paid","totalUsd":7635.8}"#;

    fn receiver(pending: usize) -> (Receiver, mpsc::Receiver<Line>) {
        let (lines, queue) = mpsc::sync_channel(pending);
        let verifier = Verifier::new(ApiKey::new(KEY).unwrap());
        let receiver = Receiver {
            verifier,
            json: false,
            lines,
            forward: None,
        };
        (receiver, queue)
    }

    fn signed(body: &[u8]) -> HeaderMap {
        let key = ApiKey::new(KEY).unwrap();
        testing::x_service_headers(&key, body, SystemTime::now())
            .into_iter()
            .map(|(name, value)| {
                (
                    HeaderName::from_static(name),
                    HeaderValue::from_str(&value).unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn a_tampered_body_is_401_and_reported_and_a_full_queue_is_503() {
        let (receiver, queue) = receiver(1);

        let tampered = receiver.accept(&signed(BODY), br#"{"event":"receipt.status_updated"}"#);
        let rejection = queue.try_recv().unwrap();
        let first = receiver.accept(&signed(BODY), BODY);
        let second = receiver.accept(&signed(BODY), BODY);

        assert_eq!(tampered.status(), StatusCode::UNAUTHORIZED);
        assert!(matches!(rejection, Line::Err(text) if text.starts_with("rejected: signature")));
        assert_eq!(first.status(), StatusCode::OK);
        assert_eq!(second.status(), StatusCode::SERVICE_UNAVAILABLE);
    }

    #[test]
    fn a_multi_line_body_is_printed_as_one_json_line() {
        assert_eq!(json_line(b"{\n  \"a\": 1\n}\n"), r#"{"a":1}"#);
        assert_eq!(json_line(BODY), String::from_utf8_lossy(BODY));
    }
}
