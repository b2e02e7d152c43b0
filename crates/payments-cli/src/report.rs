//! How a failed command is shown and which exit code it gives.
//!
//! One line on stderr, `error: <code>: <message> (hint: <fix>)`, or with `--json` one JSON object on
//! stderr, `{"error": code, "message": text, "hint": fix}` (stdout keeps whatever result was printed, e.g.
//! an import's summary, so it stays one parseable document). The code is the service's when it refused, else one of
//! the CLI's own (README, "Errors and exit codes"). Exit codes: 1 the service refused (or the command
//! failed otherwise), 2 usage (the command line or a local input is wrong; nothing was sent), 3 transport
//! (the service could not be reached or answered something unreadable).

use std::process::ExitCode;
use std::sync::OnceLock;

use payments_client::Error as ClientError;
use serde_json::json;

use crate::hints::{api_hint, local_hint, transport_report};

/// Exit code of a refusal by the service, and of failures that are neither usage nor transport.
pub(crate) const EXIT_FAILED: u8 = 1;
/// Exit code of a wrong command line or local input (clap's own usage errors exit 2 too).
pub(crate) const EXIT_USAGE: u8 = 2;
/// Exit code of a service that could not be reached, timed out, or answered an unreadable body.
pub(crate) const EXIT_TRANSPORT: u8 = 3;

/// Whether errors are printed as JSON (`--json` anywhere on the command line); set once by `main`.
static JSON_ERRORS: OnceLock<bool> = OnceLock::new();
/// The subscription key in use, scrubbed from every message as a last line of defence.
static SECRET: OnceLock<String> = OnceLock::new();

/// Prints errors as JSON from now on when `json` is set.
pub(crate) fn set_json_errors(json: bool) {
    let _ = JSON_ERRORS.set(json);
}

/// Remembers the key so that no error message can echo it.
pub(crate) fn remember_secret(key: &str) {
    if !key.is_empty() {
        let _ = SECRET.set(key.to_owned());
    }
}

/// A failure detected by the CLI itself (bad file, bad value, no key), with a code like the service's.
#[derive(Debug)]
pub(crate) struct CliFailure {
    pub(crate) code: &'static str,
    pub(crate) message: String,
    /// How to fix it; `None` takes the code's usual hint.
    pub(crate) hint: Option<String>,
}

impl std::fmt::Display for CliFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for CliFailure {}

/// Builds an [`anyhow::Error`] carrying a [`CliFailure`] with the code's usual hint.
pub(crate) fn failure(code: &'static str, message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(CliFailure {
        code,
        message: message.into(),
        hint: None,
    })
}

/// Like [`failure`], with a hint of its own.
pub(crate) fn failure_with_hint(
    code: &'static str,
    message: impl Into<String>,
    hint: impl Into<String>,
) -> anyhow::Error {
    anyhow::Error::new(CliFailure {
        code,
        message: message.into(),
        hint: Some(hint.into()),
    })
}

/// What is printed for a failure, and the exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Report {
    pub(crate) code: String,
    pub(crate) message: String,
    pub(crate) hint: String,
    pub(crate) exit: u8,
}

impl Report {
    /// The one-line text form, without the `error: ` prefix.
    pub(crate) fn line(&self) -> String {
        let message = self.message.replace(['\n', '\r'], " ");
        if self.hint.is_empty() {
            format!("{}: {message}", self.code)
        } else {
            format!("{}: {message} (hint: {})", self.code, self.hint)
        }
    }
}

/// The report of an error: the first [`CliFailure`] or client error in its chain decides.
pub(crate) fn report(error: &anyhow::Error) -> Report {
    for cause in error.chain() {
        if let Some(failure) = cause.downcast_ref::<CliFailure>() {
            let (hint, exit) = local_hint(failure.code);
            return Report {
                code: failure.code.to_owned(),
                message: failure.message.clone(),
                hint: failure.hint.clone().unwrap_or_else(|| hint.to_owned()),
                exit,
            };
        }
        if let Some(client) = cause.downcast_ref::<ClientError>() {
            return client_report(client);
        }
    }
    Report {
        code: "failed".to_owned(),
        message: format!("{error:#}"),
        hint: String::new(),
        exit: EXIT_FAILED,
    }
}

