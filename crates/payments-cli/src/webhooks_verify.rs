//! `payments webhooks verify`: check a webhook signature offline, from a saved body and the header values.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{ArgGroup, Args};
use webhook_verify::{
    ApiKey, Tolerance, Verifier, VerifyError, WEBHOOK_ID, WEBHOOK_SIGNATURE, WEBHOOK_TIMESTAMP,
    WebhookSecret, X_SERVICE_SIGNATURE, X_SERVICE_TIMESTAMP,
};

const AFTER_HELP: &str = "\
Forms:
  X-Service:          --key KEY --body-file FILE --signature 'sha256=<hex>' [--timestamp MS]
  Standard Webhooks:  --secret whsec_... --id ID --sig-timestamp SECONDS --signature 'v1,<base64>' \
--body-file FILE

Prints `valid` and exits 0 when the signature holds. Prints `invalid: <reason>` to stderr and exits 1 when
it does not. Exits 2 on a usage error or an unreadable body file.";

/// Exit status when the check could not run (no key, unreadable body file), as for clap's usage errors.
const EXIT_ERROR: u8 = 2;

/// Verify a webhook's signature offline, from the saved raw body and the header values.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("scheme").required(true).args(["key", "secret"])))]
#[command(after_help = AFTER_HELP)]
pub(crate) struct VerifyArgs {
    /// API key that signed X-Service-Signature (the key that created the receipt).
    #[arg(long, value_name = "KEY")]
    key: Option<ApiKey>,

    /// Standard Webhooks secret, `whsec_<base64>`.
    #[arg(long, value_name = "WHSEC", requires_all = ["id", "sig_timestamp"])]
    secret: Option<WebhookSecret>,

    /// File holding the raw request body, byte for byte as received.
    #[arg(long, value_name = "FILE")]
    body_file: PathBuf,

    /// The signature header's value: `sha256=<hex>` with --key, `v1,<base64> [...]` with --secret.
    #[arg(long, value_name = "HEADER")]
    signature: String,

    /// X-Service-Timestamp value (Unix ms); when given, its freshness is checked too.
    #[arg(long, value_name = "MS", conflicts_with = "secret")]
    timestamp: Option<String>,

    /// webhook-id value (Standard Webhooks).
    #[arg(long, value_name = "ID", requires = "secret")]
    id: Option<String>,

    /// webhook-timestamp value, Unix seconds (Standard Webhooks); its freshness is checked.
    #[arg(long, value_name = "SECONDS", requires = "secret")]
    sig_timestamp: Option<String>,

    /// Freshness window in seconds, in both directions; 0 disables the freshness check.
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    tolerance_secs: u64,
}

/// Runs the check and reports it on stdout/stderr; the exit code says valid (0), invalid (1) or error (2).
pub(crate) fn run(args: &VerifyArgs) -> ExitCode {
    let Some(verifier) = verifier(args) else {
        eprintln!("error: pass --key or --secret");
        return ExitCode::from(EXIT_ERROR);
    };
    let body = match std::fs::read(&args.body_file) {
        Ok(body) => body,
        Err(err) => {
            eprintln!("error: cannot read body file {}: {err}", args.body_file.display());
            return ExitCode::from(EXIT_ERROR);
        }
    };
    match verifier.verify(&headers(args), &body) {
        Ok(_) => {
            println!("valid");
            ExitCode::SUCCESS
        }
        Err(err @ (VerifyError::Stale { .. } | VerifyError::FromTheFuture { .. })) => {
            eprintln!("invalid: {err} (--tolerance-secs 0 skips the freshness check)");
            ExitCode::FAILURE
        }
        Err(err) => {
            eprintln!("invalid: {err}");
            ExitCode::FAILURE
        }
    }
}

/// The verifier of the chosen scheme; freshness is checked only when a timestamp was given.
fn verifier(args: &VerifyArgs) -> Option<Verifier> {
    let tolerance = match args.tolerance_secs {
        0 => Tolerance::Disabled,
        secs => Tolerance::Within(Duration::from_secs(secs)),
    };
    if let Some(secret) = &args.secret {
        return Some(Verifier::standard_webhooks(secret.clone()).with_tolerance(tolerance));
    }
    let tolerance = if args.timestamp.is_some() {
        tolerance
    } else {
        Tolerance::Disabled
    };
    args.key
        .clone()
        .map(|key| Verifier::new(key).with_tolerance(tolerance))
}

/// The request headers the flags stand for.
fn headers(args: &VerifyArgs) -> Vec<(&'static str, &str)> {
    if args.secret.is_some() {
        return vec![
            (WEBHOOK_ID, args.id.as_deref().unwrap_or_default()),
            (
                WEBHOOK_TIMESTAMP,
                args.sig_timestamp.as_deref().unwrap_or_default(),
            ),
            (WEBHOOK_SIGNATURE, args.signature.as_str()),
        ];
    }
    let mut headers = vec![(X_SERVICE_SIGNATURE, args.signature.as_str())];
    if let Some(timestamp) = &args.timestamp {
        headers.push((X_SERVICE_TIMESTAMP, timestamp.as_str()));
    }
    headers
}
