//! Fuzz-style properties through the HTTP layer (stable Rust, proptest): one server per property, many
//! generated requests against it, and after each one the same checks: no 5xx, the spec's error envelope
//! on every refusal, and a server that still answers. See docs/fuzzing.md; `scripts/fuzz.sh` runs them
//! long with `PROPTEST_CASES`.

use std::num::NonZeroU32;

use payments_server::testing::TestOptions;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Map, Value};

use crate::helpers::Api;

mod bodies;
mod graphql;

/// Cases per property when `PROPTEST_CASES` is not set: a few seconds of requests in a debug build.
const DEFAULT_CASES: u32 = 600;

fn runner() -> TestRunner {
    let mut config = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = DEFAULT_CASES;
    }
    // Shrinking re-sends requests to a server that earlier cases changed; a short bound keeps a failure
    // report quick while still minimising the input.
    config.max_shrink_iters = 200;
    TestRunner::new(config)
}

/// A server whose rate limit does not turn the run into a stream of 429s, on its own runtime: each case
/// is sent with `block_on` while the server keeps running on the runtime's workers.
fn server() -> (tokio::runtime::Runtime, Api) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let options = TestOptions {
        rate_limit_per_minute: NonZeroU32::new(10_000_000),
        ..TestOptions::default()
    };
    let api = runtime.block_on(Api::spawn_with(options));
    (runtime, api)
}

/// A client that opens a connection per request: a connection the server closed after an early refusal is
/// never reused for the next case (which would fail that case for the previous one's reason).
fn unpooled_client() -> reqwest::Client {
    reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .unwrap()
}

/// A request to `path`, with the test merchant's key when `with_key`.
fn request(
    client: &reqwest::Client,
    api: &Api,
    method: reqwest::Method,
    path: &str,
    with_key: bool,
) -> reqwest::RequestBuilder {
    let builder = client.request(method, api.app.url(path));
    if with_key {
        builder.header(crate::helpers::KEY_HEADER, &api.app.key)
    } else {
        builder
    }
}

/// What came back, whatever its content type.
#[derive(Debug)]
struct RawReply {
    status: u16,
    content_type: String,
    body: Vec<u8>,
}

/// The reply, or `None` when the server answered before reading the body and closed the connection while
/// the client was still sending it (by design: unauthenticated or misrouted bodies are not read, see
/// docs/http-limits.md "Bodies are read last"); the caller then checks that the server still answers.
async fn send_raw(request: reqwest::RequestBuilder) -> Option<RawReply> {
    let response = match request.send().await {
        Ok(response) => response,
        Err(error) if closed_while_sending(&error) => return None,
        Err(error) => panic!("the request failed: {error:?}"),
    };
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let body = match response.bytes().await {
        Ok(body) => body.to_vec(),
        Err(error) if closed_while_sending(&error) => return None,
        Err(error) => panic!("the answer could not be read: {error:?}"),
    };
    Some(RawReply {
        status,
        content_type,
        body,
    })
}

/// Whether the connection was reset or closed under the client's body write (a reset also discards an
/// answer the client had not read yet: hyper then reports an incomplete message).
fn closed_while_sending(error: &reqwest::Error) -> bool {
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        if cause
            .downcast_ref::<hyper::Error>()
            .is_some_and(hyper::Error::is_incomplete_message)
        {
            return true;
        }
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            return matches!(
                io.kind(),
                std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset
            );
        }
        source = cause.source();
    }
    false
}

/// The server answers its health check (after a connection it closed early, or at the end of a run).
async fn still_answers(api: &Api) -> bool {
    let reply = crate::helpers::send(api.anonymous(reqwest::Method::GET, "/healthz")).await;
    reply.status == 200
}

/// `None` when `reply` is a refusal in the spec's envelope `{ "error": code, "message": text }` or not
/// a refusal at all; otherwise what is wrong with it.
fn envelope_problem(reply: &RawReply) -> Option<String> {
    if reply.status < 400 {
        return None;
    }
    let Ok(json) = serde_json::from_slice::<Value>(&reply.body) else {
        return Some(format!("a {} that is not JSON", reply.status));
    };
    let code = json["error"].as_str().unwrap_or_default();
    let message = json["message"].as_str().unwrap_or_default();
    (code.is_empty() || message.is_empty())
        .then(|| format!("a {} outside the envelope: {json}", reply.status))
}

/// Any JSON value up to a few levels deep, with object keys drawn from `keys` half of the time so that
/// the routes' own field names come up often.
fn json_value(keys: Vec<String>) -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        prop_oneof![Just(0.1), Just(1e300), Just(-0.0), Just(12.345)].prop_map(Value::from),
        ".{0,24}".prop_map(Value::String),
        "0x[0-9a-fA-F]{40}".prop_map(Value::String),
        "[0-9]{1,40}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 8, move |inner| {
        let key = prop_oneof![proptest::sample::select(keys.clone()), ".{0,12}"];
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((key, inner), 0..10)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>())),
        ]
    })
}
