//! Status changes: load the receipt, let the core state machine decide, and commit the new state with its
//! history row and (when the receipt has a webhook URL) its outbox row in one store transaction.

use payments_core::{
    RECEIPT_STATUS_UPDATED, ReceiptEvent, ReceiptState, ReceiptStatus, TrackingStatus, Transition, Wallet,
    apply_event,
};

use crate::app::AppState;
use crate::domain::receipt::ReceiptError;
use crate::domain::receipt::{DeliveryId, Receipt, ReceiptId, ReceiptSource, StatusPost};
use crate::services::receipts::webhook_body;
use crate::store::{self, NewDelivery, NewRefund, StockTake, TransitionCommit};

/// A transition decided on a stale read is retried this many times before giving up.
const MAX_ATTEMPTS: usize = 5;

/// What an accepted status post did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StatusOutcome {
    Moved {
        from: ReceiptStatus,
        to: ReceiptStatus,
    },
    /// Acknowledged; nothing changed and nothing was sent.
    Ignored {
        current: ReceiptStatus,
    },
}

/// What goes with an event besides the status.
#[derive(Debug, Clone, Default)]
pub(crate) struct StatusChange {
    pub(crate) transaction_hash: Option<String>,
    pub(crate) buyer_wallet: Option<Wallet>,
    pub(crate) refund: Option<NewRefund>,
    /// Who caused it, for the history (`key:<subscription id>`, `admin:<wallet>`, `portal`).
    pub(crate) actor: String,
}

/// Applies the event `event_for(receipt)` builds (it may need the receipt, e.g. the amount paid) to the
/// merchant's receipt (`wallet: None`: the payment page, by id alone).
pub(crate) async fn apply_status<F>(
    state: &AppState,
    wallet: Option<Wallet>,
    id: ReceiptId,
    change: StatusChange,
    event_for: F,
) -> Result<StatusOutcome, ReceiptError>
where
    F: Fn(&Receipt) -> Result<ReceiptEvent, ReceiptError>,
{
    for _ in 0..MAX_ATTEMPTS {
        let lookup = id.clone();
        let receipt = store::blocking(&state.store, move |store| store.fetch_receipt(wallet, &lookup))
            .await?
            .ok_or_else(|| ReceiptError::NotFound(id.clone()))?;
        let event = event_for(&receipt)?;
        let current = ReceiptState {
            status: receipt.status,
            paid: receipt.paid,
            refunded: receipt.refunded,
        };
        let (from, to) = match apply_event(current, &event).map_err(ReceiptError::Transition)? {
            Transition::Ignored { current } => return Ok(StatusOutcome::Ignored { current }),
            Transition::Moved { from, to } => (from, to),
        };
        let brand_key = match receipt.webhook_url {
            Some(_) => shop_brand_key(state, receipt.wallet).await?,
            None => None,
        };
        let commit = commit_for(state, receipt, &event, &change, (from, to), brand_key.as_deref());
        let enqueued = commit.delivery.is_some();
        if store::blocking(&state.store, move |store| store.commit_transition(&commit)).await? {
            if enqueued {
                state.receipts.wakeup.notify_one();
            }
            return Ok(StatusOutcome::Moved { from, to: to.status });
        }
    }
    Err(ReceiptError::Contended(id))
}

/// The shop's `brandKey` setting, named in webhooks.
async fn shop_brand_key(state: &AppState, wallet: Wallet) -> Result<Option<String>, ReceiptError> {
    let shop = store::blocking(&state.store, move |store| store.fetch_shop_config(wallet)).await?;
    Ok(shop.and_then(|shop| shop.brand_key))
}

fn commit_for(
    state: &AppState,
    receipt: Receipt,
    event: &ReceiptEvent,
    change: &StatusChange,
    (from, to): (ReceiptStatus, ReceiptState),
    brand_key: Option<&str>,
) -> TransitionCommit {
    let now_ms = state.clock.now_ms();
    let failure = match event {
        ReceiptEvent::Failed(failure) => Some(failure.clone()),
        _ => None,
    };
    let stock = if to.status == ReceiptStatus::Paid && receipt.source == ReceiptSource::Order {
        stock_taken(&receipt)
    } else {
        Vec::new()
    };
    let mut after = receipt;
    after.status = to.status;
    after.paid = to.paid;
    after.refunded = to.refunded;
    after.failure.clone_from(&failure);
    if change.transaction_hash.is_some() {
        after.transaction_hash.clone_from(&change.transaction_hash);
    }
    after.buyer_wallet = change.buyer_wallet.or(after.buyer_wallet);
    let delivery = after.webhook_url.clone().map(|url| NewDelivery {
        id: DeliveryId::generate(),
        url,
        event: RECEIPT_STATUS_UPDATED,
        body: webhook_body::body(&after, from, change.buyer_wallet, now_ms, brand_key),
    });
    TransitionCommit {
        receipt_id: after.id,
        wallet: after.wallet,
        expected_version: after.version,
        from,
        to,
        transaction_hash: change.transaction_hash.clone(),
        buyer_wallet: change.buyer_wallet,
        failure,
        actor: change.actor.clone(),
        now_ms,
        delivery,
        refund: change.refund.clone(),
        stock,
    }
}

/// Product lines of an order receipt: finite stock they take when it is paid.
fn stock_taken(receipt: &Receipt) -> Vec<StockTake> {
    receipt
        .line_items
        .iter()
        .filter_map(|line| {
            Some(StockTake {
                item_id: line.item_id.clone()?,
                qty: line.qty?,
            })
        })
        .collect()
}

/// The payment page opened: `link_opened` through the same path as every other status change.
pub(crate) async fn record_link_opened(
    state: &AppState,
    id: ReceiptId,
) -> Result<StatusOutcome, ReceiptError> {
    let change = StatusChange {
        actor: "portal".to_owned(),
        ..StatusChange::default()
    };
    apply_status(state, None, id, change, |_| {
        Ok(ReceiptEvent::Tracking(TrackingStatus::LinkOpened))
    })
    .await
}

/// `POST /api/receipts/status` once the caller's authority for `post.status` is established: `admin` is the
/// attesting admin's wallet (required for `paid`).
pub(crate) async fn post_status(
    state: &AppState,
    wallet: Wallet,
    post: StatusPost,
    admin: Option<Wallet>,
    actor: String,
) -> Result<StatusOutcome, ReceiptError> {
    let change = StatusChange {
        transaction_hash: post.transaction_hash.clone(),
        actor,
        ..StatusChange::default()
    };
    let id = post.receipt_id.clone();
    apply_status(state, Some(wallet), id, change, |receipt| {
        post.event(receipt.amounts.total, admin)
            .ok_or(ReceiptError::NotPostable(post.status))
    })
    .await
}
