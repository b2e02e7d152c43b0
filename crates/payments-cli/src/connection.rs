//! Where the service is and which key to use: flags or environment, shared by every API command.

use std::time::Duration;

use anyhow::Context as _;
use clap::Args;
use payments_client::{Client, SubscriptionKey};

/// Connection and output options of the API commands.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Connection and output")]
pub(crate) struct ConnectionArgs {
    /// Base URL of the service.
    #[arg(
        long,
        env = "PAYMENTS_URL",
        default_value = "http://127.0.0.1:8080",
        global = true
    )]
    pub(crate) url: String,

    /// Subscription key (sent as X-Gateway-Subscription-Key; as x-api-key for `ping`).
    #[arg(long, env = "PAYMENTS_KEY", hide_env_values = true, global = true)]
    pub(crate) key: Option<RedactedKey>,

    /// Print machine-readable JSON instead of tables.
    #[arg(long, global = true)]
    pub(crate) json: bool,

    /// Seconds to wait for each request before giving up.
    #[arg(long, value_name = "SECONDS", default_value_t = 30, global = true)]
    pub(crate) timeout: u64,
}

/// The key as clap holds it: `Debug` prints `[redacted]`.
#[derive(Debug, Clone)]
pub(crate) struct RedactedKey(SubscriptionKey);

impl std::str::FromStr for RedactedKey {
    type Err = std::convert::Infallible;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(RedactedKey(SubscriptionKey::new(text)))
    }
}

impl ConnectionArgs {
    /// A client for these options.
    pub(crate) fn client(&self) -> anyhow::Result<Client> {
        let mut builder = Client::builder(&self.url)
            .timeout(Duration::from_secs(self.timeout))
            .user_agent(concat!("payments-cli/", env!("CARGO_PKG_VERSION")));
        if let Some(RedactedKey(key)) = &self.key {
            builder = builder.subscription_key(key.clone());
        }
        builder
            .build()
            .with_context(|| format!("cannot use --url {}", self.url))
    }
}

/// Runs one async command on a small runtime of its own.
pub(crate) fn block_on<F: std::future::Future>(future: F) -> anyhow::Result<F::Output> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    Ok(runtime.block_on(future))
}
