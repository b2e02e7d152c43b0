//! `payments-server config check`: validates the configuration `serve` would run with, without starting
//! (nothing is bound, created or migrated), and prints it as a TOML config file with secrets redacted.
//!
//! stdout: the effective settings, each with where it came from (`flag`, `env`, `file`, `default`); stderr:
//! one line per problem (`error: …`, `warning: …`). Exit 0 when there is no error, 1 otherwise.

use std::path::Path;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, Command, Subcommand};
use payments_server::{DatabaseLocation, DatabaseState};
use url::Url;

use crate::cli::config_file::{CONFIG_FLAG, ConfigFile};
use crate::cli::serve_args::{ServeArgs, build_config};

/// `config …`.
#[derive(Debug, Args)]
pub(crate) struct ConfigArgs {
    #[command(subcommand)]
    command: ConfigCommand,
}

#[derive(Debug, Subcommand)]
enum ConfigCommand {
    /// Validate the configuration (flags, PAYMENTS_* environment, --config file) without starting: the
    /// database opens, the contracts and key files read, the URLs are usable. Prints the effective settings
    /// as TOML, secrets redacted; exit 1 with one line per problem.
    // Boxed: the serve flags are many (clippy `large_enum_variant`).
    Check(Box<ServeArgs>),
}

/// What a check found; errors make the exit code 1.
#[derive(Debug, Default)]
struct Findings {
    errors: Vec<String>,
    warnings: Vec<String>,
    notes: Vec<String>,
}

/// Runs `config check`; `command` and `matches` are those of the `config` subcommand (for the printout).
pub(crate) fn run(
    args: ConfigArgs,
    command: &Command,
    matches: &ArgMatches,
    file: Option<&ConfigFile>,
) -> anyhow::Result<bool> {
    let ConfigCommand::Check(serve) = args.command;
    let (Some(check_command), Some(check_matches)) = (
        command.find_subcommand("check"),
        matches.subcommand_matches("check"),
    ) else {
        anyhow::bail!("config: a subcommand is needed (config check)");
    };
    let findings = check(&serve)?;
    print!("{}", render(check_command, check_matches, file, &findings));
    for warning in &findings.warnings {
        eprintln!("warning: {warning}");
    }
    for error in &findings.errors {
        eprintln!("error: {error}");
    }
    if findings.errors.is_empty() {
        eprintln!("ok: the configuration is valid");
    }
    Ok(findings.errors.is_empty())
}

fn check(args: &ServeArgs) -> anyhow::Result<Findings> {
    let mut findings = Findings::default();
    let dev_mode = match build_config(args) {
        Ok(prepared) => {
            let config = prepared.config;
            findings.notes.push(format!(
                "development mode: {}",
                if config.dev_mode { "on" } else { "off" }
            ));
            findings.notes.push(if config.is_test_mode() {
                "chain: test mode (in-process chain, no real money; keys are issued as sk_test_...)"
                    .to_owned()
            } else {
                format!(
                    "chain: {} (chain id {}, {} confirmations; keys are issued as sk_live_...)",
                    redact_url(config.chain_rpc_url.as_ref()),
                    config.chain_id,
                    config.effective_confirmations()
                )
            });
            check_urls(
                &config.base_url,
                config.chain_rpc_url.as_ref(),
                config.dev_mode,
                &mut findings,
            );
            if !config.dev_mode && config.jwt_secret.expose().len() < 32 {
                findings.warnings.push(
                    "--jwt-secret is shorter than 32 characters: use `openssl rand -hex 32`".to_owned(),
                );
            }
            config.dev_mode
        }
        Err(error) => {
            findings.errors.push(format!("{error:#}"));
            args.dev.unwrap_or(false)
        }
    };
    check_database(&args.db, &mut findings)?;
    if let Some(path) = &args.chain.relayer_key_file {
        check_private_file(path, "--relayer-key-file", dev_mode, &mut findings);
    }
    Ok(findings)
}

fn check_urls(base_url: &Url, rpc_url: Option<&Url>, dev_mode: bool, findings: &mut Findings) {
    if !matches!(base_url.scheme(), "http" | "https") || base_url.host().is_none() {
        findings.errors.push(format!(
            "--base-url {base_url}: needs http:// or https:// and a host"
        ));
    } else if base_url.scheme() == "http" && !dev_mode {
        findings.warnings.push(format!(
            "--base-url {base_url} is plain HTTP: buyers' payment links should be https:// (terminate TLS in \
             front of the server and give its public URL)"
        ));
    }
    if let Some(url) = rpc_url
        && (!matches!(url.scheme(), "http" | "https") || url.host().is_none())
    {
        findings.errors.push(format!(
            "--chain-rpc-url {}: needs http:// or https:// and a host",
            redact_url(Some(url))
        ));
    }
}

