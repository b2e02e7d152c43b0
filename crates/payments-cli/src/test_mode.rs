//! `payments test fund --wallet W --usd 50`: on a test-mode server, gives a customer wallet tokens and approves
//! the spend permission manager for them, so its subscriptions can be charged (scope subscriptions:write).
//! `payments test-clock advance --days N`: moves a development server's clock forward (cron secret).

use std::process::ExitCode;

use clap::{Args, Subcommand};
use payments_core::{Cents, Wallet};

use crate::connection::{ConnectionArgs, block_on};
use crate::cron_secret::CronSecretArgs;
use crate::output::{print_json, print_text, utc};
use crate::report::exit_code;

/// Test mode only: things a test-mode chain can do that a real one cannot.
#[derive(Debug, Args)]
pub(crate) struct TestArgs {
    #[command(subcommand)]
    command: TestCommand,
}

#[derive(Debug, Subcommand)]
enum TestCommand {
    /// Mint test tokens to a customer wallet and approve the spend permission manager for them.
    Fund(FundArgs),
}

#[derive(Debug, Args)]
struct FundArgs {
    /// The customer wallet.
    #[arg(long)]
    wallet: Wallet,
    /// USD to mint (0.01 to 1000000).
    #[arg(long)]
    usd: Cents,
    #[command(flatten)]
    connection: ConnectionArgs,
}

/// The development server's test clock (development mode only; needs the server's cron secret).
#[derive(Debug, Args)]
pub(crate) struct TestClockArgs {
    #[command(subcommand)]
    command: TestClockCommand,
}

#[derive(Debug, Subcommand)]
enum TestClockCommand {
    /// Move the server's clock forward (due dates, the charge batch and the test-mode chain follow it).
    Advance(AdvanceArgs),
}

#[derive(Debug, Args)]
struct AdvanceArgs {
    /// Days to move forward from the server's current time.
    #[arg(long, required_unless_present = "hours", conflicts_with = "hours")]
    days: Option<u32>,
    /// Hours to move forward from the server's current time.
    #[arg(long)]
    hours: Option<u32>,
    #[command(flatten)]
    cron: CronSecretArgs,
    #[command(flatten)]
    connection: ConnectionArgs,
}

const HOUR_MS: i64 = 3_600_000;

pub(crate) fn run_clock(args: TestClockArgs) -> ExitCode {
    let TestClockCommand::Advance(advance) = args.command;
    exit_code(block_on(run_advance(advance)).and_then(|result| result))
}

async fn run_advance(args: AdvanceArgs) -> anyhow::Result<ExitCode> {
    let hours = i64::from(args.hours.unwrap_or(0)) + 24 * i64::from(args.days.unwrap_or(0));
    let secret = args.cron.secret()?;
    let now_ms = args
        .connection
        .client()?
        .advance_test_clock_by(&secret, hours * HOUR_MS)
        .await?;
    if args.connection.json {
        print_json(&serde_json::json!({ "nowMs": now_ms }))?;
    } else {
        print_text(&format!("The server's clock is now {}\n", utc(now_ms)))?;
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn run(args: TestArgs) -> ExitCode {
    let TestCommand::Fund(fund) = args.command;
    exit_code(block_on(run_fund(fund)).and_then(|result| result))
}

async fn run_fund(args: FundArgs) -> anyhow::Result<ExitCode> {
    let funding = args
        .connection
        .keyed_client()?
        .fund_test_wallet(args.wallet, args.usd)
        .await?;
    if args.connection.json {
        print_json(&serde_json::json!({
            "wallet": funding.wallet,
            "fundedBaseUnits": funding.funded_base_units,
            "balanceBaseUnits": funding.balance_base_units,
            "transactionHash": funding.transaction_hash,
        }))?;
    } else {
        print_text(&format!(
            "Funded {} with ${} on the test-mode chain (balance {} base units; the manager may pull it).\n",
            funding.wallet, args.usd, funding.balance_base_units
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
