//! Changing a receipt's status as one transaction: the idempotency claim, the receipt locked with
//! `FOR UPDATE` (concurrent transitions of one receipt queue behind it and each decides on the previous
//! one's result), the merchant's configuration, the service's decision, and the new state with its history,
//! outbox and refund rows (a refund whose transaction already proves another refund rolls it all back).

use crate::postgres::connection::{PgClient, Queries};
use payments_core::{ReceiptStatus, Wallet};

use crate::postgres::error::PgError;
use crate::postgres::idempotency::{self, Claimed};
use crate::postgres::retry::{self, Failed};
use crate::postgres::{PgStore, endpoints, merchant, outbox, receipts, refunds, rows, stock, users};
use crate::{
    Committed, IdempotencyClaim, OwnerRow, Resource, TransitionCommit, TransitionDecision, TransitionRefused,
    TransitionTx, Transitioned, TxError, purchase_credit_changes,
};
use payments_domain::receipt::ReceiptId;

/// The row is locked, so the version check only guards against a decision built for another version.
const APPLY: &str = "UPDATE receipts SET status = $2, version = version + 1, paid_cents = $3,
    refunded_cents = $4, transaction_hash = COALESCE($5, transaction_hash),
    transaction_timestamp = CASE WHEN $5::text IS NULL THEN transaction_timestamp ELSE $8 END,
    buyer_wallet = COALESCE($6, buyer_wallet), failure_json = $7, updated_at = $8, status_authority = $10,
    expired = expired OR $11, paid_late = $12, received_units = $13
    WHERE id = $1 AND version = $9";
const INSERT_HISTORY: &str = "INSERT INTO receipt_history (receipt_id, from_status, to_status, actor, at)
    VALUES ($1, $2, $3, $4, $5) RETURNING id";
const HISTORY_ENTRY: &str = "SELECT h.from_status, h.to_status FROM receipt_history h
    JOIN receipts r ON r.id = h.receipt_id WHERE h.id = $1 AND r.public_id = $2";

/// Runs the transition, again after a transient failure as long as the decision has not run.
pub(super) async fn apply<T: Send>(
    store: &PgStore,
    change: TransitionTx<T>,
) -> Result<Committed<Transitioned>, TxError<TransitionRefused<T>>> {
    store.availability.check()?;
    let TransitionTx {
        wallet,
        receipt_id,
        claim,
        decide,
    } = change;
    let mut decide = Some(decide);
    let mut attempt = 0;
    loop {
        let client = store.client().await?;
        let recover = attempt + 1 >= retry::MAX_ATTEMPTS;
        let outcome = attempt_transition(
            client,
            wallet,
            &receipt_id,
            (claim.as_ref(), recover),
            &mut decide,
        )
        .await;
        match retry::settle(outcome, attempt, decide.is_none()) {
            retry::Next::Answer(answer) => return answer,
            retry::Next::Retry(pause) => {
                tokio::time::sleep(pause).await;
                attempt += 1;
            }
        }
    }
}

async fn attempt_transition<T>(
    mut client: PgClient,
    wallet: Option<Wallet>,
    receipt_id: &ReceiptId,
    (claim, recover): (Option<&IdempotencyClaim>, bool),
    decide: &mut Option<TransitionDecision<T>>,
) -> Result<Committed<Transitioned>, Failed<TransitionRefused<T>>> {
    let tx = client.transaction().await?;
    let claimed = match claim {
        None => None,
        Some(claim) => match idempotency::claim(&tx, claim).await? {
            Claimed::Fresh(id) => Some(id),
            Claimed::Replay(response) => return Ok(Committed::Replayed(response)),
            Claimed::Unkept(resource) => {
                idempotency::unkept(recover)?;
                return recovered(&tx, wallet, receipt_id, &resource).await;
            }
            Claimed::Conflict => return Err(Failed::Conflict),
            Claimed::Pending => return Err(Failed::Busy(idempotency::pending(claim))),
        },
    };
    let rows = receipts::select_by_id(&tx, wallet, receipt_id, receipts::Hold::Lock).await?;
    let Some(row) = receipts::only_row(rows) else {
        return Err(Failed::Refused(TransitionRefused::NotFound(receipt_id.clone())));
    };
    let (rowid, before) = receipts::receipt_from_row(&row)?;
    let snapshot = merchant::snapshot(&tx, before.wallet).await?;
    let decide = decide
        .take()
        .ok_or_else(|| Failed::Busy("the transition's decision already ran".to_owned()))?;
    let decided = decide(&before, &snapshot);
    let (transitioned, resource) =
        match decided.map_err(|refusal| Failed::Refused(TransitionRefused::Decision(refusal)))? {
            None => (
                Transitioned {
                    before,
                    moved: None,
                    enqueued: false,
                },
                Resource::Receipt(receipt_id.clone()),
            ),
            Some(commit) => {
                let Some(entry) = write(&tx, rowid, &commit).await? else {
                    // The row is locked FOR UPDATE, so its version cannot have moved; if it did, say busy.
                    return Err(Failed::Busy(format!(
                        "receipt {receipt_id} changed during its transaction"
                    )));
                };
                if let Some(refund) = &commit.refund
                    && !refunds::insert(&tx, rowid, refund, commit.now_ms).await?
                {
                    // Dropping the transaction rolls the status change back with it.
                    return Err(Failed::Refused(TransitionRefused::RefundTxTaken(
                        refund.tx_hash.clone(),
                    )));
                }
                for (buyer, change) in purchase_credit_changes(&before, &commit) {
                    users::credit_purchases(&tx, buyer, change, commit.now_ms).await?;
                }
                let moved = Transitioned {
                    before,
                    moved: Some((commit.from, commit.to)),
                    enqueued: commit.delivery.is_some(),
                };
                (moved, Resource::StatusChange(entry))
            }
        };
    if let Some(claim_id) = claimed {
        idempotency::name(&tx, claim_id, &resource).await?;
    }
    tx.commit().await?;
    Ok(Committed::Fresh(transitioned))
}

