//! A receipt's card-onramp session (schema v16): recorded by the payment page's "Pay with card".

use payments_core::Wallet;
use rusqlite::{Connection, params};

use payments_domain::receipt::{OnrampSession, ReceiptId};

/// Only an unpaid receipt takes a session: one paid meanwhile keeps what it has. The receipt's `version`
/// (its count of history rows) stays: no status changes, and a transition writes none of these columns.
const RECORD: &str = "UPDATE receipts SET onramp_provider = ?1, onramp_session_id = ?2, onramp_url = ?3,
    onramp_created_at = ?4
    WHERE public_id = ?5 AND wallet = ?6 AND paid_cents = 0";

/// Records `session` on `wallet`'s receipt `id`; `false` when there is no such unpaid receipt.
pub(super) fn record(
    conn: &Connection,
    wallet: Wallet,
    id: &ReceiptId,
    session: &OnrampSession,
) -> rusqlite::Result<bool> {
    let changed = conn.prepare_cached(RECORD)?.execute(params![
        session.provider.as_str(),
        session.session_id,
        session.url,
        session.created_at,
        id.as_str(),
        wallet.to_string(),
    ])?;
    Ok(changed == 1)
}
