//! `payments receipts ...` and `payments orders create`: receipts and orders, as a table or `--json`.
//! The admin-session commands (`mark-paid`, `refund`, `terminal`) live in `receipts_admin`.

use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Args, Subcommand};
use payments_client::{CreateOrder, CreateReceipt, OrderItem, Receipt, ReceiptLine};
use payments_core::{Cents, TaxRate};

use crate::connection::{ConnectionArgs, block_on};
use crate::output::{Table, one_line, print_json, print_text, utc};
use crate::receipt_transfers;
use crate::receipts_admin;
use crate::report::{exit_code, failure};
use crate::simulate_payment;

/// Receipts: list, show, status, create, webhook delivery log, deposit transfers; mark-paid, refund, terminal
/// (admin).
#[derive(Debug, Args)]
pub(crate) struct ReceiptsArgs {
    #[command(subcommand)]
    command: ReceiptsCommand,
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Subcommand)]
enum ReceiptsCommand {
    /// List receipts, newest first.
    List {
        /// How many per page (1 to 200; the server's default is 100).
        #[arg(long)]
        limit: Option<u32>,
        /// Start after this position: the cursor a previous page printed.
        #[arg(long, conflicts_with = "all")]
        cursor: Option<String>,
        /// Fetch every page (following each page's cursor, so receipts created meanwhile shift nothing).
        #[arg(long)]
        all: bool,
    },
    /// Show one receipt with its lines.
    Show { id: String },
    /// Show a receipt's status.
    Status { id: String },
    /// Create a receipt from lines `LABEL:PRICE` (the total is their sum).
    Create {
        /// Caller-assigned receipt id.
        #[arg(long)]
        id: String,
        /// A line `LABEL:PRICE_USD`, e.g. `Coffee:3.50`; repeat for more.
        #[arg(long = "line", required = true)]
        lines: Vec<String>,
        /// HTTPS endpoint for status pushes.
        #[arg(long)]
        webhook_url: Option<String>,
    },
    /// Show a receipt's webhook deliveries and attempts.
    Webhooks { id: String },
    /// Show the confirmed on-chain transfers to a receipt's deposit address (any token; only the payment
    /// token counts), with what was received and what is still missing.
    Transfers { id: String },
    /// Send one of a receipt's webhook deliveries again: the same body and delivery id
    /// (`payments receipts webhooks ID` lists them).
    Redeliver {
        /// The receipt.
        id: String,
        /// The delivery to send again.
        delivery_id: String,
    },
    /// Attest that a receipt was paid (admin session; see `payments admin login`).
    MarkPaid(receipts_admin::MarkPaidArgs),
    /// Record a refund of a paid receipt (admin session).
    Refund(receipts_admin::RefundArgs),
    /// Create a terminal (in-person) sale's receipt (admin session).
    Terminal(receipts_admin::TerminalArgs),
    /// Pay a receipt on a test-mode server's simulated chain (the payment page's "Simulate payment"), then
    /// wait until it is paid. Test mode only: a server on a real chain refuses (`not_test_mode`).
    SimulatePayment(simulate_payment::SimulatePaymentArgs),
}

/// Orders.
#[derive(Debug, Args)]
pub(crate) struct OrdersArgs {
    #[command(subcommand)]
    command: OrdersCommand,
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Subcommand)]
enum OrdersCommand {
    /// Create an order from inventory items `SKU:QTY`; prints its receipt.
    Create {
        /// An item `SKU:QTY`, e.g. `MUG-1:2`; repeat for more.
        #[arg(long = "item", required = true)]
        items: Vec<String>,
        /// Manual tax rate (0 to 1), overriding the jurisdiction's.
        #[arg(long)]
        tax_rate: Option<String>,
        /// Tax jurisdiction, e.g. `US-CA`.
        #[arg(long)]
        jurisdiction: Option<String>,
        /// Endpoint for the order's status pushes (HTTPS; a development server also takes loopback http://).
        #[arg(long)]
        webhook_url: Option<String>,
    },
}

pub(crate) fn run_receipts(args: ReceiptsArgs) -> ExitCode {
    exit_code(block_on(receipts(args)).and_then(|result| result))
}

