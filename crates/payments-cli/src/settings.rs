//! `payments split show`, `payments shop show`, `payments tax catalog`: the merchant's configuration.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use payments_client::SplitConfig;

use crate::connection::{ConnectionArgs, block_on};
use crate::output::{Table, one_line, print_json, print_text};
use crate::report::exit_code;

/// Show the split payments go through.
#[derive(Debug, Args)]
pub(crate) struct SplitArgs {
    #[command(subcommand)]
    command: SplitCommand,
}

#[derive(Debug, Subcommand)]
enum SplitCommand {
    /// Show the split address and recipients (scope split:read).
    Show(ShowArgs),
    /// Configure the split payments go through (admin session; see `payments admin login`).
    Deploy(crate::split_deploy::DeployArgs),
    /// List the split's on-chain inflows and payouts, newest first (scope split:read).
    Transactions(crate::split_transactions::TransactionsArgs),
}

/// Show the shop's settings.
#[derive(Debug, Args)]
pub(crate) struct ShopArgs {
    #[command(subcommand)]
    command: ShopCommand,
}

#[derive(Debug, Subcommand)]
enum ShopCommand {
    /// Show brand, fees and tax settings (scope shop:read).
    Show(ShowArgs),
}

/// Tax jurisdictions.
#[derive(Debug, Args)]
pub(crate) struct TaxArgs {
    #[command(subcommand)]
    command: TaxCommand,
}

#[derive(Debug, Subcommand)]
enum TaxCommand {
    /// List the shop's jurisdictions then the built-in catalog (scope shop:read).
    Catalog(ShowArgs),
}

#[derive(Debug, Args)]
struct ShowArgs {
    #[command(flatten)]
    connection: ConnectionArgs,
}

pub(crate) fn run_split(args: SplitArgs) -> ExitCode {
    match args.command {
        SplitCommand::Show(show) => exit_code(block_on(split(show)).and_then(|result| result)),
        SplitCommand::Deploy(deploy) => crate::split_deploy::run(deploy),
        SplitCommand::Transactions(list) => crate::split_transactions::run(list),
    }
}

pub(crate) fn run_shop(args: ShopArgs) -> ExitCode {
    let ShopCommand::Show(show) = args.command;
    exit_code(block_on(shop(show)).and_then(|result| result))
}

pub(crate) fn run_tax(args: TaxArgs) -> ExitCode {
    let TaxCommand::Catalog(show) = args.command;
    exit_code(block_on(tax(show)).and_then(|result| result))
}

async fn split(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let split = args.connection.keyed_client()?.split().await?;
    if args.connection.json {
        print_json(&split)?;
        return Ok(ExitCode::SUCCESS);
    }
    print_text(&split_text(&split))?;
    Ok(ExitCode::SUCCESS)
}

/// The split's address, a blank line, then its recipients as a table.
pub(crate) fn split_text(split: &SplitConfig) -> String {
    let address = split
        .address
        .map_or_else(|| "(not configured)".to_owned(), |a| a.to_string());
    let mut table = Table::new(["RECIPIENT", "SHARE BPS"]);
    for recipient in &split.recipients {
        table.row([recipient.address.to_string(), recipient.shares_bps.to_string()]);
    }
    format!("split address  {address}\n\n{}", table.render())
}

async fn shop(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let shop = args.connection.keyed_client()?.shop_config().await?;
    if args.connection.json {
        print_json(&shop)?;
        return Ok(ExitCode::SUCCESS);
    }
    let none = || "-".to_owned();
    let mut table = Table::new(["FIELD", "VALUE"]);
    table.row(["wallet".to_owned(), shop.wallet.to_string()]);
    table.row(["brand name".to_owned(), one_line(&shop.brand_name)]);
    table.row(["brand key".to_owned(), shop.brand_key.unwrap_or_else(none)]);
    table.row(["processing fee %".to_owned(), shop.processing_fee_pct.to_string()]);
    table.row(["platform fee %".to_owned(), shop.platform_fee_pct.to_string()]);
    table.row([
        "support email".to_owned(),
        shop.support_email.unwrap_or_else(none),
    ]);
    table.row(["redirect url".to_owned(), shop.redirect_url.unwrap_or_else(none)]);
    table.row(["jurisdictions".to_owned(), shop.jurisdictions.len().to_string()]);
    table.row([
        "default jurisdiction".to_owned(),
        shop.default_jurisdiction.unwrap_or_else(none),
    ]);
    print_text(&table.render())?;
    Ok(ExitCode::SUCCESS)
}

async fn tax(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let catalog = args.connection.keyed_client()?.tax_catalog().await?;
    if args.connection.json {
        print_json(&catalog)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut table = Table::new(["CODE", "NAME", "RATE", "SOURCE"]);
    for entry in &catalog.jurisdictions {
        let rate = entry
            .jurisdiction
            .rate(None)
            .map_or_else(|_| "?".to_owned(), |rate| rate.as_decimal().to_string());
        table.row([
            entry.jurisdiction.code.clone(),
            one_line(&entry.jurisdiction.name),
            rate,
            entry.source.clone(),
        ]);
    }
    let default = catalog.default_jurisdiction.unwrap_or_else(|| "-".to_owned());
    print_text(&format!("{}\ndefault jurisdiction  {default}\n", table.render()))?;
    Ok(ExitCode::SUCCESS)
}
