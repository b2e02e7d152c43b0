//! The payment page in a real browser: headless Chromium screenshots it and dumps its DOM.
//!
//! Without `chromium` on the PATH the test prints "skipping: chromium not installed" and passes, except in CI
//! (`CI=true`), where a missing browser fails it (`.ci/run` installs Debian's `chromium`). Screenshots go to
//! `$CARGO_TARGET_TMPDIR/screenshots/` so they can be looked at after a run.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::json;

use crate::admin_helpers::admin;
use crate::helpers::{Api, send};

const CHROMIUM_TIMEOUT: Duration = Duration::from_secs(90);
const WIDTH: u32 = 420;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_payment_page_renders_in_headless_chromium() {
    let Some(chromium) = find_chromium() else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "chromium is required in CI (.ci/run installs it) but is not on the PATH"
        );
        eprintln!("skipping: chromium not installed");
        return;
    };
    let api = Api::spawn().await;
    let (session, key) = api.app.merchant_admin().await;
    for (id, total) in [("shot-unpaid", 58.83), ("shot-paid", 58.83)] {
        let body = json!({
            "id": id,
            "lineItems": [
                {"label": "Espresso beans, single origin 1 kg", "priceUsd": 38.0, "qty": 2},
                {"label": "Ceramic mug <handmade>", "priceUsd": 14.5},
                {"label": "Gift wrap", "priceUsd": 6.33},
            ],
            "totalUsd": total,
        });
        let created = send(api.dev_as(&key.key, Method::POST, "/api/receipts").json(&body)).await;
        assert_eq!(created.status, 201, "{}", created.json);
    }
    let hash = format!("0x{}", "5e".repeat(32));
    let paid =
        json!({"receiptId": "shot-paid", "wallet": key.wallet, "status": "paid", "transactionHash": hash});
    let attested = send(admin(&api, &session, Method::POST, "/api/receipts/status").json(&paid)).await;
    assert_eq!(attested.status, 200, "{}", attested.json);
    // The unpaid page shows how to pay once the buyer pressed "Continue to payment".
    assert_eq!(
        crate::portal::press_continue(&api, "/portal/shot-unpaid").await.0,
        303
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();

    let dump = ["--dump-dom".to_owned()];
    let dom = run_chromium(&chromium, &dump, &api.app.url("/portal/shot-unpaid")).await;
    // A phone-sized viewport, and the unpaid page at full length to see everything below the fold.
    let shots = [
        ("shot-unpaid", 1000, dir.join("portal-unpaid.png")),
        ("shot-unpaid", 1700, dir.join("portal-unpaid-full.png")),
        ("shot-paid", 1000, dir.join("portal-paid.png")),
        ("missing", 1000, dir.join("portal-not-found.png")),
    ];
    for (id, height, path) in &shots {
        std::fs::remove_file(path).ok();
        let flags = [
            format!("--window-size={WIDTH},{height}"),
            format!("--screenshot={}", path.display()),
        ];
        run_chromium(&chromium, &flags, &api.app.url(&format!("/portal/{id}"))).await;
    }

    assert!(dom.contains("$58.83"), "{dom}");
    assert!(dom.contains("58830000"), "{dom}");
    assert!(
        dom.contains("href=\"ethereum:0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0@31337/transfer?address="),
        "{dom}"
    );
    assert!(dom.contains("Ceramic mug &lt;handmade&gt;"), "{dom}");
    for (_, _, path) in &shots {
        let png = std::fs::read(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        assert_png(&png, path);
        eprintln!("screenshot: {} ({} bytes)", path.display(), png.len());
    }
}

/// A PNG whose IHDR says `WIDTH` pixels wide and whose size rules out a blank page.
fn assert_png(png: &[u8], path: &Path) {
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n"),
        "{}: not a PNG",
        path.display()
    );
    assert_eq!(&png[12..16], b"IHDR", "{}", path.display());
    let width = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
    assert_eq!(width, WIDTH, "{}", path.display());
    assert!(
        png.len() > 8 * 1024,
        "{}: {} bytes looks blank",
        path.display(),
        png.len()
    );
}

fn find_chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// Runs headless Chromium on `url` with `extra` flags (the window size among them, for screenshots) and returns its stdout; fails the test after
/// [`CHROMIUM_TIMEOUT`] (killing the browser) or on a non-zero exit.
async fn run_chromium(chromium: &Path, extra: &[String], url: &str) -> String {
    let (chromium, url, extra) = (chromium.to_owned(), url.to_owned(), extra.to_vec());
    tokio::task::spawn_blocking(move || run_chromium_blocking(&chromium, &extra, &url))
        .await
        .unwrap()
}

fn run_chromium_blocking(chromium: &Path, extra: &[String], url: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let stdout_path = profile.path().join("stdout.txt");
    let stdout = std::fs::File::create(&stdout_path).unwrap();
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!(
            "--user-data-dir={}",
            profile.path().join("profile").display()
        ))
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|error| panic!("starting {}: {error}", chromium.display()));
    let deadline = Instant::now() + CHROMIUM_TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() >= deadline {
            child.kill().ok();
            child.wait().ok();
            panic!("chromium did not finish within {CHROMIUM_TIMEOUT:?} on {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "chromium exited with {status} on {url}");
    std::fs::read_to_string(&stdout_path).unwrap()
}
