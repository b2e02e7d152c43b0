//! `payments receipts simulate-payment ID`: pays a receipt on a test-mode server's simulated chain (the
//! payment page's "Simulate payment" button), then waits until the server's watcher has made it `paid`.
//! Development and tests only: a server on a real chain refuses, and nothing real moves.

use std::time::{Duration, Instant};

use clap::Args;
use payments_client::{Client, Receipt, SimulatedPayment};
use payments_core::ReceiptStatus;

use crate::connection::ConnectionArgs;
use crate::output::{Table, print_json, print_text};
use crate::report::failure_with_hint;

/// How often the receipt is read again while waiting.
const POLL: Duration = Duration::from_millis(200);

/// `simulate-payment`'s arguments.
#[derive(Debug, Args)]
pub(crate) struct SimulatePaymentArgs {
    /// The receipt to pay.
    id: String,
    /// Seconds to wait for `paid` (or `completed`) after the transfer; 0 returns at once.
    #[arg(long, default_value_t = 30)]
    wait_secs: u64,
}

/// Runs `simulate-payment`.
pub(crate) async fn simulate_payment(
    connection: &ConnectionArgs,
    args: SimulatePaymentArgs,
) -> anyhow::Result<()> {
    let client = connection.keyed_client()?;
    let receipt = client.get_receipt(&args.id).await?;
    match client.simulate_payment(&receipt).await? {
        SimulatedPayment::Sent => {}
        _ => {
            return Err(failure_with_hint(
                "not_test_mode",
                format!(
                    "{} does not simulate payments: it runs on a real chain, or receipt {} has no payment \
                     instruction",
                    client.base_url(),
                    args.id
                ),
                format!(
                    "only a test-mode server (started without --chain-rpc-url) simulates payments; on a real \
                     chain pay the instruction `payments receipts show {}` prints",
                    args.id
                ),
            ));
        }
    }
    let receipt = wait_for_payment(&client, receipt, Duration::from_secs(args.wait_secs)).await?;
    if connection.json {
        print_json(&receipt)?;
    } else {
        let mut table = Table::new(["ID", "STATUS", "TRANSACTION", "BUYER"]);
        table.row([
            receipt.receipt_id.clone(),
            receipt.status.to_string(),
            receipt.transaction_hash.clone().unwrap_or_default(),
            receipt
                .buyer_wallet
                .map(|wallet| wallet.to_string())
                .unwrap_or_default(),
        ]);
        print_text(&table.render())?;
    }
    Ok(())
}

/// Reads the receipt until the payment counted (or it was never waited for).
async fn wait_for_payment(client: &Client, mut receipt: Receipt, wait: Duration) -> anyhow::Result<Receipt> {
    let deadline = Instant::now() + wait;
    loop {
        if wait.is_zero() || is_paid(&receipt) {
            return Ok(receipt);
        }
        if Instant::now() >= deadline {
            return Err(failure_with_hint(
                "not_paid_yet",
                format!(
                    "the simulated transfer was sent, but receipt {} is still {} after {} s",
                    receipt.receipt_id,
                    receipt.status,
                    wait.as_secs()
                ),
                format!(
                    "`payments receipts status {}` shows when it counts; a server with --confirmations N waits \
                     for N more blocks",
                    receipt.receipt_id
                ),
            ));
        }
        tokio::time::sleep(POLL).await;
        receipt = client.get_receipt(&receipt.receipt_id).await?;
    }
}

/// `paid` or any status a paid receipt moves on to.
fn is_paid(receipt: &Receipt) -> bool {
    matches!(
        receipt.status.known(),
        Some(
            ReceiptStatus::Paid
                | ReceiptStatus::Completed
                | ReceiptStatus::RefundPartial
                | ReceiptStatus::Refunded
        )
    )
}
