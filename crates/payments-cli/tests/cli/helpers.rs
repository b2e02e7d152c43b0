//! Running the built binary against a test server.

use std::process::{Command, Output};

use payments_client::Client;
use payments_server::testing::TestApp;

/// What a run of the binary produced.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Runs `payments ARGS` with the app's URL and key in the environment. The binary runs on a blocking
/// thread so the in-process server keeps serving (tests use the multi-thread runtime).
pub(crate) async fn payments(app: &TestApp, args: &[&str]) -> Run {
    payments_with_key(app, Some(&app.key), args).await
}

/// Like [`payments`], with a chosen key (or none).
pub(crate) async fn payments_with_key(app: &TestApp, key: Option<&str>, args: &[&str]) -> Run {
    payments_with_env(app, key, &[], args).await
}

/// Like [`payments_with_key`], with more environment variables (e.g. `PAYMENTS_ADMIN_SESSION`). The
/// admin variables of the caller's environment are removed, so a test never touches a real session.
pub(crate) async fn payments_with_env(
    app: &TestApp,
    key: Option<&str>,
    env: &[(&str, &str)],
    args: &[&str],
) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_payments"));
    command
        .args(args)
        .env("PAYMENTS_URL", &app.base_url)
        .env_remove("PAYMENTS_KEY")
        .env_remove("PAYMENTS_ADMIN_SESSION")
        .env_remove("PAYMENTS_ADMIN_KEY_FILE");
    if let Some(key) = key {
        command.env("PAYMENTS_KEY", key);
    }
    command.envs(env.iter().copied());
    let output: Output = tokio::task::spawn_blocking(move || command.output())
        .await
        .unwrap()
        .unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

/// A library client of the same app, to arrange and to check what the binary did.
pub(crate) fn client(app: &TestApp) -> Client {
    client_with_key(app, &app.key)
}

/// Like [`client`], with another key of the app (e.g. the merchant admin's).
pub(crate) fn client_with_key(app: &TestApp, key: &str) -> Client {
    Client::builder(&app.base_url)
        .subscription_key(key)
        .build()
        .unwrap()
}

/// Writes `text` to `products.csv` in a new temp dir; keep the dir alive while the file is used.
pub(crate) fn write_csv(text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("products.csv");
    std::fs::write(&path, text).unwrap();
    (dir, path.to_str().unwrap().to_owned())
}

/// A request the forward target received.
pub(crate) struct Received {
    pub(crate) headers: hyper::HeaderMap,
    pub(crate) body: Vec<u8>,
}

/// A local "merchant backend" answering every POST with `status` and handing each request to the test.
pub(crate) async fn forward_target(status: u16) -> (String, std::sync::mpsc::Receiver<Received>) {
    use http_body_util::{BodyExt as _, Full};
    use hyper::service::service_fn;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/webhooks", listener.local_addr().unwrap());
    let (sender, received) = std::sync::mpsc::channel();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let sender = sender.clone();
            let service = service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                let sender = sender.clone();
                async move {
                    let (parts, body) = request.into_parts();
                    let body = body.collect().await.unwrap().to_bytes().to_vec();
                    sender
                        .send(Received {
                            headers: parts.headers,
                            body,
                        })
                        .ok();
                    let mut response = hyper::Response::new(Full::new(bytes::Bytes::new()));
                    *response.status_mut() = hyper::StatusCode::from_u16(status).unwrap();
                    Ok::<_, std::convert::Infallible>(response)
                }
            });
            tokio::spawn(
                hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service),
            );
        }
    });
    (url, received)
}

/// A 1x1 transparent PNG.
pub(crate) const TINY_PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00,
    0x00, 0x00, 0x0b, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x60, 0x00, 0x02, 0x00, 0x00, 0x05, 0x00,
    0x01, 0x7a, 0x5e, 0xab, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];
