//! `payments export ledger`: the merchant's ledger (every money movement as balanced entries), streamed to
//! stdout or a file as it arrives (scope receipts:read).

use std::fs::File;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Args, Subcommand, ValueEnum};
use payments_client::{LedgerFormat, LedgerRange};

use crate::connection::{ConnectionArgs, block_on};
use crate::report::exit_code;

/// Exports of your records.
#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    #[command(subcommand)]
    command: ExportCommand,
}

#[derive(Debug, Subcommand)]
enum ExportCommand {
    /// Every money movement (payments, overpayments, refunds, split shares, platform fees, subscription
    /// charges) as entries debiting one account and crediting another; CSV unless --format json.
    Ledger(LedgerArgs),
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Format {
    Csv,
    Json,
}

#[derive(Debug, Args)]
struct LedgerArgs {
    /// Movements recorded at or after this UTC date (2026-01-31) or time (2026-01-31T12:00:00Z).
    #[arg(long, value_name = "DATE")]
    from: Option<String>,
    /// Movements recorded before this UTC date or time.
    #[arg(long, value_name = "DATE")]
    to: Option<String>,
    #[arg(long, value_enum, default_value = "csv")]
    format: Format,
    /// Write to this file instead of stdout (a large export may need a longer --timeout).
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    connection: ConnectionArgs,
}

pub(crate) fn run(args: ExportArgs) -> ExitCode {
    let ExportCommand::Ledger(ledger) = args.command;
    exit_code(block_on(export_ledger(ledger)).and_then(|result| result))
}

async fn export_ledger(args: LedgerArgs) -> anyhow::Result<ExitCode> {
    let format = match args.format {
        Format::Csv => LedgerFormat::Csv,
        Format::Json => LedgerFormat::Json,
    };
    let range = LedgerRange::between(args.from.as_deref(), args.to.as_deref());
    let mut download = args
        .connection
        .keyed_client()?
        .export_ledger(&range, format)
        .await?;
    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => {
            Box::new(File::create(path).with_context(|| format!("cannot create {}", path.display()))?)
        }
        None => Box::new(io::stdout().lock()),
    };
    let mut written = 0_usize;
    while let Some(chunk) = download.next_chunk().await? {
        out.write_all(&chunk).context("cannot write the export")?;
        written += chunk.len();
    }
    out.flush().context("cannot write the export")?;
    if let Some(path) = &args.output {
        eprintln!("wrote {written} bytes to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
