//! Where the service is and which key to use: flags or environment, shared by every API command.

use std::time::Duration;

use anyhow::Context as _;
use clap::Args;
use payments_client::{Client, Error as ClientError, SubscriptionKey};

use crate::report::{failure, failure_with_hint, remember_secret};

/// How long a request may take by default.
const DEFAULT_TIMEOUT_SECS: u64 = 30;

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
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_TIMEOUT_SECS, global = true)]
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
    /// The options of a command that takes its key under another flag (`webhooks listen --key`): `url`
    /// with `key`, the default timeout, tables.
    pub(crate) fn with_key(url: &str, key: &str) -> ConnectionArgs {
        ConnectionArgs {
            url: url.to_owned(),
            key: Some(RedactedKey(SubscriptionKey::new(key))),
            json: false,
            timeout: DEFAULT_TIMEOUT_SECS,
        }
    }

    /// A client for these options, with the key when one was given: for the admin commands, which
    /// authenticate with the stored session instead.
    ///
    /// # Errors
    /// `invalid_url` for a URL without `http://` or `https://`, `invalid_key` for a key that cannot be a
    /// header value.
    pub(crate) fn client(&self) -> anyhow::Result<Client> {
        check_url(&self.url)?;
        let mut builder = Client::builder(&self.url)
            .timeout(Duration::from_secs(self.timeout))
            .user_agent(concat!("payments-cli/", env!("CARGO_PKG_VERSION")));
        if let Some(RedactedKey(key)) = &self.key {
            remember_secret(key.expose());
            // Checked here so that the message can say what is wrong without quoting the key.
            if key.expose().is_empty() || !key.expose().bytes().all(|b| b.is_ascii_graphic()) {
                return Err(failure(
                    "invalid_key",
                    "the subscription key (--key / PAYMENTS_KEY) contains spaces, line breaks or \
                     other characters a key never has",
                ));
            }
            builder = builder.subscription_key(key.clone());
        }
        builder.build().map_err(|error| match error {
            ClientError::Config(message) => {
                failure("invalid_url", format!("--url {:?}: {message}", self.url))
            }
            other => anyhow::Error::new(other),
        })
    }

    /// A client for the developer routes, which need the subscription key: its absence is reported
    /// here, before anything is sent, instead of as the service's bare 401.
    ///
    /// # Errors
    /// `missing_key`, and those of [`ConnectionArgs::client`].
    pub(crate) fn keyed_client(&self) -> anyhow::Result<Client> {
        if self.key.is_none() {
            return Err(failure(
                "missing_key",
                "this command needs a subscription key and none was given",
            ));
        }
        self.client()
    }
}

/// Refuses a URL without a scheme (`127.0.0.1:8080`) with the URL it probably meant. `http://` is not
/// assumed: the key would then travel in clear text to a host the user may have meant to reach over
/// HTTPS.
fn check_url(url: &str) -> anyhow::Result<()> {
    if url.contains("://") {
        return Ok(());
    }
    Err(failure_with_hint(
        "invalid_url",
        format!("--url {url:?} has no scheme"),
        format!("pass --url http://{url} (or https://{url}); set PAYMENTS_URL to keep it"),
    ))
}

/// Runs one async command on a small runtime of its own.
pub(crate) fn block_on<F: std::future::Future>(future: F) -> anyhow::Result<F::Output> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    Ok(runtime.block_on(future))
}
