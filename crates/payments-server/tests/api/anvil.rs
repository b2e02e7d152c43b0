//! A throwaway anvil for the on-chain tests, with `cast` to act as buyers. The binaries come from
//! `contracts/install-chain-tools.sh` (CI runs it); without them the tests say so and pass locally, and fail
//! under `CI=true`.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

/// anvil's first default account: deploys the contracts and relays settlements.
pub(crate) const DEPLOYER_KEY: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/// anvil's second default account: the buyer.
pub(crate) const BUYER_KEY: &str = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
pub(crate) const BUYER: &str = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";

fn tool(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../contracts/node_modules/.bin/{name}"))
}

/// A running anvil, stopped when dropped.
pub(crate) struct Anvil {
    child: Child,
    pub(crate) rpc_url: String,
}

impl Anvil {
    /// Starts anvil on a port the OS picks; `None` (after saying why) when it is not installed outside CI.
    pub(crate) fn start() -> Option<Anvil> {
        let anvil = tool("anvil");
        if !anvil.exists() || !tool("cast").exists() {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "anvil is not installed under CI=true: run contracts/install-chain-tools.sh"
            );
            eprintln!("skipping: anvil not installed (bash contracts/install-chain-tools.sh)");
            return None;
        }
        let mut child = Command::new(anvil)
            .args([
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--hardfork",
                "cancun",
                "--chain-id",
                "31337",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting anvil");
        let stdout = child.stdout.take().expect("anvil's stdout");
        // anvil logs every call: keep reading its output for as long as it runs, so it never blocks on a pipe.
        let (port_tx, port_rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("Listening on 127.0.0.1:") {
                    port_tx.send(rest.trim().parse::<u16>().ok()).ok();
                }
            }
        });
        let port = port_rx
            .recv_timeout(Duration::from_secs(20))
            .expect("anvil did not listen within 20 s")
            .expect("anvil's port");
        Some(Anvil {
            child,
            rpc_url: format!("http://127.0.0.1:{port}"),
        })
    }

    /// Runs `cast` against this anvil; panics with its output when it fails.
    pub(crate) fn cast(&self, args: &[&str]) -> String {
        let output = Command::new(tool("cast"))
            .args(args)
            .env("ETH_RPC_URL", &self.rpc_url)
            .output()
            .expect("running cast");
        assert!(
            output.status.success(),
            "cast {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    }

    /// Sends a transaction signed by `key`; returns its hash.
    pub(crate) fn send(&self, key: &str, to: &str, signature: &str, args: &[&str]) -> String {
        let mut all = vec!["send", "--json", "--private-key", key, to, signature];
        all.extend_from_slice(args);
        let receipt: Value = serde_json::from_str(&self.cast(&all)).expect("cast send --json");
        receipt["transactionHash"]
            .as_str()
            .expect("a transaction hash")
            .to_owned()
    }

    /// `token.balanceOf(owner)` in base units.
    pub(crate) fn balance(&self, token: &str, owner: &str) -> u128 {
        let text = self.cast(&["call", token, "balanceOf(address)(uint256)", owner]);
        // cast prints `123 [1.23e2]` for large numbers.
        text.split_whitespace()
            .next()
            .unwrap_or_default()
            .parse()
            .expect("a balance")
    }

    /// Mines `count` blocks.
    pub(crate) fn mine(&self, count: u32) {
        self.cast(&["rpc", "anvil_mine", &format!("0x{count:x}")]);
    }

    /// `evm_snapshot`.
    pub(crate) fn snapshot(&self) -> String {
        self.cast(&["rpc", "evm_snapshot"]).trim_matches('"').to_owned()
    }

    /// `evm_revert` to `snapshot`.
    pub(crate) fn revert(&self, snapshot: &str) {
        self.cast(&["rpc", "evm_revert", snapshot]);
    }
}

impl Drop for Anvil {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}
