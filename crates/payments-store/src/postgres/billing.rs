//! The receipt totals behind the billing balance, on PostgreSQL.

use crate::postgres::connection::{PgClient, Queries};
use payments_core::{Cents, TokenAmount, Wallet};

use crate::postgres::error::PgError;
use crate::postgres::rows;
use crate::{ReceiptFeeBase, SubscriptionFeeBase};

/// A receipt is settled once its split ran: it is `completed` (or `reconciled`, which follows), or it
/// passed through `completed` before a refund.
const FEE_BASE: &str = "SELECT COUNT(*) AS paid_receipts, COALESCE(SUM(paid_cents), 0)::BIGINT AS paid,
    COUNT(*) FILTER (WHERE settled) AS settled_receipts,
    COALESCE(SUM(paid_cents) FILTER (WHERE settled), 0)::BIGINT AS settled_paid
    FROM (SELECT paid_cents, (status IN ('completed', 'reconciled') OR EXISTS (
            SELECT 1 FROM receipt_history WHERE receipt_history.receipt_id = receipts.id
                AND receipt_history.to_status = 'completed')) AS settled
        FROM receipts WHERE wallet = $1 AND paid_cents > 0) AS paid_receipts";

/// Every `charged` (and plan-change `prorated_charge`) billing event of the merchant's subscriptions.
const SUBSCRIPTION_FEE_BASE: &str =
    "SELECT COUNT(*) AS charges, COALESCE(SUM(e.gross_cents), 0)::BIGINT AS charged,
    COALESCE(SUM(e.fee_units), 0)::BIGINT AS fees
    FROM billing_events e JOIN customer_subscriptions s ON s.id = e.subscription_id
    WHERE s.merchant = $1 AND e.status IN ('charged', 'prorated_charge')";

pub(super) async fn subscription_fee_base(
    client: PgClient,
    merchant: Wallet,
) -> Result<SubscriptionFeeBase, PgError> {
    let statement = client.prepare_cached(SUBSCRIPTION_FEE_BASE).await?;
    let row = client.query_one(&statement, &[&merchant.to_string()]).await?;
    Ok(SubscriptionFeeBase {
        charges: rows::non_negative(rows::get(&row, "charges")?),
        charged: Cents::new(rows::get(&row, "charged")?),
        fees: TokenAmount::from_base_units(
            u128::try_from(rows::get::<i64>(&row, "fees")?).unwrap_or_default(),
        ),
    })
}

pub(super) async fn receipt_fee_base(client: PgClient, merchant: Wallet) -> Result<ReceiptFeeBase, PgError> {
    let statement = client.prepare_cached(FEE_BASE).await?;
    let row = client.query_one(&statement, &[&merchant.to_string()]).await?;
    Ok(ReceiptFeeBase {
        paid_receipts: rows::non_negative(rows::get(&row, "paid_receipts")?),
        paid: Cents::new(rows::get(&row, "paid")?),
        settled_receipts: rows::non_negative(rows::get(&row, "settled_receipts")?),
        settled_paid: Cents::new(rows::get(&row, "settled_paid")?),
    })
}
