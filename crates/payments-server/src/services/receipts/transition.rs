//! Status changes: load the receipt, let the core state machine decide, and commit the new state with its
//! history row and (when the receipt has a webhook URL) its outbox row in one store transaction.

use payments_core::{
    PaymentBlock, RECEIPT_STATUS_UPDATED, ReceiptEvent, ReceiptState, ReceiptStatus, TokenAmount,
    TrackingStatus, Transition, Wallet, apply_event_as,
};

use crate::domain::receipt::ReceiptError;
use crate::domain::receipt::{Actor, DeliveryId, Receipt, ReceiptId, StatusPost, endpoint_of};
use crate::services::receipts::service::{ReceiptService, transition_error};
use crate::services::receipts::webhook_body;
use crate::store::{
    Committed, IdempotencyClaim, MerchantEvent, NewDelivery, NewRefund, TransitionCommit, TransitionDecision,
    TransitionTx, Transitioned,
};

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
#[derive(Debug, Clone)]
pub(crate) struct StatusChange {
    /// A chain field: only an admin or the chain may set it.
    pub(crate) transaction_hash: Option<String>,
    /// A chain field: only an admin or the chain may set it.
    pub(crate) buyer_wallet: Option<Wallet>,
    pub(crate) refund: Option<NewRefund>,
    /// The transaction of the receipt's pending refund that the chain has now confirmed.
    pub(crate) confirms_refund: Option<String>,
    /// The wallet a buyer connected on the payment page: its own word, so the webhook names it, but it is
    /// never stored as the receipt's buyer (that is a chain field, and users' spend totals are keyed by it).
    pub(crate) connected_wallet: Option<Wallet>,
    /// A chain fact: what the deposit holds now (base units of the payment token), recorded with the change
    /// so its webhook and the receipt show the new balance.
    pub(crate) received: Option<TokenAmount>,
    /// A chain fact: the paying transfer's block, depth and finality, sent with the change's webhook.
    pub(crate) payment_block: Option<PaymentBlock>,
    /// Who asks: its authority decides, its identity goes in the history.
    pub(crate) actor: Actor,
}

impl StatusChange {
    /// A change by `actor` that carries nothing but the event.
    pub(crate) fn by(actor: Actor) -> Self {
        StatusChange {
            transaction_hash: None,
            buyer_wallet: None,
            refund: None,
            confirms_refund: None,
            connected_wallet: None,
            received: None,
            payment_block: None,
            actor,
        }
    }

    pub(super) fn sets_chain_fields(&self) -> bool {
        self.transaction_hash.is_some() || self.buyer_wallet.is_some()
    }
}

impl ReceiptService {
    /// Applies the event `event_for(receipt)` builds (it may need the receipt, e.g. the amount paid) to the
    /// merchant's receipt (`wallet: None`: the payment page, by id alone), in one transaction that holds the
    /// receipt while the core state machine decides, so concurrent changes apply one after the other.
    pub(super) async fn apply_status<F>(
        &self,
        wallet: Option<Wallet>,
        id: ReceiptId,
        change: StatusChange,
        claim: Option<IdempotencyClaim>,
        event_for: F,
    ) -> Result<Committed<Transitioned>, ReceiptError>
    where
        F: FnOnce(&Receipt) -> Result<ReceiptEvent, ReceiptError> + Send + 'static,
    {
        let now_ms = self.clock.now_ms();
        let decide: TransitionDecision = Box::new(move |receipt, merchant| {
            let event = event_for(receipt)?;
            let current = ReceiptState {
                status: receipt.status,
                paid: receipt.paid,
                refunded: receipt.refunded,
                held_by: receipt.status_authority,
            };
            let actor = change.actor.authority();
            match apply_event_as(current, &event, actor, change.sets_chain_fields())
                .map_err(ReceiptError::Transition)?
            {
                Transition::Ignored { .. } => Ok(None),
                Transition::Moved { from, to } => {
                    let brand_key = merchant.shop.as_ref().and_then(|shop| shop.brand_key.as_deref());
                    Ok(Some(commit_for(
                        receipt.clone(),
                        &event,
                        &change,
                        (from, to),
                        brand_key,
                        now_ms,
                    )))
                }
            }
        });
        let committed = self
            .receipts
            .transition(TransitionTx {
                wallet,
                receipt_id: id,
                claim,
                decide,
            })
            .await
            .map_err(transition_error)?;
        if let Committed::Fresh(Transitioned { enqueued: true, .. }) = &committed {
            self.wakeup.notify_one();
        }
        Ok(committed)
    }

    /// The buyer pressed the payment page's button on `wallet`'s receipt `id`: `link_opened`, with the
    /// buyer's authority, through the same path as every other status change.
    pub(crate) async fn record_link_opened(
        &self,
        wallet: Wallet,
        id: ReceiptId,
    ) -> Result<StatusOutcome, ReceiptError> {
        let committed = self
            .apply_status(Some(wallet), id, StatusChange::by(Actor::Portal), None, |_| {
                Ok(ReceiptEvent::Tracking(TrackingStatus::LinkOpened))
            })
            .await?;
        Ok(StatusOutcome::of(&fresh(committed)?))
    }

