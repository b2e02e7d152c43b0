//! `bench-baseline`: bare hyper handlers that `bench/compare.sh` runs beside `payments-server`, on the same
//! machine and in the same run, so the server's throughput can be reported as a ratio against what the
//! same stack (hyper 1.x HTTP/1, a multi-thread tokio runtime, SQLite in WAL with one writer) does with
//! no application code in the way. Absolute requests/s depend on the machine and on what else it runs;
//! a ratio taken within one run mostly cancels that out.
//!
//! Two handlers, one per subcommand:
//! - `fixed-json`: a constant JSON body, no I/O: the ceiling of any JSON route (compare with the
//!   server's `GET /api/receipts/{id}`).
//! - `sqlite-order`: one SQLite transaction (two point reads and one insert) per POST, run the way a
//!   straightforward handler runs it: compare with the server's `POST /api/orders`.
//! - `pg-probe`: the same on PostgreSQL with the server's driver and pool: `GET /point` (a point select)
//!   and `POST /orders` (the order-shaped transaction); `bench/pg_compare.sh` runs it.

mod fixed_json;
mod pg_probe;
mod serve;
mod sqlite_order;

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use clap::{Parser, Subcommand};

/// Bare hyper handlers for side-by-side benchmarks of payments-server (bench/compare.sh).
#[derive(Debug, Parser)]
#[command(name = "bench-baseline", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Answer every request with the same ~100-byte JSON body (200, keep-alive).
    FixedJson {
        /// Port to listen on, on 127.0.0.1 (loopback only: this is a benchmark target, not a service).
        #[arg(long)]
        port: u16,
    },
    /// For every POST, run one SQLite transaction (shop by wallet, item by id, insert an order); 201.
    SqliteOrder {
        /// Port to listen on, on 127.0.0.1.
        #[arg(long)]
        port: u16,
        /// SQLite database file; created and seeded (shops, items) when empty.
        #[arg(long)]
        db: PathBuf,
    },
    /// `GET /point` (a point select by random id) and `POST /orders` (two selects and an insert in one
    /// transaction) on PostgreSQL, through a pool of 16 as payments-server's.
    PgProbe {
        /// Port to listen on, on 127.0.0.1.
        #[arg(long)]
        port: u16,
        /// PostgreSQL URL (no TLS); its `probe_*` tables are created and seeded when missing.
        #[arg(long)]
        url: String,
    },
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    // The same runtime as payments-server's `Runtime::new()`: multi-thread, one worker per core.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the tokio runtime")?;
    match cli.command {
        Command::FixedJson { port } => runtime.block_on(serve::serve(port, fixed_json::handle)),
        Command::SqliteOrder { port, db } => {
            let orders = Arc::new(
                sqlite_order::OrderDb::open(&db)
                    .with_context(|| format!("opening the database {}", db.display()))?,
            );
            runtime.block_on(serve::serve(port, move |request| {
                let orders = Arc::clone(&orders);
                async move { sqlite_order::handle(&orders, request).await }
            }))
        }
        Command::PgProbe { port, url } => runtime.block_on(async move {
            let pool = pg_probe::open(&url)
                .await
                .context("opening the PostgreSQL database")?;
            serve::serve(port, move |request| {
                let pool = pool.clone();
                async move { pg_probe::handle(&pool, request).await }
            })
            .await
        }),
    }
}
