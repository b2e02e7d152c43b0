//! The way forward for each failure: what to do about a code, and how a transport failure is named.

use payments_client::{ApiError, Error as ClientError, ErrorCode};

use crate::output::utc_ms;
use crate::report::{EXIT_FAILED, EXIT_TRANSPORT, EXIT_USAGE, Report, chain, with_correlation};

/// How to get a key, said wherever a key is missing or refused.
pub(crate) const KEY_HINT: &str = "set PAYMENTS_KEY or pass --key; a new server prints a key at its first \
                                   start, and `payments-server keys create` makes another";
const LOGIN_HINT: &str = "run `payments admin login --private-key-file FILE`";

/// The usual hint and the exit code of the CLI's own codes; an unlisted code exits 1 with no hint.
pub(crate) fn local_hint(code: &str) -> (&'static str, u8) {
    match code {
        "invalid_input" => (
            "fix the value named above; `--help` of the command shows the expected form",
            EXIT_USAGE,
        ),
        "invalid_csv" => (
            "fix the file; `payments inventory import --help` lists the columns",
            EXIT_USAGE,
        ),
        "io_error" => ("check the path and the file's permissions", EXIT_USAGE),
        "missing_key" => (KEY_HINT, EXIT_USAGE),
        "invalid_key" => (
            "copy the key again: one word of visible characters, no spaces or line breaks",
            EXIT_USAGE,
        ),
        "invalid_secret" => (
            "pass the webhook secret as whsec_ followed by base64, or the API key with --key",
            EXIT_USAGE,
        ),
        "invalid_headers" => (
            "the headers file holds one `Name: value` per line (as `curl -D` writes them) or a JSON \
             object of names to values",
            EXIT_USAGE,
        ),
        "missing_signature" => (
            "pass --signature, or --headers-file with the captured request headers",
            EXIT_USAGE,
        ),
        "invalid_url" => (
            "pass a full URL with its scheme, e.g. --url http://127.0.0.1:8080",
            EXIT_USAGE,
        ),
        // The admin session's state is not the command line's fault: these exit 1 like a refusal.
        "not_signed_in" | "session_expired" => (LOGIN_HINT, EXIT_FAILED),
        "insecure_key_file" | "insecure_session_file" => {
            ("make the file private with the chmod shown", EXIT_FAILED)
        }
        "invalid_key_file" => (
            "the file must hold the private key as 0x and 64 hex digits",
            EXIT_USAGE,
        ),
        "unauthorized" => (LOGIN_HINT, EXIT_FAILED),
        "import_failed" => (
            "fix the rows listed above and import again (rows are upserted by SKU, so a rerun is safe)",
            EXIT_FAILED,
        ),
        "import_stopped" => (
            "start or reach the server (`payments ping`), then import the same file again (rows are upserted by SKU, so a rerun is safe)",
            EXIT_FAILED,
        ),
        _ => ("", EXIT_FAILED),
    }
}

