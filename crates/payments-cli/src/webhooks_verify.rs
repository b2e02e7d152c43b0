//! `payments webhooks verify`: check a webhook signature offline, from the saved raw body (a file or stdin)
//! and the header values (flags, or a captured headers file).

mod captured;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use serde_json::{Value, json};
use webhook_verify::{
    Event, Tolerance, Verifier, VerifyError, WEBHOOK_ID, WEBHOOK_SIGNATURE, WEBHOOK_TIMESTAMP, Webhook,
    X_SERVICE_SIGNATURE, X_SERVICE_TIMESTAMP,
};

use crate::output::print_json;
use crate::report::{exit_code, failure};
use crate::webhook_keys::{SecretText, api_key, webhook_secret};

const AFTER_HELP: &str = "\
Forms:
  X-Service:          --key KEY --body-file FILE --signature 'sha256=<hex>' [--timestamp MS]
  Standard Webhooks:  --secret whsec_... --id ID --sig-timestamp SECONDS --signature 'v1,<base64>' \
--body-file FILE
  Captured request:   --body-file body.json --headers-file headers.txt (with --key or --secret)

The key may come from PAYMENTS_KEY and the secret from PAYMENTS_WEBHOOK_SECRET (the secret wins). \
`--body-file -` reads the body from stdin. A headers file holds one `Name: value` per line (`curl -D`) or a \
JSON object; flags win over it.

Prints `valid` and exits 0 when the signature holds. Prints `invalid: <reason>` to stderr and exits 1 when \
it does not. With --json the result is one JSON object on stdout either way: {valid, scheme, ...} or \
{valid: false, error, message}. Exits 2 on a usage error or an unreadable file.";

/// Verify a webhook's signature offline, from the saved raw body and the header values.
#[derive(Debug, Args)]
#[command(after_help = AFTER_HELP)]
pub(crate) struct VerifyArgs {
    /// API key that signed X-Service-Signature (the key that created the receipt).
    #[arg(long, value_name = "KEY", env = "PAYMENTS_KEY", hide_env_values = true)]
    key: Option<SecretText>,

    /// Standard Webhooks secret, `whsec_<base64>`; wins over --key.
    #[arg(
        long,
        value_name = "WHSEC",
        env = "PAYMENTS_WEBHOOK_SECRET",
        hide_env_values = true
    )]
    secret: Option<SecretText>,

    /// File holding the raw request body, byte for byte as received; `-` reads it from stdin.
    #[arg(long, value_name = "FILE")]
    body_file: PathBuf,

    /// The captured request headers: `Name: value` lines, or a JSON object.
    #[arg(long, value_name = "FILE")]
    headers_file: Option<PathBuf>,

    /// The signature header's value: `sha256=<hex>` with --key, `v1,<base64> [...]` with --secret.
    #[arg(long, value_name = "HEADER")]
    signature: Option<String>,

    /// X-Service-Timestamp value (Unix ms); when given, its freshness is checked too.
    #[arg(long, value_name = "MS")]
    timestamp: Option<String>,

    /// webhook-id value (Standard Webhooks).
    #[arg(long, value_name = "ID")]
    id: Option<String>,

    /// webhook-timestamp value, Unix seconds (Standard Webhooks); its freshness is checked.
    #[arg(long, value_name = "SECONDS")]
    sig_timestamp: Option<String>,

    /// Freshness window in seconds, in both directions; 0 disables the freshness check.
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    tolerance_secs: u64,

    /// Print the result as one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs the check and reports it; the exit code says valid (0), invalid (1) or usage error (2).
pub(crate) fn run(args: &VerifyArgs) -> ExitCode {
    exit_code(check(args))
}

