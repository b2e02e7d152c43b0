//! `payments subscriptions show|cancel` (and `subscribe`, `change`): a subscription with its billing events, or a customer's or
//! merchant's subscriptions; cancel with the customer's signature or the signed-in admin session.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use payments_client::{CustomerSubscription, SubscriptionSelector};
use payments_core::Wallet;

use crate::admin_session::{self, SessionArgs};
use crate::connection::{ConnectionArgs, block_on};
use crate::cron_secret::CronSecretArgs;
use crate::output::{Table, print_json, print_text, utc};
use crate::report::{exit_code, failure};

/// Customers' subscriptions to plans.
#[derive(Debug, Args)]
pub(crate) struct SubscriptionsArgs {
    #[command(subcommand)]
    command: SubscriptionsCommand,
}

#[derive(Debug, Subcommand)]
enum SubscriptionsCommand {
    /// Show one subscription (with its billing events), or a customer's or merchant's subscriptions.
    Show(ShowArgs),
    /// Subscribe a wallet to a plan with its own key: approve the token if needed (--rpc-url), sign the
    /// plan's spend permission, create the subscription.
    Subscribe(crate::subscribe::SubscribeArgs),
    /// Move a subscription to another plan of its merchant with the customer's key: sign the change's
    /// spend permission and post it (an upgrade is charged the prorated difference at once).
    Change(crate::subscription_change::ChangeArgs),
    /// Cancel a subscription: with --signature (the customer's EIP-712 CancelSubscription signature), else
    /// with the signed-in admin session (the customer's or the merchant's wallet).
    Cancel(CancelArgs),
    /// Charge every due subscription now (the cron route; needs the server's cron secret).
    ChargeDue(ChargeDueArgs),
}

#[derive(Debug, Args)]
struct ShowArgs {
    /// The subscription's id (csub_...).
    subscription_id: Option<String>,
    /// A customer's subscriptions instead.
    #[arg(long, conflicts_with_all = ["subscription_id", "merchant"])]
    customer: Option<Wallet>,
    /// A merchant's subscriptions instead.
    #[arg(long, conflicts_with_all = ["subscription_id", "customer"])]
    merchant: Option<Wallet>,
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Args)]
struct CancelArgs {
    /// The subscription's id (csub_...).
    subscription_id: String,
    /// The customer's `0x` signature of CancelSubscription{subscriptionId, wallet}.
    #[arg(long, requires = "wallet")]
    signature: Option<String>,
    /// The customer's wallet (with --signature).
    #[arg(long)]
    wallet: Option<Wallet>,
    #[command(flatten)]
    session: SessionArgs,
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Args)]
struct ChargeDueArgs {
    #[command(flatten)]
    cron: CronSecretArgs,
    #[command(flatten)]
    connection: ConnectionArgs,
}

pub(crate) fn run(args: SubscriptionsArgs) -> ExitCode {
    let outcome = match args.command {
        SubscriptionsCommand::Show(show) => block_on(run_show(show)),
        SubscriptionsCommand::Subscribe(subscribe) => block_on(crate::subscribe::run(subscribe)),
        SubscriptionsCommand::Change(change) => block_on(crate::subscription_change::run(change)),
        SubscriptionsCommand::Cancel(cancel) => block_on(run_cancel(cancel)),
        SubscriptionsCommand::ChargeDue(charge) => block_on(run_charge_due(charge)),
    };
    exit_code(outcome.and_then(|result| result))
}

async fn run_show(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let selector = match (args.subscription_id, args.customer, args.merchant) {
        (Some(id), None, None) => SubscriptionSelector::Id(id),
        (None, Some(customer), None) => SubscriptionSelector::Customer(customer),
        (None, None, Some(merchant)) => SubscriptionSelector::Merchant(merchant),
        _ => {
            return Err(failure(
                "invalid_input",
                "give a subscription id, --customer or --merchant",
            ));
        }
    };
    let reply = args.connection.client()?.subscription_status(&selector).await?;
    if args.connection.json {
        print_json(&reply)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = subscriptions_table(&reply.subscriptions);
    if let Some(events) = &reply.billing_events {
        let mut table = Table::new([
            "PERIOD",
            "STATUS",
            "GROSS",
            "FEE",
            "NET",
            "AT",
            "TRANSACTION / FAILURE",
        ]);
        for event in events {
            table.row([
                event.period_index.to_string(),
                event.status.to_string(),
                format!("${}", event.gross_usd),
                format!("${}", event.fee_usd),
                format!("${}", event.net_usd),
                utc(event.created_at),
                event
                    .transaction_hash
                    .clone()
                    .or_else(|| event.failure.clone())
                    .unwrap_or_else(|| "-".to_owned()),
            ]);
        }
        text.push('\n');
        text.push_str(&table.render());
    }
    print_text(&text)?;
    Ok(ExitCode::SUCCESS)
}

async fn run_cancel(args: CancelArgs) -> anyhow::Result<ExitCode> {
    let canceled = match (&args.signature, args.wallet) {
        (Some(signature), Some(wallet)) => {
            args.connection
                .client()?
                .cancel_subscription_signed(&args.subscription_id, wallet, signature)
                .await?
        }
        _ => {
            let (client, session) = admin_session::signed_in(&args.connection, &args.session)?;
            client
                .cancel_subscription(&session, &args.subscription_id)
                .await?
        }
    };
    if args.connection.json {
        print_json(&canceled)?;
    } else {
        print_text(&subscriptions_table(std::slice::from_ref(&canceled)))?;
    }
    Ok(ExitCode::SUCCESS)
}

async fn run_charge_due(args: ChargeDueArgs) -> anyhow::Result<ExitCode> {
    let secret = args.cron.secret()?;
    let report = args.connection.client()?.charge_subscriptions(&secret).await?;
    if args.connection.json {
        print_json(&report)?;
    } else {
        print_text(&format!(
            "{} processed: {} charged, {} failed ({} ms)\n",
            report.processed, report.succeeded, report.failed, report.duration_ms
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn subscriptions_table(subscriptions: &[CustomerSubscription]) -> String {
    let mut table = Table::new(["SUBSCRIPTION", "STATUS", "CUSTOMER", "PRICE", "NEXT CHARGE"]);
    for subscription in subscriptions {
        table.row([
            subscription.subscription_id.clone(),
            subscription.status.to_string(),
            subscription
                .customer
                .map_or_else(|| "-".to_owned(), |wallet| wallet.to_string()),
            subscription
                .price_usd
                .map_or_else(|| "-".to_owned(), |price| format!("${price}")),
            subscription.next_charge_at.map_or_else(|| "-".to_owned(), utc),
        ]);
    }
    table.render()
}