pub(crate) fn run_orders(args: OrdersArgs) -> ExitCode {
    exit_code(block_on(orders(args)).and_then(|result| result))
}

async fn receipts(args: ReceiptsArgs) -> anyhow::Result<ExitCode> {
    let json = args.connection.json;
    // The admin commands authenticate with the stored session: only the others need the key.
    let client = || args.connection.keyed_client();
    match args.command {
        ReceiptsCommand::MarkPaid(admin) => receipts_admin::mark_paid(&args.connection, admin).await?,
        ReceiptsCommand::Refund(admin) => receipts_admin::refund(&args.connection, admin).await?,
        ReceiptsCommand::Terminal(admin) => receipts_admin::terminal(&args.connection, admin).await?,
        ReceiptsCommand::SimulatePayment(simulate) => {
            simulate_payment::simulate_payment(&args.connection, simulate).await?
        }
        ReceiptsCommand::List { limit, cursor, all } => {
            let client = client()?;
            let mut page = client.list_receipts_page(limit, cursor.as_deref()).await?;
            let mut receipts = std::mem::take(&mut page.receipts);
            while all && let Some(cursor) = page.next_cursor.take() {
                page = client.list_receipts_page(limit, Some(&cursor)).await?;
                receipts.append(&mut page.receipts);
            }
            if json {
                print_json(&receipts)?;
            } else {
                let mut table = Table::new(["ID", "STATUS", "TOTAL", "CREATED"]);
                for receipt in &receipts {
                    table.row([
                        receipt.receipt_id.clone(),
                        receipt.status.to_string(),
                        receipt.total_usd.to_string(),
                        utc(receipt.created_at),
                    ]);
                }
                let more = page
                    .next_cursor
                    .map(|cursor| format!("more: --cursor {cursor} (or --all)\n"))
                    .unwrap_or_default();
                print_text(&format!("{}{more}", table.render()))?;
            }
        }
        ReceiptsCommand::Show { id } => {
            let receipt = client()?.get_receipt(&id).await?;
            if json {
                print_json(&receipt)?
            } else {
                print_text(&receipt_table(&receipt))?
            }
        }
        ReceiptsCommand::Status { id } => {
            let status = client()?.receipt_status(&id).await?;
            if json {
                print_json(&status)?;
            } else {
                let mut table = Table::new(["ID", "STATUS", "AMOUNT", "TRANSACTION"]);
                let hash = status.transaction_hash.clone().unwrap_or_default();
                table.row([
                    status.id,
                    status.status.to_string(),
                    status.amount.to_string(),
                    hash,
                ]);
                print_text(&table.render())?;
            }
        }
        ReceiptsCommand::Create {
            id,
            lines,
            webhook_url,
        } => {
            let lines = lines
                .iter()
                .map(|line| parse_line(line))
                .collect::<anyhow::Result<_>>()?;
            let mut request = CreateReceipt::new(id, lines);
            request.webhook_url = webhook_url;
            let created = client()?.create_receipt(&request).await?;
            if json {
                print_json(&created)?;
            } else {
                let mut table = Table::new(["ID", "STATUS", "PAYMENT URL"]);
                table.row([created.id, created.status.to_string(), created.payment_url]);
                print_text(&table.render())?;
            }
        }
        ReceiptsCommand::Webhooks { id } => {
            let deliveries = client()?.receipt_webhooks(&id).await?;
            if json {
                print_json(&deliveries)?;
            } else {
                print_text(&deliveries_table(&deliveries, false))?;
            }
        }
        ReceiptsCommand::Transfers { id } => {
            let deposit = client()?.receipt_transfers(&id).await?;
            if json {
                print_json(&deposit)?;
            } else {
                print_text(&receipt_transfers::transfers_text(&deposit))?;
            }
        }
        ReceiptsCommand::Redeliver { id, delivery_id } => {
            client()?.redeliver_webhook(&id, &delivery_id).await?;
            if json {
                print_json(&serde_json::json!({"ok": true, "receiptId": id, "deliveryId": delivery_id}))?;
            } else {
                print_text(&format!(
                    "delivery {delivery_id} of receipt {id} queued again (`payments receipts webhooks {id}` shows its attempts)\n"
                ))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

async fn orders(args: OrdersArgs) -> anyhow::Result<ExitCode> {
    let client = args.connection.keyed_client()?;
    let OrdersCommand::Create {
        items,
        tax_rate,
        jurisdiction,
        webhook_url,
    } = args.command;
    let items = items
        .iter()
        .map(|item| parse_item(item))
        .collect::<anyhow::Result<_>>()?;
    let mut order = CreateOrder::new(items);
    order.jurisdiction_code = jurisdiction;
    order.webhook_url = webhook_url;
    order.tax_rate = tax_rate
        .map(|rate| {
            TaxRate::parse(&rate).map_err(|error| failure("invalid_input", format!("--tax-rate: {error}")))
        })
        .transpose()?;
    let receipt = client.create_order(&order).await?;
    if args.connection.json {
        print_json(&receipt)?
    } else {
        print_text(&receipt_table(&receipt))?
    }
    Ok(ExitCode::SUCCESS)
}

/// A receipt's lines, then its id, status, total and payment link.
pub(crate) fn receipt_table(receipt: &Receipt) -> String {
    let mut table = Table::new(["LINE", "QTY", "PRICE"]);
    for line in &receipt.line_items {
        let qty = line.qty.map(|qty| qty.to_string()).unwrap_or_default();
        table.row([one_line(&line.label), qty, line.price_usd.to_string()]);
    }
    table.row(["Total".to_owned(), String::new(), receipt.total_usd.to_string()]);
    let link = receipt.payment_url.clone().unwrap_or_default();
    let instruction = receipt
        .payment
        .as_ref()
        .map(|payment| {
            format!(
                "pay: {} base units of token {} to {} on chain {}\n",
                payment.amount, payment.token, payment.to, payment.chain_id
            )
        })
        .unwrap_or_default();
    format!(
        "receipt {} ({})\n{}payment url: {link}\n{instruction}",
        receipt.receipt_id,
        receipt.status,
        table.render()
    )
}

fn parse_line(text: &str) -> anyhow::Result<ReceiptLine> {
    let (label, price) = text
        .rsplit_once(':')
        .ok_or_else(|| failure("invalid_input", format!("--line {text:?}: expected LABEL:PRICE")))?;
    let price_usd = Cents::parse_usd(price)
        .map_err(|error| failure("invalid_input", format!("--line {text:?}: {error}")))?;
    Ok(ReceiptLine {
        label: label.to_owned(),
        price_usd,
        qty: None,
    })
}

fn parse_item(text: &str) -> anyhow::Result<OrderItem> {
    let (sku, qty) = text
        .rsplit_once(':')
        .ok_or_else(|| failure("invalid_input", format!("--item {text:?}: expected SKU:QTY")))?;
    let qty = qty
        .parse()
        .with_context(|| format!("--item {text:?}: QTY must be a whole number"))?;
    Ok(OrderItem::sku(sku, qty))
}

/// The delivery log as a table: one row per delivery with its last attempt's answer (and its subscription,
/// for a plan's).
pub(crate) fn deliveries_table(
    deliveries: &[payments_client::WebhookDelivery],
    by_subscription: bool,
) -> String {
    let mut header = vec!["DELIVERY"];
    if by_subscription {
        header.push("SUBSCRIPTION");
    }
    header.extend(["STATE", "ATTEMPTS", "LAST STATUS", "URL"]);
    let mut table = Table::new(header);
    for delivery in deliveries {
        let last = delivery
            .attempts
            .last()
            .map(|attempt| match (&attempt.status_code, &attempt.error) {
                (Some(code), _) => code.to_string(),
                (None, Some(error)) => one_line(error),
                (None, None) => String::new(),
            });
        let mut row = vec![delivery.delivery_id.clone()];
        if by_subscription {
            row.push(delivery.subscription_id.clone().unwrap_or_default());
        }
        row.extend([
            delivery.state.to_string(),
            delivery.attempts.len().to_string(),
            last.unwrap_or_default(),
            delivery.url.clone(),
        ]);
        table.row(row);
    }
    table.render()
}
