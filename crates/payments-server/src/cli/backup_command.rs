//! `payments-server backup --to FILE`: a consistent copy of a live SQLite database (SQLite's online backup
//! API), safe while the server runs; copying the file itself is not (the WAL holds recent writes).

use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;
use payments_server::DatabaseLocation;

use crate::cli::serve_args::parse_database;

/// `backup`'s flags.
#[derive(Debug, Args)]
pub(crate) struct BackupArgs {
    /// The server's SQLite database.
    #[arg(long, env = "PAYMENTS_DB", default_value = "payments.db", hide_env_values = true, value_parser = parse_database)]
    db: DatabaseLocation,
    /// The new file to write (refused if it exists), created with mode 0600.
    #[arg(long, env = "PAYMENTS_BACKUP_TO", value_name = "FILE")]
    to: PathBuf,
}

/// Runs `backup`.
pub(crate) fn backup(args: BackupArgs) -> anyhow::Result<()> {
    let Some(from) = args.db.sqlite_path() else {
        anyhow::bail!(
            "backup copies a SQLite database; back up PostgreSQL with pg_dump or your provider's snapshots \
             (docs/production.md)"
        );
    };
    payments_server::backup_sqlite(from, &args.to).context("backup failed")?;
    let bytes = std::fs::metadata(&args.to)
        .map(|metadata| metadata.len())
        .unwrap_or(0);
    println!(
        "backed up {} to {} ({bytes} bytes)",
        from.display(),
        args.to.display()
    );
    Ok(())
}
