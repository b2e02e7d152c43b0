//! The browser harness of the hosted pages: `tests/browser/{checkout,subscribe}.mjs` (over `wallet.mjs`; npm
//! `puppeteer-core`, installed by `npm ci --prefix tests/browser`) drive Debian's headless chromium with a
//! wallet backed by an anvil account. Without chromium, node or the harness the tests say so and pass, except under `CI=true`.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

/// One scenario may take this long before the harness gives up (it also stops itself at twice its timeout).
const SCENARIO_TIMEOUT: Duration = Duration::from_secs(60);

pub(crate) struct Browser {
    chromium: PathBuf,
    root: PathBuf,
}

impl Browser {
    /// The harness, or `None` (after saying why) when something it needs is missing outside CI.
    pub(crate) fn find() -> Option<Browser> {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/browser");
        let chromium = find_on_path(&["chromium", "chromium-browser"]);
        let node = find_on_path(&["node"]);
        let installed = root.join("node_modules/puppeteer-core/package.json").is_file();
        let missing = match (&chromium, &node, installed) {
            (None, _, _) => "chromium not installed",
            (_, None, _) => "node not installed",
            (_, _, false) => "the browser harness is not installed (npm ci --prefix tests/browser)",
            (Some(_), Some(_), true) => "",
        };
        if !missing.is_empty() {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "{missing}: CI needs it (.ci/run installs it)"
            );
            eprintln!("skipping: {missing}");
            return None;
        }
        Some(Browser {
            chromium: chromium?,
            root,
        })
    }

    /// Runs one scenario of the payment page (see checkout.mjs) with `config`; returns what it reported.
    pub(crate) async fn run(&self, config: Value) -> Value {
        self.run_script("checkout.mjs", config).await
    }

    /// Runs one scenario of `script` (a file of tests/browser) with `config`; returns what it reported.
    pub(crate) async fn run_script(&self, script: &str, mut config: Value) -> Value {
        config["chromium"] = Value::String(self.chromium.display().to_string());
        config["timeoutMs"] = Value::from(SCENARIO_TIMEOUT.as_millis() as u64);
        let script = self.root.join(script);
        // The server under test runs on this test's runtime: wait for node off it.
        tokio::task::spawn_blocking(move || {
            let output = Command::new("node")
                .arg(&script)
                .env("PAGE_CONFIG", config.to_string())
                .output()
                .expect("running node");
            let stdout = String::from_utf8_lossy(&output.stdout);
            let last = stdout.lines().last().unwrap_or("");
            let report: Value = serde_json::from_str(last).unwrap_or_else(|_| {
                panic!(
                    "the harness printed no report: {stdout}\n{}",
                    String::from_utf8_lossy(&output.stderr)
                )
            });
            assert!(
                report.get("error").is_none(),
                "the harness failed: {report}\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
            report
        })
        .await
        .unwrap()
    }
}

fn find_on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}
