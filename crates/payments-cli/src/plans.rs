//! `payments plans list|create|update|deactivate`: a merchant's subscription plans (writes need scope
//! subscriptions:write; the list is public).

use std::process::ExitCode;

use clap::{Args, Subcommand};
use payments_client::{CreatePlan, SubscriptionPlan, UpdatePlan};
use payments_core::{BillingPeriod, Cents, Wallet};

use crate::connection::{ConnectionArgs, block_on};
use crate::output::{Table, one_line, print_json, print_text};
use crate::report::{exit_code, failure};

/// Subscription plans.
#[derive(Debug, Args)]
pub(crate) struct PlansArgs {
    #[command(subcommand)]
    command: PlansCommand,
}

#[derive(Debug, Subcommand)]
enum PlansCommand {
    /// List a merchant's active plans (public).
    List(ListArgs),
    /// Create a plan for the key's merchant.
    Create(CreateArgs),
    /// Change a plan (existing subscriptions keep the price and period they signed for).
    Update(UpdateArgs),
    /// Deactivate a plan: no new subscribers, existing subscriptions unaffected.
    Deactivate(DeactivateArgs),
    /// The plan's webhook deliveries (of every subscription on it) and their attempts.
    Webhooks(WebhooksArgs),
    /// Send a plan's webhook delivery again (same body, same delivery id).
    Redeliver(RedeliverArgs),
}

#[derive(Debug, Args)]
struct WebhooksArgs {
    /// The plan's id.
    plan_id: String,
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Args)]
struct RedeliverArgs {
    /// The plan's id.
    plan_id: String,
    /// The delivery's id (from `payments plans webhooks`).
    delivery_id: String,
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Args)]
struct ListArgs {
    /// The merchant's wallet.
    wallet: Wallet,
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Args)]
struct CreateArgs {
    /// The plan's name.
    #[arg(long)]
    name: String,
    /// The price in USD (above 0, at most 2 decimals).
    #[arg(long, value_parser = parse_usd)]
    price_usd: Cents,
    /// WEEKLY, BIWEEKLY, MONTHLY, QUARTERLY or YEARLY.
    #[arg(long, value_parser = parse_period)]
    period: BillingPeriod,
    /// Shown to subscribers.
    #[arg(long, default_value = "")]
    description: String,
    /// Free days (0 to 365) before a new subscription's first charge.
    #[arg(long, value_name = "DAYS")]
    trial_days: Option<u16>,
    /// Makes a resend safe: the same key and plan within 24 hours answer the first result instead of
    /// creating a second plan. Use one when a create's answer may have been lost.
    #[arg(long, value_name = "KEY")]
    idempotency_key: Option<String>,
    /// HTTPS endpoint for the plan's subscription.* webhooks (signed with this command's API key).
    #[arg(long)]
    webhook_url: Option<String>,
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Args)]
struct UpdateArgs {
    /// The plan's id.
    plan_id: String,
    /// New name.
    #[arg(long)]
    name: Option<String>,
    /// New price in USD.
    #[arg(long, value_parser = parse_usd)]
    price_usd: Option<Cents>,
    /// New period.
    #[arg(long, value_parser = parse_period)]
    period: Option<BillingPeriod>,
    /// New description.
    #[arg(long)]
    description: Option<String>,
    /// New webhook target, signed with this command's API key from now on ("" removes it).
    #[arg(long)]
    webhook_url: Option<String>,
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Args)]
struct DeactivateArgs {
    /// The plan's id.
    plan_id: String,
    #[command(flatten)]
    connection: ConnectionArgs,
}

fn parse_usd(text: &str) -> Result<Cents, String> {
    Cents::parse_usd(text).map_err(|error| error.to_string())
}

fn parse_period(text: &str) -> Result<BillingPeriod, String> {
    text.to_ascii_uppercase()
        .parse()
        .map_err(|error: payments_core::UnknownBillingPeriod| error.to_string())
}

