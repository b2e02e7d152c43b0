//! `payments-server reconcile [--from DATE] [--to DATE] [--json]`: compares what the database records with
//! what the chain shows (payments into deposits, settlements, refunds, subscription charges) and prints every
//! difference as receipt or subscription, field, database value, chain value. Exit 0 when none, 1 otherwise.
//!
//! It opens the database and the chain with the same flags as `serve` and starts no worker. The test-mode chain
//! lives inside the running server, so a server without `--chain-rpc-url` is reconciled through its admin
//! route (`GET /api/admin/reconcile`) instead.

use std::sync::Arc;

use anyhow::Context as _;
use clap::Args;
use payments_core::{parse_utc_time, utc_iso8601};
use payments_server::{App, ReconcileReport, SystemClock};
use serde_json::json;

use crate::cli::serve_args::{ServeArgs, build_config};

/// `reconcile`'s flags, beside the server's own (database, chain, token, confirmations).
#[derive(Debug, Args)]
pub(crate) struct ReconcileArgs {
    /// Only records created at or after this UTC date or time (2026-01-31 or 2026-01-31T12:00:00Z).
    #[arg(long, env = "PAYMENTS_RECONCILE_FROM", value_name = "DATE")]
    from: Option<String>,
    /// Only records created before this UTC date or time.
    #[arg(long, env = "PAYMENTS_RECONCILE_TO", value_name = "DATE")]
    to: Option<String>,
    /// Print the report as one JSON document.
    #[arg(long, env = "PAYMENTS_RECONCILE_JSON")]
    json: bool,
    #[command(flatten)]
    server: ServeArgs,
}

/// Runs `reconcile`; `Ok(false)` when a difference was found.
pub(crate) fn reconcile(args: ReconcileArgs) -> anyhow::Result<bool> {
    let time = |name: &str, text: Option<&str>, default: i64| -> anyhow::Result<i64> {
        text.map_or(Ok(default), |text| {
            parse_utc_time(text).with_context(|| {
                format!("--{name} must be a UTC date (2026-01-31) or time (2026-01-31T12:00:00Z)")
            })
        })
    };
    let from_ms = time("from", args.from.as_deref(), 0)?;
    let to_ms = time("to", args.to.as_deref(), i64::MAX)?;
    let config = build_config(&args.server)?.config;
    if config.chain_rpc_url.is_none() {
        anyhow::bail!(
            "reconcile reads a real chain (--chain-rpc-url); the test-mode chain lives inside the running \
             server: use GET /api/admin/reconcile there"
        );
    }
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let report = runtime.block_on(async move {
        let app = App::open(config, Arc::new(SystemClock))
            .await
            .context("opening the database")?;
        app.reconcile(from_ms, to_ms).await.context("reconciling")
    })?;
    if args.json {
        println!("{}", report_json(&report, from_ms, to_ms));
    } else {
        print!("{}", report_text(&report));
    }
    Ok(report.differences.is_empty())
}

fn report_json(report: &ReconcileReport, from_ms: i64, to_ms: i64) -> serde_json::Value {
    json!({
        "from": (from_ms > 0).then(|| utc_iso8601(from_ms)),
        "to": (to_ms < i64::MAX).then(|| utc_iso8601(to_ms)),
        "confirmedHead": report.confirmed_head,
        "checked": {"receipts": report.receipts, "refunds": report.refunds, "charges": report.charges},
        "differences": report.differences.iter().map(|difference| json!({
            "subject": difference.subject,
            "field": difference.field,
            "database": difference.database,
            "chain": difference.chain,
        })).collect::<Vec<_>>(),
    })
}

fn report_text(report: &ReconcileReport) -> String {
    let mut text = format!(
        "checked {} receipts, {} refunds, {} charges up to block {}\n",
        report.receipts, report.refunds, report.charges, report.confirmed_head
    );
    if report.differences.is_empty() {
        text.push_str("no differences\n");
        return text;
    }
    text.push_str(&format!("{} differences:\n", report.differences.len()));
    text.push_str("subject\tfield\tdatabase\tchain\n");
    for difference in &report.differences {
        text.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            difference.subject, difference.field, difference.database, difference.chain
        ));
    }
    text
}
