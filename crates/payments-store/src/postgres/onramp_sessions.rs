//! A receipt's card-onramp session (schema v16): recorded by the payment page's "Pay with card".

use crate::postgres::connection::{PgClient, Queries};
use payments_core::Wallet;

use crate::postgres::error::PgError;
use payments_domain::receipt::{OnrampSession, ReceiptId};

/// Only an unpaid receipt takes a session: one paid meanwhile keeps what it has. The receipt's `version`
/// (its count of history rows) stays: no status changes, and a transition writes none of these columns.
const RECORD: &str = "UPDATE receipts SET onramp_provider = $1, onramp_session_id = $2, onramp_url = $3,
    onramp_created_at = $4
    WHERE public_id = $5 AND wallet = $6 AND paid_cents = 0";

/// Records `session` on `wallet`'s receipt `id`; `false` when there is no such unpaid receipt.
pub(super) async fn record(
    client: PgClient,
    wallet: Wallet,
    id: &ReceiptId,
    session: &OnrampSession,
) -> Result<bool, PgError> {
    let statement = client.prepare_cached(RECORD).await?;
    let changed = client
        .execute(
            &statement,
            &[
                &session.provider.as_str(),
                &session.session_id,
                &session.url,
                &session.created_at,
                &id.as_str(),
                &wallet.to_string(),
            ],
        )
        .await?;
    Ok(changed == 1)
}
