//! The card path's flags of `serve`: which onramp provider the payment page's "Pay with card" uses, its
//! secret (from a file or the environment; never printed), and, for tests and proxies, where its API answers
//! (docs/configuration.md, docs/payment-page.md).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;
use payments_core::OnrampProviderKind;
use payments_server::{OnrampConfig, Secret, ServerConfig};
use url::Url;

/// The card path.
#[derive(Debug, Args)]
pub(crate) struct OnrampArgs {
    /// Offer "Pay with card" on the payment page through this onramp provider (`stripe` or `coinbase`); it
    /// delivers the tokens to the receipt's deposit address. Without it the page has no card button.
    #[arg(long, env = "PAYMENTS_ONRAMP", value_name = "PROVIDER")]
    onramp: Option<OnrampProviderKind>,
    /// File holding the provider's secret: Stripe's secret key (`sk_...`), or Coinbase's CDP API key secret
    /// (Ed25519 base64, or an EC key as PEM). Never logged.
    #[arg(long, env = "PAYMENTS_ONRAMP_SECRET_FILE", value_name = "FILE")]
    onramp_secret_file: Option<PathBuf>,
    /// The provider's secret itself, for deployments that inject it into the environment (the file is
    /// preferred; the value is never shown).
    #[arg(
        long,
        env = "PAYMENTS_ONRAMP_SECRET",
        hide_env_values = true,
        value_name = "SECRET"
    )]
    onramp_secret: Option<String>,
    /// Coinbase: the CDP API key's id (`organizations/.../apiKeys/...` or its UUID).
    #[arg(long, env = "PAYMENTS_ONRAMP_KEY_ID")]
    onramp_key_id: Option<String>,
    /// The provider API's origin [default: https://api.stripe.com, https://api.cdp.coinbase.com].
    #[arg(long, env = "PAYMENTS_ONRAMP_API_URL")]
    onramp_api_url: Option<Url>,
    /// Seconds the provider has to create a session before the page is told to try again.
    #[arg(long, env = "PAYMENTS_ONRAMP_TIMEOUT_SECS", default_value_t = payments_server::DEFAULT_ONRAMP_TIMEOUT.as_secs())]
    onramp_timeout_secs: u64,
}

/// Applies the card path's flags; runs after the chain is known (the provider must deliver on it).
pub(crate) fn apply_onramp_args(config: &mut ServerConfig, args: &OnrampArgs) -> anyhow::Result<()> {
    let Some(provider) = args.onramp else {
        config.onramp = None;
        return Ok(());
    };
    let secret = match (&args.onramp_secret_file, &args.onramp_secret) {
        (Some(path), _) => Secret::new(
            std::fs::read_to_string(path)
                .with_context(|| format!("reading --onramp-secret-file {}", path.display()))?
                .trim(),
        ),
        (None, Some(secret)) => Secret::new(secret.trim()),
        (None, None) => anyhow::bail!(
            "--onramp {provider} needs its secret: --onramp-secret-file FILE (or PAYMENTS_ONRAMP_SECRET)"
        ),
    };
    let api_url = args.onramp_api_url.clone();
    let onramp = match provider {
        OnrampProviderKind::Stripe => OnrampConfig::stripe(secret, api_url),
        OnrampProviderKind::Coinbase => OnrampConfig::coinbase(
            args.onramp_key_id.as_deref().unwrap_or_default(),
            &secret,
            api_url,
        ),
        other => Err(format!("{other} is not supported by this build")),
    }
    .map_err(|error| anyhow::anyhow!("--onramp {provider}: {error}"))?
    .with_timeout(Duration::from_secs(args.onramp_timeout_secs.max(1)));
    onramp
        .network_for(config.chain_id)
        .map_err(|error| anyhow::anyhow!("--onramp {provider}: {error}"))?;
    config.onramp = Some(onramp);
    Ok(())
}
