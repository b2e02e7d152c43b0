//! `fixed-json`: the same small JSON body for every request. It measures HTTP parsing, the runtime and
//! loopback networking alone, the ceiling that no real JSON route can beat on the same machine.

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::{Request, Response};

/// About 100 bytes, the size of a small API answer, so the body copy is not what is measured.
const BODY: &[u8] =
    br#"{"ok":true,"handler":"fixed-json","note":"a constant body with no I/O behind it","version":1}"#;

/// Answers 200 with [`BODY`]; the request is not looked at (GETs have no body to drain).
pub(crate) async fn handle(_request: Request<Incoming>) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from_static(BODY)));
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

#[cfg(test)]
mod tests {
    use super::BODY;

    #[test]
    fn the_body_is_about_100_bytes_of_json() {
        let value: serde_json::Value = serde_json::from_slice(BODY).unwrap();

        assert_eq!(value["ok"], true);
        assert!((80..=120).contains(&BODY.len()), "{} bytes", BODY.len());
    }
}