    /// `POST /api/receipts/status` by an authenticated `actor` acting for `wallet`: the core decides what
    /// its authority allows (an admin's word is the attestation `paid` needs).
    pub(crate) async fn post_status(
        &self,
        wallet: Wallet,
        post: StatusPost,
        actor: Actor,
    ) -> Result<StatusOutcome, ReceiptError> {
        let admin = match &actor {
            Actor::Admin(wallet) => Some(*wallet),
            Actor::Portal | Actor::Key(_) | Actor::Chain | Actor::PaymentWindow => None,
        };
        let chain_fact = matches!(post.status, ReceiptStatus::Paid | ReceiptStatus::Completed);
        if chain_fact && admin.is_some() && !self.admin_attests_payments {
            return Err(ReceiptError::ChainOnly(post.status));
        }
        let mut post = post;
        let mut actor = actor;
        if post.status == ReceiptStatus::CheckoutSuccess
            && let Some(hash) = post.transaction_hash.take()
        {
            // Verified, the claim is the chain's word: it moves the receipt to checkout_success whoever posted
            // it. The hash becomes the receipt's when the watcher confirms the transfer.
            self.verify_claimed_payment(wallet, &post.receipt_id, &hash)
                .await?;
            actor = Actor::Chain;
        }
        let change = StatusChange {
            transaction_hash: post.transaction_hash.clone(),
            buyer_wallet: post.buyer_wallet,
            ..StatusChange::by(actor)
        };
        let id = post.receipt_id.clone();
        let committed = self
            .apply_status(Some(wallet), id, change, None, move |receipt| {
                post.event(receipt.amounts.total, admin)
                    .ok_or(ReceiptError::NotPostable(post.status))
            })
            .await?;
        Ok(StatusOutcome::of(&fresh(committed)?))
    }
}

impl StatusOutcome {
    /// What a committed transition did.
    pub(crate) fn of(transitioned: &Transitioned) -> Self {
        match transitioned.moved {
            Some((from, to)) => StatusOutcome::Moved { from, to: to.status },
            None => StatusOutcome::Ignored {
                current: transitioned.before.status,
            },
        }
    }
}

/// The transition of a call that carried no idempotency key (so it cannot be a replay).
pub(super) fn fresh(committed: Committed<Transitioned>) -> Result<Transitioned, ReceiptError> {
    match committed {
        Committed::Fresh(transitioned) => Ok(transitioned),
        Committed::Replayed(_) | Committed::Recovered(_) => Err(ReceiptError::Unexpected(
            "a status change without an idempotency key was replayed".to_owned(),
        )),
    }
}

fn commit_for(
    receipt: Receipt,
    event: &ReceiptEvent,
    change: &StatusChange,
    (from, to): (ReceiptStatus, ReceiptState),
    brand_key: Option<&str>,
    now_ms: i64,
) -> TransitionCommit {
    let failure = match event {
        ReceiptEvent::Failed(failure) | ReceiptEvent::PaymentReorged(failure) => Some(failure.clone()),
        _ => None,
    };
    let paying = matches!(event, ReceiptEvent::PaymentConfirmed { .. });
    let expires = matches!(change.actor, Actor::PaymentWindow);
    let mut after = receipt;
    // Paid once its window ended (the expiry pass may not have run yet): late, whatever the proof.
    after.paid_late = after.paid_late || (paying && after.window_ended(now_ms));
    after.expired = after.expired || expires;
    after.status = to.status;
    after.paid = to.paid;
    after.refunded = to.refunded;
    after.failure.clone_from(&failure);
    if change.transaction_hash.is_some() {
        after.transaction_hash.clone_from(&change.transaction_hash);
    }
    after.buyer_wallet = change.buyer_wallet.or(after.buyer_wallet);
    after.received = change.received.unwrap_or(after.received);
    let body = webhook_body::body(
        &after,
        from,
        change.buyer_wallet.or(change.connected_wallet),
        change.payment_block.as_ref(),
        now_ms,
        brand_key,
    );
    // Every change is an event of the merchant's endpoints; the receipt's own target gets it too when set.
    let event = MerchantEvent::new(after.wallet, RECEIPT_STATUS_UPDATED, now_ms, body.clone());
    let delivery = after.webhook_url.clone().map(|url| NewDelivery {
        id: DeliveryId::generate(),
        endpoint: endpoint_of(&url),
        url,
        event: RECEIPT_STATUS_UPDATED,
        body,
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
        actor: change.actor.history_label(),
        now_ms,
        delivery,
        event,
        refund: change.refund.clone(),
        confirms_refund: change.confirms_refund.clone(),
        expires,
        retakes_stock: paying,
        paid_late: after.paid_late,
        received: after.received,
    }
}
