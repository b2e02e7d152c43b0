//! `payments billing balance`: the platform's fees on the merchant's sales (scope receipts:read).

use std::process::ExitCode;

use clap::{Args, Subcommand};
use payments_client::BillingBalance;

use crate::connection::{ConnectionArgs, block_on};
use crate::output::{Table, print_json, print_text};
use crate::report::exit_code;

/// The merchant's balance with the platform.
#[derive(Debug, Args)]
pub(crate) struct BillingArgs {
    #[command(subcommand)]
    command: BillingCommand,
}

#[derive(Debug, Subcommand)]
enum BillingCommand {
    /// Fees accrued by paid receipts (and subscription charges), settled on chain, and remaining.
    Balance(BalanceArgs),
}

#[derive(Debug, Args)]
struct BalanceArgs {
    #[command(flatten)]
    connection: ConnectionArgs,
}

pub(crate) fn run(args: BillingArgs) -> ExitCode {
    let BillingCommand::Balance(balance) = args.command;
    exit_code(block_on(show(balance)).and_then(|result| result))
}

async fn show(args: BalanceArgs) -> anyhow::Result<ExitCode> {
    let balance = args.connection.keyed_client()?.billing_balance().await?;
    if args.connection.json {
        print_json(&balance)?;
        return Ok(ExitCode::SUCCESS);
    }
    print_text(&balance_text(&balance))?;
    Ok(ExitCode::SUCCESS)
}

fn balance_text(balance: &BillingBalance) -> String {
    let receipts = &balance.receipts;
    let subscriptions = &balance.subscriptions;
    let mut table = Table::new(["", "ACCRUED", "SETTLED", "REMAINING"]);
    table.row([
        format!(
            "receipts ({} paid, {} settled)",
            receipts.paid_count, receipts.settled_count
        ),
        receipts.accrued_usd.to_string(),
        receipts.settled_usd.to_string(),
        receipts.remaining_usd.to_string(),
    ]);
    table.row([
        format!("subscriptions ({} charges)", subscriptions.charge_count),
        subscriptions.accrued_usd.to_string(),
        subscriptions.settled_usd.to_string(),
        subscriptions.remaining_usd.to_string(),
    ]);
    table.row([
        "total".to_owned(),
        balance.accrued_usd.to_string(),
        balance.settled_usd.to_string(),
        balance.remaining_usd.to_string(),
    ]);
    format!(
        "wallet          {}\nplatform share  {} bps\n\n{}",
        balance.wallet,
        balance.platform_share_bps,
        table.render()
    )
}
