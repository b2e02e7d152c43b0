//! `payments subscriptions change csub_… --plan P --private-key-file F [--rpc-url U]`: moves a
//! subscription to another plan of its merchant as the customer's wallet would: fetches the change's
//! permission document (its start on the subscription's charge slot), sends the token approval when the
//! server says one is needed (through `--rpc-url`), signs and posts the change. An upgrade is charged the
//! prorated difference at once; a downgrade credits it to the next charge.

use std::path::PathBuf;

use clap::Args;
use payments_client::{ChangeSubscription, TokenApproval, wallet_of_key};

use crate::admin_key::read_signing_key;
use crate::connection::ConnectionArgs;
use crate::output::{print_json, print_text, utc};
use crate::report::failure_with_hint;

#[derive(Debug, Args)]
pub(crate) struct ChangeArgs {
    /// The subscription (csub_...).
    subscription_id: String,
    /// The plan to move to (plan_...): another active plan of the same merchant, with the same period.
    #[arg(long)]
    plan: String,
    /// The customer's private key (0x and 64 hex digits; readable by its owner only).
    #[arg(long)]
    private_key_file: PathBuf,
    /// JSON-RPC URL of the chain, to send the token approval when one is needed.
    #[arg(long, env = "PAYMENTS_RPC_URL")]
    rpc_url: Option<url::Url>,
    /// Sent as the `Idempotency-Key` header: the same key and body replay the first answer.
    #[arg(long)]
    idempotency_key: Option<String>,
    #[command(flatten)]
    connection: ConnectionArgs,
}

pub(crate) async fn run(args: ChangeArgs) -> anyhow::Result<std::process::ExitCode> {
    let key = read_signing_key(&args.private_key_file)?;
    let customer = wallet_of_key(&key);
    let client = args.connection.client()?;
    let offer = client
        .change_permission(&args.plan, &args.subscription_id)
        .await?;
    match (&offer.approval, &args.rpc_url) {
        (TokenApproval { needed: false, .. }, _) => {}
        (approval, Some(rpc_url)) => {
            crate::subscribe::approve(rpc_url, &key, approval, offer.typed_data.domain.chain_id).await?;
        }
        (approval, None) => {
            return Err(failure_with_hint(
                "approval_needed",
                format!(
                    "{customer} must first approve {} on the token {}",
                    approval.spender, approval.token
                ),
                "give --rpc-url (the chain's JSON-RPC URL) to send the approval",
            ));
        }
    }
    let mut change = ChangeSubscription::sign(&args.subscription_id, &args.plan, &offer.typed_data, &key)?;
    if let Some(idempotency_key) = args.idempotency_key {
        change = change.idempotency_key(idempotency_key);
    }
    let changed = client.change_subscription(&change).await?;
    if args.connection.json {
        print_json(&changed)?;
    } else {
        let facts = &changed.change;
        let next = changed
            .subscription
            .next_charge_at
            .map_or_else(|| "-".to_owned(), utc);
        print_text(&format!(
            "{} moved from {} to {}: {} ${} ({} base units), credit ${} waiting, next charge {next}\n",
            changed.subscription.subscription_id,
            facts.previous_plan_id,
            args.plan,
            facts.proration_kind(),
            proration_usd(facts),
            proration_units(facts),
            facts.credit_balance.to_usd_exact(),
        ))?;
    }
    Ok(std::process::ExitCode::SUCCESS)
}

fn proration_units(facts: &payments_core::PlanChangeFacts) -> u128 {
    match facts.proration {
        payments_core::Proration::Charge(amount) | payments_core::Proration::Credit(amount) => {
            amount.base_units()
        }
        payments_core::Proration::Nothing => 0,
    }
}

fn proration_usd(facts: &payments_core::PlanChangeFacts) -> String {
    payments_core::TokenAmount::from_base_units(proration_units(facts)).to_usd_exact()
}
