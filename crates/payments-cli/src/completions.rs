//! `payments completions SHELL`: a completion script generated from the command-line definition, so it
//! can never fall behind the commands.

use std::io::Write as _;
use std::process::ExitCode;

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use crate::report::{exit_code, failure};

pub(crate) const LONG_ABOUT: &str = "\
Print a shell completion script for `payments` on stdout.

  bash:  payments completions bash > ~/.local/share/bash-completion/completions/payments
  zsh:   payments completions zsh > \"${fpath[1]}/_payments\"   (then restart the shell)
  fish:  payments completions fish > ~/.config/fish/completions/payments.fish";

/// Which shell to print a script for.
#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: Shell,
}

/// Writes the script of `C`'s command line for the chosen shell.
pub(crate) fn run<C: CommandFactory>(args: &CompletionsArgs) -> ExitCode {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut C::command(), "payments", &mut script);
    let mut stdout = std::io::stdout().lock();
    let written = stdout.write_all(&script).and_then(|()| stdout.flush());
    exit_code(
        written
            .map(|()| ExitCode::SUCCESS)
            .map_err(|error| failure("io_error", format!("cannot write to stdout: {error}"))),
    )
}
