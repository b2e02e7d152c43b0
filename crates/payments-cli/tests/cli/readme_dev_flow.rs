//! The issue's "done when": the README's quick start, run as written, takes the `payments-server` binary from
//! a fresh database to a paid (through the test-mode chain's simulated payment) and refunded order with
//! nothing but the `payments` CLI's documented commands.
//!
//! The commands are read from the README's `dev-flow` block, so the README cannot drift from what is tested.
//! The only differences from a person's terminal: the server listens on a free port (8080 may be taken) and
//! the URL it prints is exported with the key, and the admin session file lives in the test's directory.

use std::collections::BTreeMap;
use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

use crate::helpers::Run;

/// Stops the server however the test ends.
pub(crate) struct Server(pub(crate) Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The `payments-server` binary beside `payments` in the same target directory (`cargo test --workspace`
/// builds both before running any test).
pub(crate) fn server_binary() -> PathBuf {
    let cli = PathBuf::from(env!("CARGO_BIN_EXE_payments"));
    let server = cli.with_file_name(format!("payments-server{}", std::env::consts::EXE_SUFFIX));
    assert!(
        server.exists(),
        "{} is not built: run `cargo test --workspace` or `cargo build -p payments-server` first",
        server.display()
    );
    server
}

/// The commands of the README's dev-flow block, comments removed.
fn readme_dev_flow() -> Vec<String> {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let text = std::fs::read_to_string(readme).unwrap();
    let start = text.find("<!-- dev-flow:").unwrap();
    let end = text.find("<!-- dev-flow: end -->").unwrap();
    text[start..end]
        .lines()
        .filter(|line| !line.starts_with("<!--") && !line.starts_with("```"))
        .map(|line| line.split(" #").next().unwrap_or_default().trim().to_owned())
        .filter(|line| !line.is_empty())
        .collect()
}

/// Starts the server in `dir` as `cargo run -p payments-server` does (no flags: `payments.db` in the working
/// directory), on a free port; returns it and the lines it printed up to the commands to try.
fn start_server(dir: &Path) -> (Server, Vec<String>) {
    let mut command = Command::new(server_binary());
    for (name, _) in std::env::vars().filter(|(name, _)| name.starts_with("PAYMENTS_")) {
        command.env_remove(name);
    }
    let mut child = command
        .current_dir(dir)
        .args(["--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let server = Server(child);
    let mut printed = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        let last = line.trim_start().starts_with("payments admin login");
        printed.push(line);
        if last {
            break;
        }
    }
    (server, printed)
}

/// `payments ARGS` in `dir` with exactly `env` among the PAYMENTS_* variables.
pub(crate) fn payments(dir: &Path, env: &BTreeMap<String, String>, args: &[String]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_payments"));
    for (name, _) in std::env::vars().filter(|(name, _)| name.starts_with("PAYMENTS_")) {
        command.env_remove(name);
    }
    let output = command.current_dir(dir).args(args).envs(env).output().unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

/// The words of a README line with each `<name>` replaced by a value an earlier command printed.
fn words(line: &str, values: &BTreeMap<String, String>) -> Vec<String> {
    line.split_whitespace()
        .skip(1)
        .map(
            |word| match word.strip_prefix('<').and_then(|word| word.strip_suffix('>')) {
                Some(name) => values
                    .get(name)
                    .unwrap_or_else(|| panic!("no earlier command printed {name} for `{line}`"))
                    .clone(),
                None => word.to_owned(),
            },
        )
        .collect()
}

#[test]
fn the_readme_dev_flow_takes_a_fresh_database_to_a_paid_and_refunded_order() {
    let dir = tempfile::tempdir().unwrap();
    let lines = readme_dev_flow();
    assert_eq!(lines[0], "cargo run -p payments-server", "{lines:?}");
    assert!(lines[1].starts_with("export PAYMENTS_KEY="), "{lines:?}");

    let (_server, printed) = start_server(dir.path());
    let export = printed
        .iter()
        .find_map(|line| line.trim().strip_prefix("export "))
        .unwrap_or_else(|| panic!("no export line in {printed:?}"));
    let mut env: BTreeMap<String, String> = export
        .split_whitespace()
        .filter_map(|pair| pair.split_once('='))
        .map(|(name, value)| (name.to_owned(), value.to_owned()))
        .collect();
    let session = dir.path().join("admin-session.json");
    env.insert(
        "PAYMENTS_ADMIN_SESSION".to_owned(),
        session.to_str().unwrap().to_owned(),
    );
    assert!(env["PAYMENTS_KEY"].starts_with("sk_test_"), "{env:?}");
    let mut values = BTreeMap::new();
    let mut runs = Vec::new();
    for line in &lines[2..] {
        assert!(line.starts_with("payments "), "only CLI commands: {line}");
        let run = payments(dir.path(), &env, &words(line, &values));
        assert_eq!(run.code, 0, "`{line}` failed: {run:?}");
        if let Ok(Value::Object(fields)) = serde_json::from_str::<Value>(&run.stdout) {
            for (name, value) in fields {
                if let Value::String(text) = value {
                    values.insert(name, text);
                }
            }
        }
        runs.push((line.clone(), run));
    }

    let output_of = |prefix: &str| {
        &runs
            .iter()
            .find(|(line, _)| line.starts_with(prefix))
            .unwrap_or_else(|| panic!("the README runs no `{prefix}`"))
            .1
    };
    let paid: Value = serde_json::from_str(&output_of("payments receipts simulate-payment").stdout).unwrap();
    assert!(
        paid["status"] == "paid" || paid["status"] == "completed",
        "{paid}"
    );
    assert_eq!(paid["receiptId"], values["receiptId"].as_str());
    assert!(
        paid["transactionHash"]
            .as_str()
            .is_some_and(|hash| hash.starts_with("0x"))
    );
    assert!(
        paid["buyerWallet"]
            .as_str()
            .is_some_and(|wallet| wallet.starts_with("0x"))
    );
    let login = &output_of("payments admin login").stdout;
    assert!(login.contains("acts for this merchant"), "{login}");
    let status = &output_of("payments receipts status").stdout;
    let row = status.lines().nth(1).unwrap_or_default();
    assert!(row.starts_with(&values["receiptId"]), "{status}");
    assert!(row.split_whitespace().nth(1) == Some("refunded"), "{status}");
}
