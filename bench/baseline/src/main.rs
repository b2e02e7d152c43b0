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

mod fixed_json;
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
    }
}
