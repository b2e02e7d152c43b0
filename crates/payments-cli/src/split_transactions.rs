//! `payments split transactions`: the split's inflows and payouts read from the chain, newest first.

use std::process::ExitCode;

use clap::Args;
use payments_client::{SplitTransaction, SplitTransactionsQuery};
use payments_core::Wallet;
use serde::Serialize;

use crate::connection::{ConnectionArgs, block_on};
use crate::output::{Table, print_json, print_text};
use crate::report::exit_code;
use crate::token_usd::usd_text;

/// Pages `--all` follows at most: each page reads a bounded block range, so a long history is many pages,
/// but a server that kept answering with a cursor must not keep the CLI busy forever.
const MAX_PAGES: usize = 1_000;

/// List the split's on-chain inflows and payouts, newest first (scope split:read).
#[derive(Debug, Args)]
pub(crate) struct TransactionsArgs {
    /// The merchant's split (current or replaced) or a recipient of it (its payouts only); default: the
    /// current split.
    #[arg(long, value_name = "0xADDRESS")]
    address: Option<Wallet>,
    /// Records per page (the server clamps it to 1..100; default 50).
    #[arg(long)]
    limit: Option<u32>,
    /// Continue where a previous page stopped (its `next page: --cursor ...` line).
    #[arg(long, conflicts_with = "all")]
    cursor: Option<String>,
    /// Follow the cursor to the end of the history.
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    connection: ConnectionArgs,
}

/// The `--json` output: the records and where the next page starts.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Listing {
    transactions: Vec<SplitTransaction>,
    next_cursor: Option<String>,
}

pub(crate) fn run(args: TransactionsArgs) -> ExitCode {
    exit_code(block_on(list(args)).and_then(|result| result))
}

async fn list(args: TransactionsArgs) -> anyhow::Result<ExitCode> {
    let client = args.connection.keyed_client()?;
    let mut query = SplitTransactionsQuery::new();
    query.address = args.address;
    query.limit = args.limit;
    query.cursor = args.cursor.clone();
    let mut listing = Listing {
        transactions: Vec::new(),
        next_cursor: None,
    };
    for _ in 0..MAX_PAGES {
        let page = client.split_transactions(&query).await?;
        listing.transactions.extend(page.transactions);
        listing.next_cursor = page.next_cursor;
        match (&listing.next_cursor, args.all) {
            (Some(cursor), true) => query.cursor = Some(cursor.clone()),
            _ => break,
        }
    }
    if args.connection.json {
        print_json(&listing)?;
        return Ok(ExitCode::SUCCESS);
    }
    print_text(&listing_text(&listing))?;
    Ok(ExitCode::SUCCESS)
}

/// A table of the records, then the next page's cursor when there is one.
fn listing_text(listing: &Listing) -> String {
    let mut table = Table::new(["TIME", "STATUS", "AMOUNT", "FEES", "RECEIPT", "TRANSACTION"]);
    for record in &listing.transactions {
        let receipt = if record.receipt_id.is_empty() {
            "-".to_owned()
        } else {
            record.receipt_id.clone()
        };
        table.row([
            record.timestamp.clone(),
            record.status.to_string(),
            usd_text(record.amount),
            usd_text(record.fees),
            receipt,
            record.transaction_hash.clone(),
        ]);
    }
    let mut text = table.render();
    if let Some(cursor) = &listing.next_cursor {
        text.push_str(&format!("next page: --cursor {cursor}\n"));
    }
    text
}
