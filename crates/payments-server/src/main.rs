//! `payments-server`: run the HTTP server (default), check its configuration, back up its database,
//! administer subscription keys, or reconcile the database with the chain.

mod cli;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _, Parser, Subcommand};

use crate::cli::config_file::{self, ConfigFile};
use crate::cli::serve_args::ServeArgs;
use crate::cli::{backup_command, chain_args, config_check, keys_command, reconcile_command, serve};

/// Merchant payments server. Without a subcommand it runs `serve`.
#[derive(Debug, Parser)]
#[command(version, args_conflicts_with_subcommands = true)]
struct Cli {
    /// TOML file of settings: its keys are the flags' names (`listen = "0.0.0.0:8080"`, `chain-rpc-url =
    /// "..."`). A flag beats its PAYMENTS_* variable, which beats the file, which beats the built-in default
    /// (docs/configuration.md).
    #[arg(long, env = config_file::CONFIG_ENV, value_name = "FILE", global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the HTTP server (the default).
    // Boxed: the serve flags are many and `Keys` is small (clippy `large_enum_variant`).
    Serve(Box<ServeArgs>),
    /// Validate the configuration without starting (`config check`).
    Config(config_check::ConfigArgs),
    /// Copy the SQLite database to a new file while the server runs (SQLite's online backup API).
    Backup(backup_command::BackupArgs),
    /// Create, list, revoke and rotate subscription keys.
    Keys(keys_command::KeysArgs),
    /// Deploy the platform's contracts on a chain (`chain bootstrap`).
    Chain(chain_args::ChainCommandArgs),
    /// Compare the database with the chain: payments, settlements, refunds, subscription charges (exit 1 on
    /// a difference).
    // Boxed like `Serve`: it carries the server's flags.
    Reconcile(Box<reconcile_command::ReconcileArgs>),
}

fn main() -> ExitCode {
    match run(std::env::args_os().collect()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            // One line: the cause chain joined by ": ".
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Parses the command line over the config file's values and runs the command; `Ok(false)`: a check failed
/// and said why.
fn run(raw: Vec<OsString>) -> anyhow::Result<bool> {
    let file = ConfigFile::locate(&raw)
        .map(|path| ConfigFile::read(&path))
        .transpose()?;
    let mut command = Cli::command();
    if let Some(file) = &file {
        command = file.apply(command)?;
    }
    let matches = match command.clone().try_get_matches_from(raw) {
        Ok(matches) => matches,
        Err(error) => {
            let tip = cli::flag_tips::tip_for(&error);
            let _ = error.print();
            if let Some(tip) = tip {
                eprintln!("\n  tip: {tip}");
            }
            std::process::exit(error.exit_code());
        }
    };
    let cli = Cli::from_arg_matches(&matches).map_err(|error| error.format(&mut command).exit())?;
    match cli.command {
        None => serve::serve(cli.serve).map(|()| true),
        Some(Command::Serve(args)) => serve::serve(*args).map(|()| true),
        Some(Command::Config(args)) => {
            let (Some(config_command), Some(config_matches)) = (
                command.find_subcommand("config"),
                matches.subcommand_matches("config"),
            ) else {
                anyhow::bail!("config: the command line did not parse as `config check`");
            };
            config_check::run(args, config_command, config_matches, file.as_ref())
        }
        Some(Command::Backup(args)) => backup_command::backup(args).map(|()| true),
        Some(Command::Keys(args)) => keys_command::keys(args).map(|()| true),
        Some(Command::Chain(args)) => chain_args::chain_command(args).map(|()| true),
        Some(Command::Reconcile(args)) => reconcile_command::reconcile(*args),
    }
}
#[cfg(test)]
mod tests {
    use clap::CommandFactory as _;

    use super::Cli;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    /// Every flag, of today and of tomorrow, must be settable from the environment and explained by --help.
    #[test]
    fn every_serve_flag_has_an_env_var_and_help_text() {
        let cli = Cli::command();
        let flags: Vec<_> = cli
            .get_arguments()
            .filter(|arg| {
                arg.get_long()
                    .is_some_and(|long| long != "help" && long != "version")
            })
            .collect();

        assert!(flags.len() >= 18, "only {} flags found", flags.len());
        for flag in flags {
            let long = flag.get_long().unwrap_or_default();
            let env = flag.get_env().and_then(|env| env.to_str()).unwrap_or_default();
            assert!(env.starts_with("PAYMENTS_"), "--{long} has no PAYMENTS_* env var");
            assert!(flag.get_help().is_some(), "--{long} has no help text");
        }
    }
}
