//! The subscription flags of `serve`: the cron secret of the charge routes and the test clock, the fee, the
//! spender permissions must name, and the batch timer (docs/subscriptions.md).

use std::time::Duration;

use clap::Args;
use payments_core::Wallet;
use payments_server::{Secret, ServerConfig};

/// Recurring billing.
#[derive(Debug, Args)]
pub(crate) struct SubscriptionArgs {
    /// Secret the `x-cron-secret` header of POST /api/cron/charge-subscriptions, POST
    /// /api/subscriptions/charge and (development mode) POST /api/test-clock/advance must carry. Without
    /// it those routes answer 404; the in-process timer runs the batch anyway.
    #[arg(long, env = "PAYMENTS_CRON_SECRET", hide_env_values = true)]
    cron_secret: Option<String>,
    /// The platform fee of each subscription charge, in basis points.
    #[arg(long, env = "PAYMENTS_SUBSCRIPTION_FEE_BPS", default_value_t = payments_core::DEFAULT_SUBSCRIPTION_FEE_BPS)]
    subscription_fee_bps: u32,
    /// The spender every spend permission must name [default: the relayer's address].
    #[arg(long, env = "PAYMENTS_SUBSCRIPTION_SPENDER")]
    subscription_spender: Option<Wallet>,
    /// Seconds between two runs of the subscription charge batch by the in-process timer.
    #[arg(long, env = "PAYMENTS_SUBSCRIPTION_BATCH_INTERVAL_SECS", default_value_t = payments_server::DEFAULT_SUBSCRIPTION_BATCH_INTERVAL.as_secs())]
    subscription_batch_interval_secs: u64,
    /// Seconds a charge batch run holds its claims; after a crash another run reconciles them with the chain
    /// once they run out (short in tests and benchmarks, far shorter than any billing period).
    #[arg(long, env = "PAYMENTS_SUBSCRIPTION_LEASE_SECS", default_value_t = payments_server::DEFAULT_SUBSCRIPTION_LEASE.as_secs())]
    subscription_lease_secs: u64,
    /// Hours before a charge its `subscription.charge_upcoming` webhook is sent (by the batch run that
    /// finds it within this window; 0 sends none).
    #[arg(long, env = "PAYMENTS_SUBSCRIPTION_NOTICE_HOURS", default_value_t = payments_server::DEFAULT_SUBSCRIPTION_NOTICE.as_secs() / 3_600)]
    subscription_notice_hours: u64,
}

/// Applies the subscription flags.
pub(crate) fn apply_subscription_args(
    config: &mut ServerConfig,
    args: &SubscriptionArgs,
) -> anyhow::Result<()> {
    if args.subscription_fee_bps > 10_000 {
        anyhow::bail!("--subscription-fee-bps must be at most 10000 (100%)");
    }
    config.cron_secret = args
        .cron_secret
        .as_deref()
        .filter(|secret| !secret.is_empty())
        .map(Secret::new);
    config.subscription_fee_bps = args.subscription_fee_bps;
    config.subscription_spender = args.subscription_spender;
    config.subscription_batch_interval = Duration::from_secs(args.subscription_batch_interval_secs.max(1));
    config.subscription_lease = Duration::from_secs(args.subscription_lease_secs.max(1));
    config.subscription_notice = Duration::from_secs(args.subscription_notice_hours.saturating_mul(3_600));
    Ok(())
}