fn check_database(database: &DatabaseLocation, findings: &mut Findings) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| anyhow::anyhow!("starting the async runtime: {error}"))?;
    match runtime.block_on(payments_server::check_database(database)) {
        Ok(DatabaseState::Missing) => findings.notes.push(format!(
            "database: {database} does not exist yet; the first start creates it"
        )),
        Ok(DatabaseState::Uninitialised) => findings.notes.push(format!(
            "database: {database} opens and is empty; the first start creates the schema"
        )),
        Ok(DatabaseState::Schema(version)) => findings
            .notes
            .push(format!("database: {database} opens, schema version {version}")),
        Ok(_) => findings.notes.push(format!("database: {database} opens")),
        Err(error) => findings.errors.push(format!("database {database}: {error}")),
    }
    Ok(())
}

/// A key file others may read is no longer private: an error in production, a warning in development (the
/// repository's anvil key is a public test key).
fn check_private_file(path: &Path, flag: &str, dev_mode: bool, findings: &mut Findings) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let Ok(metadata) = std::fs::metadata(path) else {
            // Unreadable files are reported by the configuration itself.
            return;
        };
        let mode = metadata.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            let message = format!(
                "{flag} {}: mode {mode:o} lets other users read the key; run `chmod 600 {}`",
                path.display(),
                path.display()
            );
            if dev_mode {
                findings.warnings.push(message);
            } else {
                findings.errors.push(message);
            }
        }
    }
    #[cfg(not(unix))]
    let _ = (path, flag, dev_mode, findings);
}

/// `scheme://host:port` of a URL whose path, query or credentials may hold an API key.
fn redact_url(url: Option<&Url>) -> String {
    let Some(url) = url else {
        return "none".to_owned();
    };
    let mut shown = format!("{}://{}", url.scheme(), url.host_str().unwrap_or_default());
    if let Some(port) = url.port() {
        shown.push_str(&format!(":{port}"));
    }
    let hidden = url.path() != "/" || url.query().is_some() || !url.username().is_empty();
    if hidden {
        shown.push_str("/[redacted]");
    }
    shown
}

/// The settings as a TOML file (every value as a string, which the file reader accepts for any flag), each
/// with its source; secrets (flags with hidden environment values) redacted.
fn render(command: &Command, matches: &ArgMatches, file: Option<&ConfigFile>, findings: &Findings) -> String {
    let mut out = String::from(
        "# payments-server configuration as `serve` would run it (precedence: flag > environment > config file > default)\n",
    );
    match file {
        Some(file) => out.push_str(&format!("# config file: {}\n", file.path().display())),
        None => out.push_str("# config file: none (--config FILE or PAYMENTS_CONFIG)\n"),
    }
    for note in &findings.notes {
        out.push_str(&format!("# {note}\n"));
    }
    for arg in command.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        if ["help", "version", CONFIG_FLAG].contains(&long) {
            continue;
        }
        let id = arg.get_id().as_str();
        let values: Vec<String> = matches
            .get_raw(id)
            .map(|raw| raw.map(|value| value.to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        let source = match matches.value_source(id) {
            Some(ValueSource::CommandLine) => "flag".to_owned(),
            Some(ValueSource::EnvVariable) => arg
                .get_env()
                .map_or("env".to_owned(), |env| format!("env {}", env.to_string_lossy())),
            Some(ValueSource::DefaultValue) if file.is_some_and(|file| file.sets(long)) => "file".to_owned(),
            _ => "default".to_owned(),
        };
        if values.is_empty() {
            out.push_str(&format!("# {long} is not set\n"));
            continue;
        }
        let secret = arg.is_hide_env_values_set();
        let shown: Vec<String> = values
            .iter()
            .map(|value| {
                toml_string(&if secret {
                    redact_value(value)
                } else {
                    value.clone()
                })
            })
            .collect();
        let value = if shown.len() == 1 && arg.get_value_delimiter().is_none() {
            shown.concat()
        } else {
            format!("[{}]", shown.join(", "))
        };
        out.push_str(&format!("{long} = {value}  # {source}\n"));
    }
    out
}

/// A secret's printable form: the scheme and host of a URL (where a PostgreSQL URL's password, a node's API
/// key live elsewhere), else nothing of it.
fn redact_value(value: &str) -> String {
    match Url::parse(value) {
        Ok(url) if url.host().is_some() => redact_url(Some(&url)),
        _ => "[redacted]".to_owned(),
    }
}

/// A TOML basic string: JSON's string escapes are all valid TOML.
fn toml_string(value: &str) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "\"\"".to_owned())
}
