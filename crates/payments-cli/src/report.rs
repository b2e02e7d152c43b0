//! How a failed command is shown: `error: <code>: <message>` on stderr and exit code 1.

use std::process::ExitCode;

use payments_client::Error as ClientError;

/// A failure detected by the CLI itself (bad file, bad value), with a code like the service's.
#[derive(Debug)]
pub(crate) struct CliFailure {
    pub(crate) code: &'static str,
    pub(crate) message: String,
}

impl std::fmt::Display for CliFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for CliFailure {}

/// Builds an [`anyhow::Error`] carrying a [`CliFailure`].
pub(crate) fn failure(code: &'static str, message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(CliFailure {
        code,
        message: message.into(),
    })
}

/// `code: message` of an error: the service's code when it refused, the CLI's own code for local
/// failures, `transport_error` / `decode_error` around the wire.
pub(crate) fn describe(error: &anyhow::Error) -> String {
    for cause in error.chain() {
        if let Some(failure) = cause.downcast_ref::<CliFailure>() {
            return failure.to_string();
        }
        if let Some(client) = cause.downcast_ref::<ClientError>() {
            return describe_client(client);
        }
    }
    format!("failed: {error:#}")
}

/// `code: message` of a client error.
pub(crate) fn describe_client(error: &ClientError) -> String {
    let (code, message) = client_code_and_message(error);
    format!("{code}: {message}")
}

/// The code and message of a client error: the service's for a refusal, a CLI code otherwise.
pub(crate) fn client_code_and_message(error: &ClientError) -> (String, String) {
    match error {
        ClientError::Api(api) => (api.code.to_string(), api.message.clone()),
        ClientError::Transport { source } => ("transport_error".to_owned(), chain(source)),
        ClientError::Decode { .. } => ("decode_error".to_owned(), chain(error)),
        other => ("client_error".to_owned(), chain(other)),
    }
}

fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// Prints the error of a failed command and gives the exit code; passes a success code through.
pub(crate) fn exit_code(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {}", describe(&error));
            ExitCode::FAILURE
        }
    }
}
