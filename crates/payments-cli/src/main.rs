//! `payments`: the command-line tool of the merchant payments service.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod webhooks_listen;
mod webhooks_verify;

mod admin;
mod admin_key;
mod admin_key_check;
mod admin_session;
mod billing;
mod completions;
mod connection;
mod cron_secret;
mod export;
mod graphql;
mod hints;
mod import;
mod inventory;
mod inventory_image;
mod item_view;
mod output;
mod ping;
mod plans;
mod product_csv;
mod receipt_transfers;
mod receipts;
mod receipts_admin;
mod report;
mod reserve;
mod settings;
mod simulate_payment;
mod split_deploy;
mod split_transactions;
mod subscribe;
mod subscription_change;
mod subscriptions;
mod test_mode;
mod token_usd;
mod users;
mod webhook_endpoints;
mod webhook_keys;

/// Command-line tool for the merchant payments service.
#[derive(Debug, Parser)]
#[command(
    name = "payments",
    version,
    about,
    after_help = "Exit codes: 0 success, 1 the service refused, 2 usage (nothing was sent), 3 transport."
)]
struct Cli {
    /// Print JSON instead of tables, errors included; accepted before or after the command name.
    // Every command's own `--json` has the same id: clap hands the value given here down to it, and one
    // given after the command name up to here, so `main` knows how to print errors either way.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant, reason = "parsed once at startup")]
enum Command {
    /// Work with the webhooks the service sends.
    Webhooks {
        #[command(subcommand)]
        command: WebhooksCommand,
    },
    /// Manage the product catalog (list, upsert, delete, upload-image, import).
    Inventory(inventory::InventoryArgs),
    /// Check the key: merchant, subscription and scopes it grants.
    Ping(ping::PingArgs),
    /// Show or deploy the split configuration, list its on-chain transactions.
    Split(settings::SplitArgs),
    /// Token balances of the split and wallet, and the reserve to keep for refunds.
    Reserve(reserve::ReserveArgs),
    /// Show the shop's settings.
    Shop(settings::ShopArgs),
    /// Tax jurisdictions (the shop's and the built-in catalog).
    Tax(settings::TaxArgs),
    /// Receipts: list, show, status, create, webhook delivery log.
    Receipts(receipts::ReceiptsArgs),
    /// Create orders from inventory items.
    Orders(receipts::OrdersArgs),
    /// Admin session: login with a wallet key, me, logout.
    Admin(admin::AdminArgs),
    /// Users: search, live, show (scope users:read).
    Users(users::UsersArgs),
    /// Run a read-only GraphQL query and print its JSON answer (scope graphql:read).
    Graphql(graphql::GraphqlArgs),
    /// Subscription plans: list (public), create, update, deactivate (scope subscriptions:write).
    Plans(plans::PlansArgs),
    /// Customers' subscriptions: show (with billing events), cancel.
    Subscriptions(subscriptions::SubscriptionsArgs),
    /// Test mode only: fund a customer wallet on the test-mode chain.
    Test(test_mode::TestArgs),
    /// Development mode: move the server's test clock forward.
    TestClock(test_mode::TestClockArgs),
    /// The platform's fees on your sales: accrued, settled on chain, remaining (scope receipts:read).
    Billing(billing::BillingArgs),
    /// Exports: the ledger of every money movement, CSV or JSON (scope receipts:read).
    Export(export::ExportArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(long_about = completions::LONG_ABOUT)]
    Completions(completions::CompletionsArgs),
}

#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant, reason = "parsed once at startup")]
enum WebhooksCommand {
    /// Verify a webhook's signature offline.
    Verify(webhooks_verify::VerifyArgs),
    /// Receive webhooks on 127.0.0.1, verify each one and print it (like `stripe listen`).
    Listen(webhooks_listen::ListenArgs),
    /// Your webhook endpoints: create, list, update, delete, rotate, deliveries, recover.
    Endpoints(webhook_endpoints::EndpointsArgs),
    /// Send a realistic test event (marked "test": true) to your endpoints, like `stripe trigger`.
    Trigger(webhook_endpoints::TriggerArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    report::set_json_errors(cli.json);
    match cli.command {
        Command::Webhooks {
            command: WebhooksCommand::Verify(args),
        } => webhooks_verify::run(&args),
        Command::Webhooks {
            command: WebhooksCommand::Listen(args),
        } => webhooks_listen::run(args),
        Command::Webhooks {
            command: WebhooksCommand::Endpoints(args),
        } => webhook_endpoints::run(args),
        Command::Webhooks {
            command: WebhooksCommand::Trigger(args),
        } => webhook_endpoints::run_trigger(args),
        Command::Inventory(args) => inventory::run(args),
        Command::Ping(args) => ping::run(args),
        Command::Split(args) => settings::run_split(args),
        Command::Reserve(args) => reserve::run(args),
        Command::Shop(args) => settings::run_shop(args),
        Command::Tax(args) => settings::run_tax(args),
        Command::Receipts(args) => receipts::run_receipts(args),
        Command::Orders(args) => receipts::run_orders(args),
        Command::Admin(args) => admin::run(args),
        Command::Users(args) => users::run(args),
        Command::Graphql(args) => graphql::run(args),
        Command::Billing(args) => billing::run(args),
        Command::Export(args) => export::run(args),
        Command::Plans(args) => plans::run(args),
        Command::Subscriptions(args) => subscriptions::run(args),
        Command::Test(args) => test_mode::run(args),
        Command::TestClock(args) => test_mode::run_clock(args),
        Command::Completions(args) => completions::run::<Cli>(&args),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory as _;

    #[test]
    fn the_command_line_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }

    /// Every leaf command, as `payments a b`.
    fn leaves(command: &clap::Command, path: &str, out: &mut Vec<String>) {
        let mut children = command
            .get_subcommands()
            .filter(|child| child.get_name() != "help")
            .peekable();
        if children.peek().is_none() {
            out.push(path.to_owned());
        }
        for child in children {
            leaves(child, &format!("{path} {}", child.get_name()), out);
        }
    }

    #[test]
    fn the_readme_lists_every_command() {
        let readme = include_str!("../README.md");
        let mut commands = Vec::new();
        leaves(&super::Cli::command(), "payments", &mut commands);

        let missing: Vec<&String> = commands
            .iter()
            .filter(|command| !readme.contains(&format!("| `{command}")))
            .collect();

        assert!(commands.len() > 20, "{commands:?}");
        assert!(missing.is_empty(), "the README's command table lacks {missing:?}");
    }
}
