//! `payments reserve balances` and `payments reserve recommend`: what the merchant holds on chain, and what
//! it should keep for refunds.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use payments_client::{ReserveAdvice, ReserveBalances};

use crate::connection::{ConnectionArgs, block_on};
use crate::output::{Table, print_json, print_text, utc};
use crate::report::exit_code;
use crate::token_usd::usd_text;

/// Token balances and the refund reserve.
#[derive(Debug, Args)]
pub(crate) struct ReserveArgs {
    #[command(subcommand)]
    command: ReserveCommand,
}

#[derive(Debug, Subcommand)]
enum ReserveCommand {
    /// Token balances of the split and the merchant wallet, read from the chain (scope split:read).
    Balances(ShowArgs),
    /// The reserve to keep for refunds, from the last 30 days' paid and refunded volume (scope split:read).
    Recommend(ShowArgs),
}

#[derive(Debug, Args)]
struct ShowArgs {
    #[command(flatten)]
    connection: ConnectionArgs,
}

pub(crate) fn run(args: ReserveArgs) -> ExitCode {
    let result = match args.command {
        ReserveCommand::Balances(show) => block_on(balances(show)),
        ReserveCommand::Recommend(show) => block_on(recommend(show)),
    };
    exit_code(result.and_then(|result| result))
}

async fn balances(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let balances = args.connection.keyed_client()?.reserve_balances().await?;
    if args.connection.json {
        print_json(&balances)?;
        return Ok(ExitCode::SUCCESS);
    }
    print_text(&balances_text(&balances))?;
    Ok(ExitCode::SUCCESS)
}

fn balances_text(balances: &ReserveBalances) -> String {
    let mut table = Table::new(["HOLDER", "ADDRESS", "BALANCE"]);
    match &balances.split {
        Some(split) => table.row([
            "split".to_owned(),
            split.address.to_string(),
            usd_text(split.balance),
        ]),
        None => table.row(["split", "(not configured)", "-"]),
    }
    table.row([
        "wallet".to_owned(),
        balances.wallet.address.to_string(),
        usd_text(balances.wallet.balance),
    ]);
    format!(
        "{} of token {} on chain {}\n\n{}",
        balances.currency,
        balances.token,
        balances.chain_id,
        table.render()
    )
}

async fn recommend(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let advice = args.connection.keyed_client()?.reserve_recommendation().await?;
    if args.connection.json {
        print_json(&advice)?;
        return Ok(ExitCode::SUCCESS);
    }
    print_text(&advice_text(&advice))?;
    Ok(ExitCode::SUCCESS)
}

fn advice_text(advice: &ReserveAdvice) -> String {
    let percent = |bps: u32| format!("{}.{:02} %", bps / 100, bps % 100);
    let mut table = Table::new(["FIELD", "VALUE"]);
    table.row([
        "recommended reserve".to_owned(),
        advice.recommended_usd.to_string(),
    ]);
    table.row(["decided by".to_owned(), advice.basis.to_string()]);
    table.row([
        "window".to_owned(),
        format!(
            "{} days ({} to {})",
            advice.window_days,
            utc(advice.since),
            utc(advice.until)
        ),
    ]);
    table.row(["paid".to_owned(), advice.paid_usd.to_string()]);
    table.row(["refunded".to_owned(), advice.refunded_usd.to_string()]);
    table.row([
        format!("refunds x {}", percent(advice.refund_cover_bps)),
        advice.refund_cover_usd.to_string(),
    ]);
    table.row([
        format!("paid x {}", percent(advice.paid_floor_bps)),
        advice.paid_floor_usd.to_string(),
    ]);
    table.render()
}
