//! The receipt totals behind the billing balance.

use payments_core::{Cents, Wallet};
use rusqlite::Connection;

use crate::store::ReceiptFeeBase;

/// A receipt is settled once its split ran: it is `completed` (or `reconciled`, which follows), or it
/// passed through `completed` before a refund.
const FEE_BASE: &str = "SELECT COUNT(*), COALESCE(SUM(paid_cents), 0), COALESCE(SUM(settled), 0),
    COALESCE(SUM(settled * paid_cents), 0)
    FROM (SELECT paid_cents, (status IN ('completed', 'reconciled') OR EXISTS (
            SELECT 1 FROM receipt_history WHERE receipt_history.receipt_id = receipts.id
                AND receipt_history.to_status = 'completed')) AS settled
        FROM receipts WHERE wallet = ?1 AND paid_cents > 0)";

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
