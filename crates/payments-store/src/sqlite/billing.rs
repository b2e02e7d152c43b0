//! The receipt totals behind the billing balance.

use payments_core::{Cents, TokenAmount, Wallet};
use rusqlite::Connection;

use crate::{ReceiptFeeBase, SubscriptionFeeBase};

/// A receipt is settled once its split ran: it is `completed` (or `reconciled`, which follows), or it
/// passed through `completed` before a refund.
const FEE_BASE: &str = "SELECT COUNT(*), COALESCE(SUM(paid_cents), 0), COALESCE(SUM(settled), 0),
    COALESCE(SUM(settled * paid_cents), 0)
    FROM (SELECT paid_cents, (status IN ('completed', 'reconciled') OR EXISTS (
            SELECT 1 FROM receipt_history WHERE receipt_history.receipt_id = receipts.id
                AND receipt_history.to_status = 'completed')) AS settled
        FROM receipts WHERE wallet = ?1 AND paid_cents > 0)";

/// Every `charged` (and plan-change `prorated_charge`) billing event of the merchant's subscriptions.
const SUBSCRIPTION_FEE_BASE: &str =
    "SELECT COUNT(*), COALESCE(SUM(e.gross_cents), 0), COALESCE(SUM(e.fee_units), 0)
    FROM billing_events e JOIN customer_subscriptions s ON s.id = e.subscription_id
    WHERE s.merchant = ?1 AND e.status IN ('charged', 'prorated_charge')";

pub(super) fn subscription_fee_base(
    conn: &Connection,
    merchant: Wallet,
) -> rusqlite::Result<SubscriptionFeeBase> {
    conn.prepare_cached(SUBSCRIPTION_FEE_BASE)?
        .query_row([merchant.to_string()], |row| {
            Ok(SubscriptionFeeBase {
                charges: u64::try_from(row.get::<_, i64>(0)?).unwrap_or_default(),
                charged: Cents::new(row.get(1)?),
                fees: TokenAmount::from_base_units(u128::try_from(row.get::<_, i64>(2)?).unwrap_or_default()),
            })
        })
}

pub(super) fn receipt_fee_base(conn: &Connection, merchant: Wallet) -> rusqlite::Result<ReceiptFeeBase> {
    conn.prepare_cached(FEE_BASE)?
        .query_row([merchant.to_string()], |row| {
            Ok(ReceiptFeeBase {
                paid_receipts: u64::try_from(row.get::<_, i64>(0)?).unwrap_or_default(),
                paid: Cents::new(row.get(1)?),
                settled_receipts: u64::try_from(row.get::<_, i64>(2)?).unwrap_or_default(),
                settled_paid: Cents::new(row.get(3)?),
            })
        })
}
