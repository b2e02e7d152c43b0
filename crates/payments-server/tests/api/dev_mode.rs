//! Development mode: explicit, or a fresh local try-out (the README's one command); never with production
//! secrets; announced by a warning line. In it, a fresh database gets a merchant and a key, shown once.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;

use payments_server::{App, DevAdminKey, ManualClock, ServerConfig};
use reqwest::Method;
use serde_json::json;
use url::Url;

use crate::helpers::{KEY_HEADER, send};

/// A development app on a fresh database in `dir`, serving on a free port; its base URL.
async fn development_app(dir: &std::path::Path) -> (App, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let mut config = ServerConfig::new(dir.join("dev.db").as_path(), Url::parse(&base).unwrap());
    config.dev_mode = true;
    config.platform_recipient = Some(payments_server::DEV_PLATFORM_RECIPIENT);
    let clock = Arc::new(ManualClock::new(1_700_000_000_000));
    let app = App::open(config, clock).await.unwrap();
    tokio::spawn(payments_server::serve(
        listener,
        app.clone(),
        std::future::pending(),
    ));
    (app, base)
}

#[tokio::test]
async fn the_first_development_start_makes_a_merchant_with_a_known_admin_key_a_working_key_and_a_split() {
    let dir = tempfile::tempdir().unwrap();
    let (app, base) = development_app(dir.path()).await;

    let welcome = app.bootstrap_development().await.unwrap().unwrap();
    let again = app.bootstrap_development().await.unwrap();

    assert!(again.is_none(), "nothing is made or shown twice");
    let key_file = dir.path().join("dev.db.dev-admin.key");
    assert_eq!(welcome.admin_key_file, key_file);
    assert_eq!(
        DevAdminKey::load_or_create(&key_file).unwrap().wallet,
        welcome.merchant
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&key_file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    assert_eq!(welcome.key.scopes.to_string().split(',').count(), 13);
    let get = |path: &str| {
        reqwest::Client::new()
            .request(Method::GET, format!("{base}{path}"))
            .header(KEY_HEADER, welcome.key.key.expose())
    };
    let shop = send(get("/api/shop/config")).await;
    let split = send(get("/api/split/deploy")).await;
    assert_eq!(shop.json["wallet"], welcome.merchant.to_string());
    assert_eq!(shop.json["brandName"], "Development Shop");
    assert_eq!(
        split.json["split"]["address"],
        welcome.split.as_ref().unwrap().to_string()
    );
    assert_eq!(
        split.json["split"]["recipients"],
        json!([{"address": welcome.merchant, "sharesBps": 9950},
               {"address": payments_server::DEV_PLATFORM_RECIPIENT, "sharesBps": 50}])
    );
    let text = welcome.render(&Url::parse(&base).unwrap());
    assert!(
        text.contains(&format!("--private-key-file {}", key_file.display())),
        "{text}"
    );
    assert!(text.contains("orders can be created at once"), "{text}");
}

#[tokio::test]
async fn without_a_platform_recipient_the_welcome_names_the_command_that_makes_the_split() {
    let dir = tempfile::tempdir().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = Url::parse(&format!("http://{}", listener.local_addr().unwrap())).unwrap();
    let mut config = ServerConfig::new(dir.path().join("dev.db").as_path(), base.clone());
    config.dev_mode = true;
    let app = App::open(config, Arc::new(ManualClock::new(1_700_000_000_000)))
        .await
        .unwrap();

    let welcome = app.bootstrap_development().await.unwrap().unwrap();

    assert!(welcome.split.is_err());
    assert!(
        welcome
            .render(&base)
            .contains("payments admin login --private-key-file"),
        "{}",
        welcome.render(&base)
    );
}

/// A 32-byte master key in base64 (a test value).
const MASTER_KEY: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

/// Starts the binary with `args` and no PAYMENTS_* environment, reads its stderr up to the "listening" log
/// line (or to its exit), stops it, and returns its stdout lines, those stderr lines, and its exit code when
/// it exited by itself. The development key is printed before the server listens.
fn run_server(args: &[&str], db: &std::path::Path) -> (Vec<String>, Vec<String>, Option<i32>) {
    run_server_on("127.0.0.1:0", args, db)
}

/// [`run_server`] listening on `listen`.
fn run_server_on(
    listen: &str,
    args: &[&str],
    db: &std::path::Path,
) -> (Vec<String>, Vec<String>, Option<i32>) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_payments-server"));
    for (name, _) in std::env::vars().filter(|(name, _)| name.starts_with("PAYMENTS_")) {
        command.env_remove(name);
    }
    let mut child = command
        .args(["--listen", listen, "--db"])
        .arg(db)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut errors = Vec::new();
    let mut listening = false;
    for line in BufReader::new(child.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        listening = line.contains("payments-server listening");
        errors.push(line);
        if listening {
            break;
        }
    }
    if listening {
        child.kill().unwrap();
    }
    let status = child.wait().unwrap();
    let printed = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(Result::unwrap)
        .collect();
    (printed, errors, (!listening).then(|| status.code().unwrap_or(-1)))
}

