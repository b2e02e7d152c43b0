//! The chain flags of `serve` and the `chain bootstrap` subcommand.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use clap::{Args, Subcommand};
use payments_core::Wallet;
use payments_server::{BootstrapPlan, ChainContracts, RelayerKey, ServerConfig};
use url::Url;

/// Where payments are watched and settled (docs/chain.md).
#[derive(Debug, Args)]
pub(crate) struct ChainArgs {
    /// JSON-RPC URL of an EVM node. Without it the server runs the in-process test-mode chain: keys and the
    /// payment page say so, and nothing moves real money.
    // Its value is never shown (help, `config check`): node URLs often carry an API key.
    #[arg(long, env = "PAYMENTS_CHAIN_RPC_URL", hide_env_values = true)]
    pub(crate) chain_rpc_url: Option<Url>,
    /// Run production mode on the in-process test-mode chain (simulated payments, sk_test_ keys, the test
    /// chain 31337 and its test token). Production mode without --chain-rpc-url refuses to start without it,
    /// so a server meant to be live never runs the test chain by a forgotten flag.
    #[arg(long, env = "PAYMENTS_TEST_MODE")]
    pub(crate) test_mode: bool,
    /// File holding the relayer's private key (0x-hex): it deploys splits, forwards deposits and
    /// distributes, paying the gas. Never logged. Without it paid receipts are not settled.
    #[arg(long, env = "PAYMENTS_RELAYER_KEY_FILE", value_name = "FILE")]
    pub(crate) relayer_key_file: Option<PathBuf>,
    /// Blocks on top of a transfer's block before it counts [default: 3 on a node, 0 on the test-mode chain].
    #[arg(long, env = "PAYMENTS_CONFIRMATIONS")]
    confirmations: Option<u64>,
    /// Settle paid receipts as soon as their payment is confirmed instead of once the chain's finalized block
    /// passed it (a reorganisation deeper than --confirmations can then remove money already forwarded to
    /// the split; the receipt still fails with PORTAL_PAYMENT_REORGED).
    #[arg(long, env = "PAYMENTS_SETTLE_BEFORE_FINALITY")]
    settle_before_finality: bool,
    /// Milliseconds between deposit-watcher passes once it has caught up with the chain.
    #[arg(long, env = "PAYMENTS_CHAIN_POLL_MS", default_value_t = payments_server::DEFAULT_CHAIN_POLL.as_millis() as u64)]
    chain_poll_ms: u64,
}

/// Applies the chain flags; runs after `--chain-contracts` was read.
pub(crate) fn apply_chain_args(config: &mut ServerConfig, args: &ChainArgs) -> anyhow::Result<()> {
    match (&args.chain_rpc_url, args.test_mode) {
        (Some(_), true) => anyhow::bail!(
            "--test-mode runs the in-process test-mode chain; it cannot be combined with --chain-rpc-url"
        ),
        (None, false) if !config.dev_mode => anyhow::bail!(
            "production mode needs a real chain: give --chain-rpc-url (PAYMENTS_CHAIN_RPC_URL) and \
             --chain-contracts; to run production on the in-process test-mode chain (simulated payments, \
             sk_test_ keys, test chain {}) say --test-mode",
            ChainContracts::DEVELOPMENT.chain_id
        ),
        _ => {}
    }
    config.chain_rpc_url = args.chain_rpc_url.clone();
    config.confirmations = args.confirmations;
    if args.settle_before_finality {
        config.settle_only_finalized = Some(false);
    }
    config.chain_poll = Duration::from_millis(args.chain_poll_ms.max(1));
    if let Some(path) = &args.relayer_key_file {
        config.relayer_key = Some(read_key(path).context("reading --relayer-key-file")?);
    }
    if config.chain_rpc_url.is_some() && config.chain_contracts.is_none() {
        if !config.dev_mode {
            anyhow::bail!(
                "--chain-rpc-url needs --chain-contracts FILE (what `payments-server chain bootstrap` prints) outside development mode"
            );
        }
        // Development against a fresh local anvil: the addresses `chain bootstrap --with-test-token` gives.
        let contracts = ChainContracts::DEVELOPMENT;
        config.chain_id = contracts.chain_id;
        config.token_address = contracts.token;
        config.chain_contracts = Some(contracts);
    }
    if config.is_test_mode() {
        // The test-mode chain is not a real one: payment instructions name the local test chain and token,
        // never a mainnet (the --chain-id/--token-address defaults) a tester's wallet could really pay on.
        if let Some(contracts) = config.chain_contracts
            && contracts.chain_id != ChainContracts::DEVELOPMENT.chain_id
        {
            anyhow::bail!(
                "the test-mode chain is the test chain {}: --chain-contracts names chain {}, a real chain \
                 (give --chain-rpc-url to run on it)",
                ChainContracts::DEVELOPMENT.chain_id,
                contracts.chain_id
            );
        }
        if config.chain_contracts.is_none() {
            config.chain_id = ChainContracts::DEVELOPMENT.chain_id;
            config.token_address = ChainContracts::DEVELOPMENT.token;
        }
    }
    Ok(())
}

#[derive(Debug, Args)]
pub(crate) struct ChainCommandArgs {
    #[command(subcommand)]
    command: ChainCommand,
}

#[derive(Debug, Subcommand)]
enum ChainCommand {
    /// Deploy the split and deposit factories (and the test token) and print the JSON object that
    /// --chain-contracts reads.
    Bootstrap {
        /// JSON-RPC URL of the node.
        #[arg(long, env = "PAYMENTS_CHAIN_RPC_URL")]
        rpc_url: Url,
        /// File holding the deployer's private key (0x-hex).
        #[arg(long, env = "PAYMENTS_DEPLOYER_KEY_FILE", value_name = "FILE")]
        deployer_key_file: PathBuf,
        /// Also deploy the 6-decimal test token (development and tests only).
        #[arg(long)]
        with_test_token: bool,
        /// The payment token already on the chain (e.g. USDC), when no test token is deployed.
        #[arg(long, env = "PAYMENTS_TOKEN_ADDRESS")]
        token_address: Option<Wallet>,
    },
}

/// Runs `chain …`.
pub(crate) fn chain_command(args: ChainCommandArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    match args.command {
        ChainCommand::Bootstrap {
            rpc_url,
            deployer_key_file,
            with_test_token,
            token_address,
        } => {
            let plan = BootstrapPlan {
                rpc_url,
                deployer_key: read_key(&deployer_key_file).context("reading --deployer-key-file")?,
                with_test_token,
                token: token_address,
            };
            let contracts = runtime
                .block_on(payments_server::chain_bootstrap(&plan))
                .context("deploying the contracts")?;
            println!(
                "{}",
                serde_json::to_string_pretty(&contracts).context("rendering the addresses")?
            );
            Ok(())
        }
    }
}

fn read_key(path: &Path) -> anyhow::Result<RelayerKey> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    RelayerKey::parse(&text).map_err(|error| anyhow::anyhow!("{}: {error}", path.display()))
}