/// The report of a client error: the service's code for a refusal, a CLI code otherwise.
pub(crate) fn client_report(error: &ClientError) -> Report {
    match error {
        ClientError::Api(api) => Report {
            code: api.code.as_str().to_owned(),
            message: if api.message.is_empty() {
                format!("the service answered HTTP {}", api.status)
            } else {
                api.message.clone()
            },
            hint: api_hint(api),
            exit: EXIT_FAILED,
        },
        ClientError::Transport { .. } => transport_report(error),
        ClientError::Decode {
            status,
            correlation_id,
            ..
        } => Report {
            code: "decode_error".to_owned(),
            message: format!(
                "the {status} answer is not what this CLI expects: {}",
                chain(error)
            ),
            hint: with_correlation(
                "check that --url points at the payments service and that the CLI's version \
                 (`payments --version`) matches the server's",
                correlation_id.as_deref(),
            ),
            exit: EXIT_TRANSPORT,
        },
        ClientError::Protocol {
            correlation_id,
            message,
            ..
        } => Report {
            code: "protocol_error".to_owned(),
            message: message.clone(),
            hint: with_correlation(
                "a proxy between here and the service may strip headers or cookies; try the server directly",
                correlation_id.as_deref(),
            ),
            exit: EXIT_TRANSPORT,
        },
        ClientError::Config(message) => Report {
            code: "invalid_config".to_owned(),
            message: message.clone(),
            hint: "check --url (PAYMENTS_URL) and --key (PAYMENTS_KEY)".to_owned(),
            exit: EXIT_USAGE,
        },
        ClientError::Signing(message) => Report {
            code: "signing_error".to_owned(),
            message: message.clone(),
            hint: "check the private key file given to `payments admin login`".to_owned(),
            exit: EXIT_USAGE,
        },
        // The client's error enum may grow: a newer variant is still reported, with its text.
        other => Report {
            code: "failed".to_owned(),
            message: chain(other),
            hint: String::new(),
            exit: EXIT_FAILED,
        },
    }
}

/// `hint`, plus the correlation id to quote when asking for support.
pub(crate) fn with_correlation(hint: &str, correlation_id: Option<&str>) -> String {
    match correlation_id {
        Some(id) => format!("{hint}; quote correlation id {id} when reporting it"),
        None => hint.to_owned(),
    }
}

/// An error and its sources, `: `-separated.
pub(crate) fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// Prints the error of a failed command and gives its exit code; passes a success code through.
pub(crate) fn exit_code(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(error) => {
            let report = scrub(report(&error));
            if JSON_ERRORS.get().copied().unwrap_or(false) {
                let document = json!({
                    "error": report.code,
                    "message": report.message,
                    "hint": report.hint,
                });
                eprintln!("{document}");
            } else {
                eprintln!("error: {}", report.line());
            }
            ExitCode::from(report.exit)
        }
    }
}

/// Replaces the key, wherever it appears, by `[redacted]`.
fn scrub(mut report: Report) -> Report {
    if let Some(secret) = SECRET.get() {
        report.message = report.message.replace(secret.as_str(), "[redacted]");
        report.hint = report.hint.replace(secret.as_str(), "[redacted]");
    }
    report
}

#[cfg(test)]
mod tests {
    use super::{EXIT_USAGE, Report, failure, report};

    #[test]
    fn a_report_is_one_line_with_its_hint() {
        let report = Report {
            code: "x".to_owned(),
            message: "two\nlines".to_owned(),
            hint: "do y".to_owned(),
            exit: 1,
        };
        assert_eq!(report.line(), "x: two lines (hint: do y)");
    }

    #[test]
    fn a_local_failure_keeps_its_code_and_gets_the_usual_hint() {
        let report = report(&failure("invalid_input", "--line \"x\": expected LABEL:PRICE"));
        assert_eq!(report.code, "invalid_input");
        assert_eq!(report.exit, EXIT_USAGE);
        assert!(!report.hint.is_empty());
    }
}