pub(crate) fn run(args: PlansArgs) -> ExitCode {
    let outcome = match args.command {
        PlansCommand::List(list) => block_on(run_list(list)),
        PlansCommand::Create(create) => block_on(run_create(create)),
        PlansCommand::Update(update) => block_on(run_update(update)),
        PlansCommand::Deactivate(deactivate) => block_on(run_deactivate(deactivate)),
        PlansCommand::Webhooks(webhooks) => block_on(run_webhooks(webhooks)),
        PlansCommand::Redeliver(redeliver) => block_on(run_redeliver(redeliver)),
    };
    exit_code(outcome.and_then(|result| result))
}

async fn run_webhooks(args: WebhooksArgs) -> anyhow::Result<ExitCode> {
    let deliveries = args
        .connection
        .keyed_client()?
        .plan_webhooks(&args.plan_id)
        .await?;
    if args.connection.json {
        print_json(&deliveries)?;
    } else {
        print_text(&crate::receipts::deliveries_table(&deliveries, true))?;
    }
    Ok(ExitCode::SUCCESS)
}

async fn run_redeliver(args: RedeliverArgs) -> anyhow::Result<ExitCode> {
    let (plan_id, delivery_id) = (args.plan_id, args.delivery_id);
    args.connection
        .keyed_client()?
        .redeliver_plan_webhook(&plan_id, &delivery_id)
        .await?;
    if args.connection.json {
        print_json(&serde_json::json!({"ok": true, "planId": plan_id, "deliveryId": delivery_id}))?;
    } else {
        print_text(&format!(
            "delivery {delivery_id} of plan {plan_id} queued again (`payments plans webhooks {plan_id}` shows its attempts)\n"
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

async fn run_list(args: ListArgs) -> anyhow::Result<ExitCode> {
    let plans = args.connection.client()?.list_plans(args.wallet).await?;
    if args.connection.json {
        print_json(&plans)?;
    } else {
        print_text(&plans_table(&plans))?;
    }
    Ok(ExitCode::SUCCESS)
}

async fn run_create(args: CreateArgs) -> anyhow::Result<ExitCode> {
    let plan = CreatePlan {
        name: args.name,
        description: args.description,
        price_usd: args.price_usd,
        period: args.period,
        trial_days: args.trial_days,
        idempotency_key: args.idempotency_key,
        webhook_url: args.webhook_url,
    };
    let created = args.connection.keyed_client()?.create_plan(&plan).await?;
    show(&args.connection, &created)
}

async fn run_update(args: UpdateArgs) -> anyhow::Result<ExitCode> {
    if args.name.is_none()
        && args.price_usd.is_none()
        && args.period.is_none()
        && args.description.is_none()
        && args.webhook_url.is_none()
    {
        return Err(failure(
            "invalid_input",
            "nothing to change: give --name, --price-usd, --period, --description or --webhook-url",
        ));
    }
    let update = UpdatePlan {
        plan_id: args.plan_id,
        name: args.name,
        description: args.description,
        price_usd: args.price_usd,
        period: args.period,
        active: None,
        webhook_url: args
            .webhook_url
            .map(|url| Some(url).filter(|url| !url.is_empty())),
    };
    let updated = args.connection.keyed_client()?.update_plan(&update).await?;
    show(&args.connection, &updated)
}

async fn run_deactivate(args: DeactivateArgs) -> anyhow::Result<ExitCode> {
    let plan = args
        .connection
        .keyed_client()?
        .deactivate_plan(&args.plan_id)
        .await?;
    show(&args.connection, &plan)
}

fn show(connection: &ConnectionArgs, plan: &SubscriptionPlan) -> anyhow::Result<ExitCode> {
    if connection.json {
        print_json(plan)?;
    } else {
        print_text(&plans_table(std::slice::from_ref(plan)))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn plans_table(plans: &[SubscriptionPlan]) -> String {
    let mut table = Table::new(["PLAN", "NAME", "PRICE", "PERIOD", "ACTIVE"]);
    for plan in plans {
        table.row([
            plan.plan_id.clone(),
            one_line(&plan.name),
            format!("${}", plan.price_usd),
            plan.period.to_string(),
            if plan.active { "yes" } else { "no" }.to_owned(),
        ]);
    }
    table.render()
}