fn check(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let standard = args.secret.is_some();
    if args.headers_file.as_deref() == Some(std::path::Path::new("-")) && args.body_file.as_os_str() == "-" {
        return Err(failure(
            "invalid_input",
            "only one of --body-file and --headers-file can be read from stdin",
        ));
    }
    let mut headers = match &args.headers_file {
        Some(path) => captured::read_headers(path)?,
        None => Vec::new(),
    };
    for (name, value) in flag_headers(args, standard) {
        // A flag wins over the file: the file's value of that header is dropped.
        headers.retain(|(present, _)| !present.eq_ignore_ascii_case(name));
        headers.push((name.to_owned(), value.to_owned()));
    }
    let signature_header = if standard {
        WEBHOOK_SIGNATURE
    } else {
        X_SERVICE_SIGNATURE
    };
    if !headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case(signature_header))
    {
        return Err(failure(
            "missing_signature",
            format!("no {signature_header} value: neither --signature nor a headers file gave one"),
        ));
    }
    let timestamp_known = headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case(X_SERVICE_TIMESTAMP));
    let verifier = verifier(args, timestamp_known)?;
    let body = captured::read_body(&args.body_file)?;
    let result = verifier.verify(&headers, &body);
    report(args, &result, &body);
    Ok(if result.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The verifier of the chosen scheme (the secret wins); the X-Service freshness is checked only when a
/// timestamp is known.
fn verifier(args: &VerifyArgs, timestamp_known: bool) -> anyhow::Result<Verifier> {
    let tolerance = match args.tolerance_secs {
        0 => Tolerance::Disabled,
        secs => Tolerance::Within(Duration::from_secs(secs)),
    };
    if let Some(secret) = &args.secret {
        if args.key.is_some() {
            // Said out loud: a key exported in the environment must not look like it is being checked.
            eprintln!(
                "note: verifying the Standard Webhooks headers with --secret; --key / PAYMENTS_KEY is not used"
            );
        }
        return Ok(Verifier::standard_webhooks(webhook_secret(secret)?).with_tolerance(tolerance));
    }
    let Some(key) = &args.key else {
        return Err(failure(
            "missing_key",
            "pass --key (or set PAYMENTS_KEY) for X-Service-Signature, or --secret whsec_... for Standard Webhooks",
        ));
    };
    let tolerance = if timestamp_known {
        tolerance
    } else {
        Tolerance::Disabled
    };
    Ok(Verifier::new(api_key(key)?).with_tolerance(tolerance))
}

/// The headers the flags stand for.
fn flag_headers(args: &VerifyArgs, standard: bool) -> Vec<(&'static str, &str)> {
    let named: [(&'static str, Option<&String>); 3] = if standard {
        [
            (WEBHOOK_ID, args.id.as_ref()),
            (WEBHOOK_TIMESTAMP, args.sig_timestamp.as_ref()),
            (WEBHOOK_SIGNATURE, args.signature.as_ref()),
        ]
    } else {
        [
            (X_SERVICE_SIGNATURE, args.signature.as_ref()),
            (X_SERVICE_TIMESTAMP, args.timestamp.as_ref()),
            ("", None),
        ]
    };
    named
        .into_iter()
        .filter_map(|(name, value)| value.map(|value| (name, value.as_str())))
        .collect()
}

/// `valid` / `invalid: reason` as text, or one JSON object on stdout with `--json`.
fn report(args: &VerifyArgs, result: &Result<webhook_verify::Verified, VerifyError>, body: &[u8]) {
    let hint = "--tolerance-secs 0 skips the freshness check";
    match result {
        Ok(verified) if args.json => {
            let mut document = json!({ "valid": true, "scheme": scheme_name(verified.scheme) });
            if let (Value::Object(document), Value::Object(fields)) = (&mut document, event_fields(body)) {
                document.extend(fields);
            }
            if let Some(id) = &verified.webhook_id {
                document["webhookId"] = json!(id);
            }
            print_json(&document).ok();
        }
        Ok(_) => println!("valid"),
        Err(error) if args.json => {
            let mut document =
                json!({ "valid": false, "error": error_code(error), "message": error.to_string() });
            if is_freshness(error) {
                document["hint"] = json!(hint);
            }
            print_json(&document).ok();
        }
        Err(error) if is_freshness(error) => eprintln!("invalid: {error} ({hint})"),
        Err(error) => eprintln!("invalid: {error}"),
    }
}

/// What the body says, for `--json`: `event` (its type), `receiptId` or `subscriptionId`, `status`, and
/// `test: true` for a test event of a webhook endpoint. Nothing when the body is not an event.
fn event_fields(body: &[u8]) -> Value {
    let Ok(webhook) = Webhook::parse(body) else {
        return json!({});
    };
    let event = webhook.event();
    let mut fields = json!({ "event": event.event_type() });
    if let Event::ReceiptStatusUpdated(receipt) = event {
        fields["receiptId"] = json!(receipt.receipt_id);
        fields["status"] = json!(receipt.status.as_str());
    } else if let Some(subscription) = event.subscription() {
        fields["subscriptionId"] = json!(subscription.subscription_id);
        fields["status"] = json!(subscription.status.as_str());
    }
    if webhook.is_test() {
        fields["test"] = json!(true);
    }
    fields
}

fn is_freshness(error: &VerifyError) -> bool {
    matches!(
        error,
        VerifyError::Stale { .. } | VerifyError::FromTheFuture { .. }
    )
}

fn scheme_name(scheme: webhook_verify::Scheme) -> &'static str {
    match scheme {
        webhook_verify::Scheme::StandardWebhooks => "standard_webhooks",
        _ => "x_service",
    }
}

/// A stable code per reason, for scripts.
fn error_code(error: &VerifyError) -> &'static str {
    match error {
        VerifyError::MissingHeader { .. } => "missing_header",
        VerifyError::AmbiguousHeader { .. } => "ambiguous_header",
        VerifyError::MalformedHeader { .. } => "malformed_header",
        VerifyError::SignatureMismatch => "signature_mismatch",
        VerifyError::Stale { .. } => "stale",
        VerifyError::FromTheFuture { .. } => "from_the_future",
        _ => "invalid",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::event_fields;

    #[test]
    fn json_output_names_the_event_type_and_id_of_receipt_subscription_and_enveloped_events() {
        let receipt = br#"{"event":"receipt.status_updated","receiptId":"R-1","status":"paid"}"#;
        let subscription =
            br#"{"event":"subscription.canceled","subscriptionId":"csub_1","status":"canceled"}"#;
        let envelope = br#"{"id":"msg_1","type":"subscription.created","createdAt":1,"test":true,
            "data":{"subscriptionId":"csub_2","status":"active"}}"#;
        let unknown = br#"{"event":"receipt.underpaid","receiptId":"R-2"}"#;

        assert_eq!(
            event_fields(receipt),
            json!({"event": "receipt.status_updated", "receiptId": "R-1", "status": "paid"})
        );
        assert_eq!(
            event_fields(subscription),
            json!({"event": "subscription.canceled", "subscriptionId": "csub_1", "status": "canceled"})
        );
        assert_eq!(
            event_fields(envelope),
            json!({"event": "subscription.created", "subscriptionId": "csub_2", "status": "active", "test": true})
        );
        assert_eq!(event_fields(unknown), json!({"event": "receipt.underpaid"}));
        assert_eq!(event_fields(b"not json"), json!({}));
    }
}
