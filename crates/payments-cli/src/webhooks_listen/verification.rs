//! Which secrets the listener verifies with: those given (`--secret`, or `--key` with `--no-endpoint`), or
//! its temporary endpoint's secret, known once the endpoint is registered.

use std::time::Duration;

use webhook_verify::{Tolerance, Verifier, WebhookSecret};

use super::ListenArgs;
use super::temporary_endpoint::EndpointPlan;
use crate::connection::ConnectionArgs;
use crate::report::{failure, failure_with_hint};
use crate::webhook_keys::{api_key, webhook_secret, whsec_for_api_key};

/// How deliveries are verified.
#[derive(Debug)]
#[allow(clippy::large_enum_variant, reason = "made once per run")]
pub(super) enum Verification {
    /// The secrets are known now: `--secret`, or `--key` with `--no-endpoint`.
    Ready(Verifier),
    /// A temporary endpoint is registered first; its secret verifies its deliveries, and the keys'
    /// `whsec_` forms verify what a receipt's `webhook_url` or a plan's `webhookUrl` sends here.
    Endpoint {
        plan: EndpointPlan,
        key_secrets: Vec<WebhookSecret>,
        tolerance: Tolerance,
    },
}

impl Verification {
    /// The verification `args` ask for.
    ///
    /// # Errors
    /// `missing_key` when neither a key nor a secret was given, `invalid_key` / `invalid_secret` for a
    /// malformed one (never quoted), `invalid_url` for `--url` without a scheme.
    pub(super) fn of(args: &ListenArgs) -> anyhow::Result<Verification> {
        if args.no_endpoint || !args.secrets.is_empty() {
            return given_secrets(args).map(Verification::Ready);
        }
        let Some(first) = args.keys.first() else {
            return Err(missing_key());
        };
        let key_secrets = args
            .keys
            .iter()
            .map(|key| {
                api_key(key)?;
                WebhookSecret::from_api_key(key.expose())
                    .map_err(|error| failure("invalid_key", error.to_string()))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let client = ConnectionArgs::with_key(&args.url, first.expose()).keyed_client()?;
        Ok(Verification::Endpoint {
            plan: EndpointPlan {
                client,
                service_url: args.url.clone(),
                events: args.events.clone(),
            },
            key_secrets,
            tolerance: tolerance(args),
        })
    }
}

/// The verifier of the temporary endpoint's `secret` beside the keys' `whsec_` forms.
///
/// # Errors
/// `invalid_secret` when the service's secret is not a `whsec_` secret.
pub(super) fn endpoint_verifier(
    secret: &str,
    key_secrets: Vec<WebhookSecret>,
    tolerance: Tolerance,
) -> anyhow::Result<Verifier> {
    let endpoint = WebhookSecret::new(secret).map_err(|error| {
        failure(
            "invalid_secret",
            format!("the service's endpoint secret: {error}"),
        )
    })?;
    let secrets = std::iter::once(endpoint).chain(key_secrets);
    let verifier = Verifier::from_webhook_secrets(secrets)
        .map_err(|error| failure("invalid_secret", error.to_string()))?;
    Ok(verifier.with_tolerance(tolerance))
}

/// The verifier of the given secrets (`--secret` wins over `--key`).
fn given_secrets(args: &ListenArgs) -> anyhow::Result<Verifier> {
    let built = if !args.secrets.is_empty() {
        let secrets = args
            .secrets
            .iter()
            .map(webhook_secret)
            .collect::<anyhow::Result<Vec<_>>>()?;
        Verifier::from_webhook_secrets(secrets)
    } else if !args.keys.is_empty() {
        let keys = args
            .keys
            .iter()
            .map(api_key)
            .collect::<anyhow::Result<Vec<_>>>()?;
        Verifier::from_api_keys(keys)
    } else {
        return Err(missing_key());
    };
    let verifier = built.map_err(|error| failure("invalid_key", error.to_string()))?;
    Ok(verifier.with_tolerance(tolerance(args)))
}

fn missing_key() -> anyhow::Error {
    failure_with_hint(
        "missing_key",
        "pass --key KEY (or set PAYMENTS_KEY) or --secret whsec_...",
        "--key registers a temporary endpoint for all your events; --secret verifies an endpoint you have",
    )
}

fn tolerance(args: &ListenArgs) -> Tolerance {
    match args.tolerance_secs {
        0 => Tolerance::Disabled,
        secs => Tolerance::Within(Duration::from_secs(secs)),
    }
}

/// The `whsec_` secrets the listener verifies with, to show like `stripe listen` does: those derived from
/// the API keys (the service signs its Standard Webhooks headers with the same key), or, with `--secret`,
/// none (the caller has them already and they are not repeated on the terminal).
pub(super) fn signing_secrets(args: &ListenArgs) -> Vec<String> {
    if args.secrets.is_empty() {
        args.keys.iter().map(whsec_for_api_key).collect()
    } else {
        Vec::new()
    }
}