#[test]
fn serving_a_fresh_database_on_loopback_warns_and_prints_a_key_and_a_curl_example() {
    let dir = tempfile::tempdir().unwrap();

    let (printed, errors, _) = run_server(&[], &dir.path().join("fresh.db"));

    assert!(
        errors
            .iter()
            .any(|line| line == payments_server::DEV_MODE_WARNING),
        "{errors:?}"
    );
    let wallet = DevAdminKey::load_or_create(&dir.path().join("fresh.db.dev-admin.key"))
        .unwrap()
        .wallet;
    assert!(printed[0].contains(&wallet.to_string()), "{printed:?}");
    assert!(
        printed.iter().any(|line| line.contains("fresh.db.dev-admin.key")),
        "{printed:?}"
    );
    assert!(
        printed
            .iter()
            .any(|line| line.trim_start().starts_with("sk_test_")),
        "{printed:?}"
    );
}

#[test]
fn a_server_given_production_secrets_never_enters_development_mode() {
    let dir = tempfile::tempdir().unwrap();
    let secrets = [
        "--jwt-secret",
        "a-long-production-jwt-secret",
        "--master-key",
        MASTER_KEY,
        "--test-mode",
    ];

    let (printed, errors, exited) = run_server(&secrets, &dir.path().join("fresh.db"));

    assert_eq!(exited, None, "it serves: {errors:?}");
    assert!(printed.is_empty(), "no key is printed: {printed:?}");
    assert!(
        !errors.iter().any(|line| line.contains("DEVELOPMENT MODE")),
        "{errors:?}"
    );
}

#[test]
fn dev_with_a_production_secret_is_refused_and_an_existing_database_needs_the_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let existing = dir.path().join("existing.db");
    std::fs::write(&existing, b"").unwrap();

    let (_, conflict, conflict_exit) = run_server(
        &["--dev", "--master-key", MASTER_KEY],
        &dir.path().join("fresh.db"),
    );
    let (_, production, production_exit) = run_server(&[], &existing);

    assert!(conflict_exit.is_some_and(|code| code != 0));
    assert!(
        conflict
            .iter()
            .any(|line| line.contains("--dev cannot be combined")),
        "{conflict:?}"
    );
    assert!(production_exit.is_some_and(|code| code != 0));
    assert!(
        production
            .iter()
            .any(|line| line.contains("is required outside development mode")),
        "{production:?}"
    );
    assert!(!production.iter().any(|line| line.contains("DEVELOPMENT MODE")));
}

#[test]
fn a_taken_port_fails_the_start_before_the_key_is_made_so_the_next_start_prints_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fresh.db");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let taken_address = taken.local_addr().unwrap().to_string();

    let (lost, errors, exited) = run_server_on(&taken_address, &[], &db);
    drop(taken);
    let (printed, _, _) = run_server(&[], &db);

    assert!(exited.is_some_and(|code| code != 0), "{errors:?}");
    assert!(
        errors
            .iter()
            .any(|line| line.contains(&format!("binding {taken_address}"))),
        "{errors:?}"
    );
    assert!(
        lost.is_empty(),
        "nothing is printed before the port is bound: {lost:?}"
    );
    assert!(
        printed
            .iter()
            .any(|line| line.trim_start().starts_with("sk_test_")),
        "the next start still prints the key: {printed:?}"
    );
}

#[test]
fn the_printed_example_names_the_port_actually_bound() {
    let dir = tempfile::tempdir().unwrap();

    let (printed, _, _) = run_server(&[], &dir.path().join("fresh.db"));

    let curl = printed.iter().find(|line| line.contains("curl")).unwrap();
    assert!(!curl.contains("127.0.0.1:0/"), "{curl}");
    assert!(curl.contains("http://127.0.0.1:"), "{curl}");
}
