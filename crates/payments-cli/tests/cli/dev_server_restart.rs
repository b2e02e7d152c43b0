//! The README's development server (no flags) across a restart: it makes its cron secret at the first start
//! beside the database (0600), so `payments subscriptions charge-due` and `payments test-clock advance --days
//! N` work with nothing configured; and after a restart the test-mode chain resumes where the watcher left
//! it, so the server reports no reorganisation and the first `simulate-payment` after it is paid.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::readme_dev_flow::{Server, payments, server_binary};

/// A free loopback port (the server must come back on the same one).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts `payments-server --listen 127.0.0.1:PORT` in `dir` (the README's start otherwise), its stdout
/// and stderr appended to files there; returns once the port answers.
fn start(dir: &Path, port: u16, run: usize) -> Server {
    let mut command = Command::new(server_binary());
    for (name, _) in std::env::vars().filter(|(name, _)| name.starts_with("PAYMENTS_")) {
        command.env_remove(name);
    }
    let stdout = std::fs::File::create(dir.join(format!("server-{run}.out"))).unwrap();
    let stderr = std::fs::File::create(dir.join(format!("server-{run}.err"))).unwrap();
    let child = command
        .current_dir(dir)
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::from(stderr))
        .spawn()
        .unwrap();
    let server = Server(child);
    // Bounded by attempts, not time: the test fails if the server never listens.
    for _ in 0..600 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return server;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("the development server never listened on {port}");
}

/// The key the first start printed.
fn printed_key(dir: &Path) -> String {
    let printed = std::fs::read_to_string(dir.join("server-1.out")).unwrap();
    for _ in 0..600 {
        let printed = std::fs::read_to_string(dir.join("server-1.out")).unwrap();
        if let Some(key) = printed
            .lines()
            .map(str::trim)
            .find(|line| line.starts_with("sk_test_"))
        {
            return key.to_owned();
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("no key printed: {printed}");
}

fn json_of(run: &crate::helpers::Run) -> Value {
    assert_eq!(run.code, 0, "{run:?}");
    serde_json::from_str(&run.stdout).unwrap_or_else(|error| panic!("{error}: {run:?}"))
}

fn args(words: &str) -> Vec<String> {
    words.split_whitespace().map(str::to_owned).collect()
}

/// An order for one mug, paid on the test-mode chain; answers the receipt's status after the wait.
fn paid_order(dir: &Path, env: &BTreeMap<String, String>) -> Value {
    let order = json_of(&payments(dir, env, &args("orders create --item MUG-1:1 --json")));
    let receipt = order["receiptId"].as_str().unwrap().to_owned();
    json_of(&payments(
        dir,
        env,
        &args(&format!("receipts simulate-payment {receipt} --json")),
    ))
}

#[test]
fn the_dev_server_makes_its_cron_secret_and_survives_a_restart_without_losing_a_payment() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let first = start(dir.path(), port, 1);
    let mut env = BTreeMap::new();
    env.insert("PAYMENTS_KEY".to_owned(), printed_key(dir.path()));
    env.insert("PAYMENTS_URL".to_owned(), format!("http://127.0.0.1:{port}"));

    let secret_file = dir.path().join("payments.db.dev-cron-secret");
    assert!(secret_file.exists(), "no cron secret beside the database");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&secret_file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let charged = json_of(&payments(
        dir.path(),
        &env,
        &args("subscriptions charge-due --json"),
    ));
    assert_eq!(charged["success"], true, "{charged}");
    assert_eq!(charged["processed"], 0, "{charged}");
    let before = json_of(&payments(
        dir.path(),
        &env,
        &args("test-clock advance --hours 0 --json"),
    ));
    let after = json_of(&payments(
        dir.path(),
        &env,
        &args("test-clock advance --days 3 --json"),
    ));
    // The development clock is the wall clock plus the offset: three days on, and the time it took.
    assert!(
        after["nowMs"].as_i64().unwrap() - before["nowMs"].as_i64().unwrap() >= 3 * 86_400_000,
        "{before} {after}"
    );
    let upsert = "inventory upsert --sku MUG-1 --name Mug --price 12.00 --stock 10";
    assert_eq!(payments(dir.path(), &env, &args(upsert)).code, 0);
    let paid = paid_order(dir.path(), &env);
    assert!(
        paid["status"] == "paid" || paid["status"] == "completed",
        "{paid}"
    );

    drop(first);
    let _second = start(dir.path(), port, 2);
    let paid_after_restart = paid_order(dir.path(), &env);
    let charged_after_restart = payments(dir.path(), &env, &args("subscriptions charge-due --json"));

    assert!(
        paid_after_restart["status"] == "paid" || paid_after_restart["status"] == "completed",
        "{paid_after_restart}"
    );
    assert_eq!(json_of(&charged_after_restart)["success"], true);
    let log = std::fs::read_to_string(dir.path().join("server-2.err")).unwrap();
    assert!(
        !log.contains("reorganised"),
        "the restart looked like a reorganisation: {log}"
    );
}
