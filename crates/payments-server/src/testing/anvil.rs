//! A throwaway anvil for on-chain tests (this crate's and the CLI's), with `cast` to act as buyers and
//! customers. The binaries come from `contracts/install-chain-tools.sh` (CI runs it); without them
//! [`Anvil::start`] says so and answers `None` (the test passes locally), and fails under `CI=true`.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

/// anvil's first default account: deploys the contracts and relays settlements.
pub const DEPLOYER_KEY: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/// anvil's second default account: the buyer.
pub const BUYER_KEY: &str = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
/// The address of [`BUYER_KEY`].
pub const BUYER: &str = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";

/// `contracts/node_modules/.bin/<name>` of this repository.
pub fn chain_tool(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../contracts/node_modules/.bin/{name}"))
}

/// A running anvil, stopped when dropped.
#[derive(Debug)]
pub struct Anvil {
    child: Child,
    /// `http://127.0.0.1:<port>`.
    pub rpc_url: String,
}

impl Anvil {
    /// Starts anvil (chain 31337) on a port the OS picks; `None` (after saying why) when it is not installed
    /// outside CI.
    pub fn start() -> Option<Anvil> {
        let anvil = chain_tool("anvil");
        if !anvil.exists() || !chain_tool("cast").exists() {
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
            .unwrap_or_else(|error| panic!("starting anvil: {error}"));
        let stdout = child
            .stdout
            .take()
            .unwrap_or_else(|| panic!("anvil has no stdout"));
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
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("anvil did not say its port within 20 s"));
        Some(Anvil {
            child,
            rpc_url: format!("http://127.0.0.1:{port}"),
        })
    }

    /// This node with `contracts` deployed on it, charged through by the deployer account as relayer: what
    /// a test server's [`super::TestOptions::node`] takes.
    pub fn node(&self, contracts: crate::ChainContracts) -> super::TestNode {
        super::TestNode {
            rpc_url: self.rpc_url.clone(),
            contracts,
            relayer_key: DEPLOYER_KEY.to_owned(),
        }
    }

    /// Runs `cast` against this anvil; panics with its output when it fails.
    pub fn cast(&self, args: &[&str]) -> String {
        let output = Command::new(chain_tool("cast"))
            .args(args)
            .env("ETH_RPC_URL", &self.rpc_url)
            .output()
            .unwrap_or_else(|error| panic!("running cast: {error}"));
        assert!(
            output.status.success(),
            "cast {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    }

    /// Sends a transaction signed by `key`; returns its hash.
    pub fn send(&self, key: &str, to: &str, signature: &str, args: &[&str]) -> String {
        let mut all = vec!["send", "--json", "--private-key", key, to, signature];
        all.extend_from_slice(args);
        let receipt: Value = serde_json::from_str(&self.cast(&all))
            .unwrap_or_else(|error| panic!("cast send --json printed no JSON: {error}"));
        receipt["transactionHash"]
            .as_str()
            .unwrap_or_else(|| panic!("cast send printed no transaction hash: {receipt}"))
            .to_owned()
    }

    /// `token.balanceOf(owner)` in base units.
    pub fn balance(&self, token: &str, owner: &str) -> u128 {
        cast_uint(&self.cast(&["call", token, "balanceOf(address)(uint256)", owner]))
    }

    /// `token.allowance(owner, spender)` in base units (saturated to `u128::MAX`).
    pub fn allowance(&self, token: &str, owner: &str, spender: &str) -> u128 {
        let text = self.cast(&[
            "call",
            token,
            "allowance(address,address)(uint256)",
            owner,
            spender,
        ]);
        let digits = text.split_whitespace().next().unwrap_or_default();
        digits.parse().unwrap_or(u128::MAX)
    }

    /// The latest block's timestamp, Unix seconds.
    pub fn now_secs(&self) -> u64 {
        let text = self.cast(&["block", "latest", "--field", "timestamp"]);
        text.parse()
            .unwrap_or_else(|error| panic!("{text:?} is not a timestamp: {error}"))
    }

    /// Mines `count` blocks.
    pub fn mine(&self, count: u32) {
        self.cast(&["rpc", "anvil_mine", &format!("0x{count:x}")]);
    }

    /// `evm_snapshot`.
    pub fn snapshot(&self) -> String {
        self.cast(&["rpc", "evm_snapshot"]).trim_matches('"').to_owned()
    }

    /// `evm_revert` to `snapshot`.
    pub fn revert(&self, snapshot: &str) {
        self.cast(&["rpc", "evm_revert", snapshot]);
    }

    /// Deploys the platform's contracts and the test token from [`DEPLOYER_KEY`] (the library path of
    /// `payments-server chain bootstrap --with-test-token`).
    pub async fn bootstrap(&self) -> crate::ChainContracts {
        let plan = crate::BootstrapPlan {
            rpc_url: url::Url::parse(&self.rpc_url)
                .unwrap_or_else(|error| panic!("{}: {error}", self.rpc_url)),
            deployer_key: crate::RelayerKey::parse(DEPLOYER_KEY)
                .unwrap_or_else(|error| panic!("the deployer key: {error}")),
            with_test_token: true,
            token: None,
        };
        crate::chain::bootstrap::bootstrap(&plan)
            .await
            .unwrap_or_else(|error| panic!("bootstrapping the contracts: {error}"))
    }
}

/// cast prints `123 [1.23e2]` for large numbers.
fn cast_uint(text: &str) -> u128 {
    text.split_whitespace()
        .next()
        .unwrap_or_default()
        .parse()
        .unwrap_or_else(|error| panic!("{text:?} is not a number: {error}"))
}

impl Drop for Anvil {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}
