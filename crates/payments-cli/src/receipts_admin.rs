//! `payments receipts mark-paid | refund | terminal`: the receipt commands that move money or attest a
//! payment, which the server accepts only from a signed-in admin (see `payments admin login`), never from
//! a subscription key.

use clap::Args;
use payments_client::{PostStatus, RefundReceipt, StatusPosted, TerminalSale};
use payments_core::{Cents, ReceiptStatus, TaxRate, Wallet};
use serde::Serialize;

use crate::admin_session::{self, SessionArgs};
use crate::connection::ConnectionArgs;
use crate::output::{Table, print_json, print_text};
use crate::receipts::receipt_table;
use crate::report::failure;

/// Attest that a receipt was paid.
#[derive(Debug, Args)]
pub(crate) struct MarkPaidArgs {
    /// The receipt.
    id: String,
    /// The payment's on-chain transaction: 0x and 64 hex digits.
    #[arg(long, value_name = "0xHASH")]
    tx_hash: String,
    #[command(flatten)]
    session: SessionArgs,
}

/// Record a refund of a paid receipt.
#[derive(Debug, Args)]
pub(crate) struct RefundArgs {
    /// The paid receipt.
    id: String,
    /// USD refunded by this call, at most what remains refundable (e.g. `5.00`).
    #[arg(long, value_name = "USD")]
    usd: String,
    /// The buyer's wallet the refund was sent to (the server records it and requires it).
    #[arg(long, value_name = "0xADDR")]
    buyer: String,
    /// The refund's on-chain transaction: 0x and 64 hex digits. The server checks on chain that it sends at
    /// least USD of the payment token to the buyer, and that no other refund used it.
    #[arg(long, value_name = "0xHASH", required_unless_present = "simulate")]
    tx_hash: Option<String>,
    /// Test mode only: the server's test-mode chain sends the refund for the merchant (no --tx-hash).
    #[arg(long, conflicts_with = "tx_hash")]
    simulate: bool,
    /// Makes a resend safe: the same key and refund within 24 hours answer the first result instead of
    /// refunding twice. Use one when a refund's answer may have been lost.
    #[arg(long, value_name = "KEY")]
    idempotency_key: Option<String>,
    #[command(flatten)]
    session: SessionArgs,
}

/// Create the receipt of an in-person sale of one amount, priced with tax and fee by the server.
#[derive(Debug, Args)]
pub(crate) struct TerminalArgs {
    /// The sale amount before tax and fee, USD (e.g. `12.50`).
    #[arg(long, value_name = "USD")]
    amount: String,
    /// The line's label (the server's default is `Sale`).
    #[arg(long)]
    label: Option<String>,
    /// Tax jurisdiction, e.g. `US-CA`.
    #[arg(long, value_name = "CODE")]
    jurisdiction: Option<String>,
    /// Manual tax rate (0 to 1), overriding the jurisdiction's.
    #[arg(long, value_name = "RATE")]
    tax_rate: Option<String>,
    #[command(flatten)]
    session: SessionArgs,
}

/// A status post's answer with the receipt it was about.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Posted<'a> {
    receipt_id: &'a str,
    #[serde(flatten)]
    posted: &'a StatusPosted,
}

/// Posts `paid` for the session's own wallet: an admin attestation of the receipt's total.
pub(crate) async fn mark_paid(connection: &ConnectionArgs, args: MarkPaidArgs) -> anyhow::Result<()> {
    let (client, session) = admin_session::signed_in(connection, &args.session)?;
    let post =
        PostStatus::new(&args.id, session.wallet(), ReceiptStatus::Paid).transaction_hash(args.tx_hash);
    let posted = client
        .post_receipt_status_as_admin(&session, &post)
        .await
        .map_err(admin_session::refused)?;
    show_posted(connection, &args.id, &posted)
}

pub(crate) async fn refund(connection: &ConnectionArgs, args: RefundArgs) -> anyhow::Result<()> {
    let usd = Cents::parse_usd(&args.usd)
        .map_err(|error| failure("invalid_input", format!("--usd {:?}: {error}", args.usd)))?;
    let buyer =
        Wallet::parse(&args.buyer).map_err(|error| failure("invalid_input", format!("--buyer: {error}")))?;
    let (client, session) = admin_session::signed_in(connection, &args.session)?;
    let mut refund = match args.tx_hash {
        Some(tx_hash) => RefundReceipt::new(&args.id, session.wallet(), buyer, usd, tx_hash),
        None => RefundReceipt::simulated(&args.id, session.wallet(), buyer, usd),
    };
    if let Some(key) = args.idempotency_key {
        refund = refund.idempotency_key(key);
    }
    let posted = client
        .refund_receipt(&session, &refund)
        .await
        .map_err(admin_session::refused)?;
    show_posted(connection, &args.id, &posted)
}

pub(crate) async fn terminal(connection: &ConnectionArgs, args: TerminalArgs) -> anyhow::Result<()> {
    let amount = Cents::parse_usd(&args.amount)
        .map_err(|error| failure("invalid_input", format!("--amount {:?}: {error}", args.amount)))?;
    let mut sale = TerminalSale::new(amount);
    if let Some(label) = args.label {
        sale = sale.label(label);
    }
    if let Some(code) = args.jurisdiction {
        sale = sale.jurisdiction_code(code);
    }
    if let Some(rate) = args.tax_rate {
        let rate = TaxRate::parse(&rate)
            .map_err(|error| failure("invalid_input", format!("--tax-rate: {error}")))?;
        sale = sale.tax_rate(rate);
    }
    let (client, session) = admin_session::signed_in(connection, &args.session)?;
    let receipt = client
        .terminal_sale(&session, &sale)
        .await
        .map_err(admin_session::refused)?;
    if connection.json {
        print_json(&receipt)
    } else {
        print_text(&receipt_table(&receipt))
    }
}

fn show_posted(connection: &ConnectionArgs, id: &str, posted: &StatusPosted) -> anyhow::Result<()> {
    if connection.json {
        return print_json(&Posted {
            receipt_id: id,
            posted,
        });
    }
    let previous = match (&posted.previous_status, posted.ignored) {
        (Some(previous), _) => previous.to_string(),
        (None, true) => "(unchanged)".to_owned(),
        (None, false) => String::new(),
    };
    let mut table = Table::new(["ID", "STATUS", "PREVIOUS"]);
    table.row([id.to_owned(), posted.status.to_string(), previous]);
    print_text(&table.render())
}
