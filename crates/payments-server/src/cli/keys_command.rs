//! `payments-server keys …`: issue, list, revoke and rotate subscription keys in the server's database.

use std::sync::Arc;

use anyhow::Context as _;
use clap::{Args, Subcommand};
use payments_core::Wallet;
use payments_server::{
    DatabaseLocation, IssuedKey, KeyAdmin, KeyMode, Scopes, Subscription, SubscriptionId, SystemClock,
};
use serde_json::json;
use url::Url;

use crate::cli::serve_args::parse_database;

#[derive(Debug, Args)]
pub(crate) struct KeysArgs {
    /// The database: a SQLite file or a PostgreSQL URL.
    #[arg(long, env = "PAYMENTS_DB", default_value = "payments.db", global = true, hide_env_values = true, value_parser = parse_database)]
    db: DatabaseLocation,
    /// Create the SQLite file (with its schema) when it does not exist. Without it a missing file is refused:
    /// run in the server's working directory, or name the server's database with --db.
    #[arg(long, env = "PAYMENTS_KEYS_CREATE_DB", global = true)]
    create_db: bool,
    /// The server's chain node, as `serve` has it: keys for a live database (`sk_live_…`). Only its presence
    /// matters here. The mode is the database's (recorded by the first server on it); a flag that contradicts
    /// it is refused, and on a database no server has run on, this or --test-mode must say which.
    // Its value is never shown: node URLs often carry an API key.
    #[arg(long, env = "PAYMENTS_CHAIN_RPC_URL", global = true, hide_env_values = true)]
    chain_rpc_url: Option<Url>,
    /// Keys for a test-mode database (`sk_test_…`), as `serve --test-mode` (see --chain-rpc-url).
    #[arg(long, env = "PAYMENTS_TEST_MODE", global = true)]
    test_mode: bool,
    #[command(subcommand)]
    command: KeysCommand,
}

#[derive(Debug, Subcommand)]
enum KeysCommand {
    /// Issue a key; prints {subscriptionId, key, wallet, scopes} as JSON. The key is shown only this once.
    Create {
        /// Merchant wallet (0x + 40 hex digits) the key acts for.
        #[arg(long, env = "PAYMENTS_KEY_WALLET")]
        wallet: Wallet,
        /// Comma-separated scopes [default: all: inventory:read, inventory:write, orders:create,
        /// receipts:read, receipts:write, shop:read, split:read, users:read, graphql:read, subscriptions:read,
        /// subscriptions:write, webhooks:read, webhooks:write].
        #[arg(long, env = "PAYMENTS_KEY_SCOPES")]
        scopes: Option<Scopes>,
        /// A label for the key.
        #[arg(long, env = "PAYMENTS_KEY_NAME")]
        name: Option<String>,
    },
    /// List subscriptions as a JSON array (never the keys: only their hashes are stored).
    List,
    /// Revoke a key by subscription id; it stops working at once.
    Revoke {
        /// Subscription id (sub_...).
        id: String,
    },
    /// Revoke a key and print a new one for the same wallet and scopes.
    Rotate {
        /// Subscription id (sub_...).
        id: String,
    },
}

/// Runs `keys …` against the database.
pub(crate) fn keys(args: KeysArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(keys_command(args))
}

async fn keys_command(args: KeysArgs) -> anyhow::Result<()> {
    if let Some(path) = args.db.sqlite_path()
        && !args.create_db
        && !path.exists()
    {
        anyhow::bail!(
            "no database at {}: run the command where the server runs, or name its database with --db \
             (PAYMENTS_DB); --create-db makes a new, empty one",
            path.display()
        );
    }
    let requested = match (args.chain_rpc_url.is_some(), args.test_mode) {
        (true, true) => {
            anyhow::bail!("--chain-rpc-url (live keys) and --test-mode (test keys) contradict each other")
        }
        (true, false) => Some(KeyMode::Live),
        (false, true) => Some(KeyMode::Test),
        (false, false) => None,
    };
    let issues_keys = matches!(
        args.command,
        KeysCommand::Create { .. } | KeysCommand::Rotate { .. }
    );
    let admin = if issues_keys {
        KeyAdmin::open_for_issuing(&args.db, Arc::new(SystemClock), requested)
            .await
            .with_context(|| format!("opening the database {} to issue keys", args.db))?
    } else {
        // Listing and revoking issue nothing: the mode does not matter.
        KeyAdmin::open(&args.db, Arc::new(SystemClock), KeyMode::Test)
            .await
            .with_context(|| format!("opening the database {}", args.db))?
    };
    let output = match args.command {
        KeysCommand::Create { wallet, scopes, name } => {
            let issued = admin
                .create(wallet, scopes.unwrap_or_else(Scopes::all), name)
                .await
                .context("creating a key")?;
            issued_json(&issued)
        }
        KeysCommand::List => {
            let subscriptions = admin.list().await.context("listing keys")?;
            serde_json::Value::Array(subscriptions.iter().map(subscription_json).collect())
        }
        KeysCommand::Revoke { id } => {
            let id = SubscriptionId::new(id);
            admin
                .revoke(&id)
                .await
                .with_context(|| format!("revoking {id}"))?;
            json!({"subscriptionId": id.as_str(), "revoked": true})
        }
        KeysCommand::Rotate { id } => {
            let issued = admin
                .rotate(&SubscriptionId::new(id.as_str()))
                .await
                .with_context(|| format!("rotating {id}"))?;
            issued_json(&issued)
        }
    };
    println!(
        "{}",
        serde_json::to_string_pretty(&output).context("rendering the output")?
    );
    Ok(())
}

fn issued_json(issued: &IssuedKey) -> serde_json::Value {
    json!({
        "subscriptionId": issued.subscription_id.as_str(),
        "key": issued.key.expose(),
        "wallet": issued.wallet,
        "scopes": scope_names(&issued.scopes),
        "name": issued.name,
    })
}

fn subscription_json(subscription: &Subscription) -> serde_json::Value {
    json!({
        "subscriptionId": subscription.id.as_str(),
        "wallet": subscription.wallet,
        "scopes": scope_names(&subscription.scopes),
        "name": subscription.name,
        "createdAt": subscription.created_at,
        "revokedAt": subscription.revoked_at,
        "active": subscription.revoked_at.is_none(),
    })
}

/// The scopes as the output names them (`inventory:read`, ...), in the set's order.
fn scope_names(scopes: &Scopes) -> Vec<&'static str> {
    scopes.iter().map(|scope| scope.as_str()).collect()
}