/// The transition an earlier call with the same key committed (the process stopped before it kept its
/// response): the statuses it moved between as the receipt's history recorded them, the receipt as stored
/// now.
async fn recovered<T>(
    tx: &impl Queries,
    wallet: Option<Wallet>,
    receipt_id: &ReceiptId,
    resource: &Resource,
) -> Result<Committed<Transitioned>, Failed<TransitionRefused<T>>> {
    let Some(before) = receipts::fetch_row(tx, wallet, receipt_id).await? else {
        return Err(Failed::Refused(TransitionRefused::NotFound(receipt_id.clone())));
    };
    let moved = match resource {
        Resource::StatusChange(entry) => Some(history_entry(tx, *entry, receipt_id).await?),
        Resource::Receipt(_) => None,
        Resource::Plan(_) | Resource::Subscription(_) | Resource::Change(_) => {
            return Err(
                PgError::corrupt("column resource_kind", "a transition's claim names no receipt").into(),
            );
        }
    };
    Ok(Committed::Recovered(Transitioned::recovered(before, moved)))
}

/// The statuses history entry `entry` of receipt `id` moved between.
async fn history_entry(
    tx: &impl Queries,
    entry: i64,
    id: &ReceiptId,
) -> Result<(ReceiptStatus, ReceiptStatus), PgError> {
    let statement = tx.prepare_cached(HISTORY_ENTRY).await?;
    let row = tx
        .query_opt(&statement, &[&entry, &id.as_str()])
        .await?
        .ok_or_else(|| {
            PgError::corrupt(
                "idempotency_keys.resource_id",
                format!("no history entry {entry}"),
            )
        })?;
    let status = |name: &str| -> Result<ReceiptStatus, PgError> {
        rows::get::<String>(&row, name)?
            .parse()
            .map_err(|error| PgError::corrupt("receipt_history status", error))
    };
    Ok((status("from_status")?, status("to_status")?))
}

/// Writes an accepted transition like SQLite's `commit_transition`, with the stock an expiry gives back or a
/// late payment takes again. Answers the history entry it wrote; `None` when the receipt is not at the
/// decision's version.
async fn write(tx: &impl Queries, rowid: i64, commit: &TransitionCommit) -> Result<Option<i64>, PgError> {
    let failure = commit.failure.as_ref().map(rows::to_json).transpose()?;
    let apply = tx.prepare_cached(APPLY).await?;
    let changed = tx
        .execute(
            &apply,
            &[
                &rowid,
                &commit.to.status.as_str(),
                &commit.to.paid.as_i64(),
                &commit.to.refunded.as_i64(),
                &commit.transaction_hash,
                &commit.buyer_wallet.map(|wallet| wallet.to_string()),
                &failure,
                &commit.now_ms,
                &commit.expected_version,
                &commit.to.held_by.as_str(),
                &commit.expires,
                &commit.paid_late,
                &commit.received.to_string(),
            ],
        )
        .await?;
    if changed == 0 {
        return Ok(None);
    }
    let history = tx.prepare_cached(INSERT_HISTORY).await?;
    let entry = tx
        .query_one(
            &history,
            &[
                &rowid,
                &commit.from.as_str(),
                &commit.to.status.as_str(),
                &commit.actor,
                &commit.now_ms,
            ],
        )
        .await?;
    let entry: i64 = rows::get(&entry, "id")?;
    if let Some(delivery) = &commit.delivery {
        outbox::insert_delivery(tx, OwnerRow::Receipt(rowid), delivery, commit.now_ms).await?;
    }
    endpoints::record_event(tx, &commit.event).await?;
    if commit.expires {
        stock::release(tx, rowid, commit.wallet, commit.now_ms).await?;
    }
    if commit.retakes_stock {
        stock::retake(tx, rowid, commit.wallet, commit.now_ms).await?;
    }
    if let Some(tx_hash) = &commit.confirms_refund {
        refunds::confirm(tx, rowid, tx_hash, commit.now_ms).await?;
    }
    Ok(Some(entry))
}
