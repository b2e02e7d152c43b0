//! `payments`: the command-line tool of the merchant payments service.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod webhooks_verify;

/// Command-line tool for the merchant payments service.
#[derive(Debug, Parser)]
#[command(name = "payments", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Work with the webhooks the service sends.
    Webhooks {
        #[command(subcommand)]
        command: WebhooksCommand,
    },
}

#[derive(Debug, Subcommand)]
enum WebhooksCommand {
    /// Verify a webhook's signature offline.
    Verify(webhooks_verify::VerifyArgs),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Webhooks {
            command: WebhooksCommand::Verify(args),
        } => webhooks_verify::run(&args),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory as _;

    #[test]
    fn the_command_line_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