/// What to do about a refusal of the service.
pub(crate) fn api_hint(api: &ApiError) -> String {
    let hint = match api.code.known() {
        Some(ErrorCode::Unauthorized) => KEY_HINT.to_owned(),
        Some(ErrorCode::Forbidden) => {
            "`payments ping` lists the key's scopes; use a key with the scope this \
                                 command needs, or an admin session for admin commands"
                .to_owned()
        }
        Some(ErrorCode::SplitRequired) => {
            "configure the split first: `payments admin login --private-key-file \
                                     FILE` with the key's merchant wallet (a development server keeps it in \
                                     payments.db.dev-admin.key), then `payments split deploy`"
                .to_owned()
        }
        Some(ErrorCode::InvalidInput) => match &api.field {
            Some(field) => format!("fix `{field}` and run the command again"),
            None => "fix the value named in the message and run the command again".to_owned(),
        },
        Some(ErrorCode::ItemsRequired) => "pass at least one --item SKU:QTY".to_owned(),
        Some(ErrorCode::InventoryItemNotFound) => {
            "`payments inventory list` shows the SKUs that exist".to_owned()
        }
        Some(ErrorCode::OutOfStock) => {
            "order less, or raise the stock with `payments inventory upsert --stock`".to_owned()
        }
        Some(ErrorCode::NotFound) => {
            "check the id: `payments receipts list` and `payments inventory list` show existing ones"
                .to_owned()
        }
        Some(ErrorCode::Conflict) => "the id or SKU is taken; choose another".to_owned(),
        Some(ErrorCode::InvalidTransition) => {
            "`payments receipts status ID` shows the receipt's status; this change is not allowed from it"
                .to_owned()
        }
        Some(ErrorCode::IdempotencyConflict) => {
            "this idempotency key was used with a different request; use a new key".to_owned()
        }
        Some(ErrorCode::InvalidUsd) | Some(ErrorCode::InvalidAmount) => {
            "pass a positive USD amount with at most 2 decimals, within what remains".to_owned()
        }
        Some(ErrorCode::RefundTxNotFound) => {
            "send the refund from the merchant's wallet first and pass its mined transaction's hash \
             (in test mode, --simulate sends it)"
                .to_owned()
        }
        Some(ErrorCode::RefundTxMismatch) => {
            "the transaction must send at least --usd of the payment token to --buyer".to_owned()
        }
        Some(ErrorCode::RefundTxReused) => {
            "that transaction already proves a refund; each refund needs its own transfer".to_owned()
        }
        Some(ErrorCode::InvalidWallet) | Some(ErrorCode::InvalidBuyer) => {
            "pass a wallet as 0x and 40 hex digits".to_owned()
        }
        Some(ErrorCode::RateLimited) => match api.reset_at {
            Some(reset_at) => format!("wait until {} and run it again", utc_ms(reset_at)),
            None => "wait a moment and run it again".to_owned(),
        },
        Some(ErrorCode::DatastoreUnavailable) => "nothing was changed; run it again in a moment".to_owned(),
        Some(ErrorCode::ChainUnavailable) => {
            "the server cannot reach its chain node; run it again in a moment".to_owned()
        }
        Some(ErrorCode::Deprecated) => "this route is gone; see the message for its replacement".to_owned(),
        Some(ErrorCode::PlatformRecipientNotConfigured) => {
            "the server's operator must set the platform recipient".to_owned()
        }
        Some(ErrorCode::Failed) => {
            "the service failed; run it again, and report it if it persists".to_owned()
        }
        None if !api.has_envelope() && api.status >= 500 => {
            "the service or a proxy in front of it failed; run it again in a moment".to_owned()
        }
        None if !api.has_envelope() => {
            "the answer is not the service's; check that --url points at the payments service".to_owned()
        }
        _ => "see the message; this CLI may be older than the server (`payments --version`)".to_owned(),
    };
    if api.status >= 500 {
        with_correlation(&hint, api.correlation_id.as_deref())
    } else {
        hint
    }
}

/// The report of a request that did not complete: refused connection, timeout, or a broken exchange.
pub(crate) fn transport_report(error: &ClientError) -> Report {
    let ClientError::Transport { source } = error else {
        return Report {
            code: "transport_error".to_owned(),
            message: chain(error),
            hint: String::new(),
            exit: EXIT_TRANSPORT,
        };
    };
    let origin = source.url().map_or_else(
        || "the service".to_owned(),
        |url| url.origin().ascii_serialization(),
    );
    let (code, message, hint) = if error.is_https_to_plain_http() {
        let plain = origin.replacen("https://", "http://", 1);
        (
            "connection_failed",
            format!("{origin} answered in plain HTTP, not HTTPS"),
            format!(
                "use --url {plain} (the payments server speaks plain HTTP unless a TLS proxy is in front of \
                 it), or the proxy's https:// address"
            ),
        )
    } else if source.is_timeout() {
        (
            "timeout",
            format!("{origin} did not answer in time"),
            "raise --timeout (seconds), or check that the server is healthy".to_owned(),
        )
    } else if source.is_connect() {
        let refused = io_kind(source) == Some(std::io::ErrorKind::ConnectionRefused);
        let why = if refused {
            "connection refused".to_owned()
        } else {
            innermost(source)
        };
        let hint = if refused {
            format!(
                "start the server (`payments-server`), or point --url / PAYMENTS_URL at it (now {origin})"
            )
        } else {
            "check --url / PAYMENTS_URL, the host name and the network".to_owned()
        };
        (
            "connection_failed",
            format!("cannot connect to {origin}: {why}"),
            hint,
        )
    } else {
        (
            "transport_error",
            format!("the exchange with {origin} failed: {}", innermost(source)),
            "check the network or proxy between here and the service, then run it again".to_owned(),
        )
    };
    Report {
        code: code.to_owned(),
        message,
        hint,
        exit: EXIT_TRANSPORT,
    }
}

/// The kind of the I/O error at the root of `error`, if any.
fn io_kind(error: &(dyn std::error::Error + 'static)) -> Option<std::io::ErrorKind> {
    let mut cause = Some(error);
    while let Some(current) = cause {
        if let Some(io) = current.downcast_ref::<std::io::Error>() {
            return Some(io.kind());
        }
        cause = current.source();
    }
    None
}

/// The deepest cause's text: the library layers above it add nothing a person can act on.
fn innermost(error: &(dyn std::error::Error + 'static)) -> String {
    let mut current = error;
    while let Some(next) = current.source() {
        current = next;
    }
    current.to_string()
}
