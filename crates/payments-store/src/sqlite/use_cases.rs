//! The use-case transactions of the receipt and recurring repositories, run by the writer inside one
//! transaction each: idempotency claim, reads, the service's decision, writes, the claim naming what they
//! made (the caller keeps the response afterwards, a second small write).

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use payments_core::Wallet;
use rusqlite::{Connection, OptionalExtension, params};

use crate::sqlite::idempotency::{self, Claimed};
use crate::sqlite::writer_cache::WriterCache;
use crate::sqlite::{SqliteStore, query, receipt_stock, receipts, recurring, refunds, users};
use crate::{
    Committed, CreateReceiptOutcome, IdempotencyClaim, IdempotentResponse, Resource, Sale, SaleInputs,
    SaleRefused, SaleTx, StockTake, StoreError, TransitionRefused, TransitionTx, Transitioned, TxError,
    purchase_credit_changes,
};
use payments_domain::recurring::{CustomerSubscription, NewCustomerSubscription, Plan, SubscriptionRefusal};

/// Finite stock only: the guard `stock_qty >= qty` makes a reservation that would go below zero change nothing.
const RESERVE_STOCK: &str = "UPDATE inventory_items SET stock_qty = stock_qty - ?3, updated_at = ?4
    WHERE wallet = ?1 AND public_id = ?2 AND stock_qty >= ?3";
const STOCK_OF: &str = "SELECT sku, stock_qty FROM inventory_items WHERE wallet = ?1 AND public_id = ?2";

fn sql<E>(error: rusqlite::Error) -> TxError<E> {
    TxError::Store(query(error))
}

/// Pause between runs of a claimed use case whose key's earlier call committed without keeping its answer
/// yet, and how many runs wait (about 0.1 s in all) before the last one answers from the named resource.
const KEEP_WAIT: Duration = Duration::from_millis(10);
const KEEP_WAITS: u32 = 10;

/// What one run of a claimed use case came to.
pub(super) enum Step<W, T> {
    Done(T),
    /// The key's earlier call committed but has not kept its answer yet (almost always it is keeping it right
    /// now, in the writer's queue behind this run): the use case, untouched, to run again after a pause.
    Wait(W),
}

/// One run of a claimed use case: what it committed, or the use case given back to wait.
pub(super) type Run<W, T, E> = Result<Step<W, Committed<T>>, TxError<E>>;

/// A value to store with the claim it is stored under.
type Keyed<V> = (V, Option<IdempotencyClaim>);

impl SqliteStore {
    /// Runs `work` with `run` as one transaction of the writer, again after a pause while it waits for an
    /// earlier call's answer ([`Step::Wait`]); the flag tells the last run, which recovers instead.
    pub(super) async fn transact_claimed<W, T, E, F>(&self, mut work: W, run: F) -> Result<T, TxError<E>>
    where
        W: Send + 'static,
        T: Send + 'static,
        E: Send + 'static,
        F: Fn(&Connection, W, bool) -> Result<Step<W, T>, TxError<E>> + Send + Sync + 'static,
    {
        let run = Arc::new(run);
        let mut waits = 0;
        loop {
            let (run, recover) = (Arc::clone(&run), waits >= KEEP_WAITS);
            match self.transact(move |conn| run(conn, work, recover)).await? {
                Step::Done(value) => return Ok(value),
                Step::Wait(back) => {
                    work = back;
                    waits += 1;
                    tokio::time::sleep(KEEP_WAIT).await;
                }
            }
        }
    }
}

/// What an earlier call with the claim's key left, when it answers this call instead of the use case.
enum Earlier {
    Kept(IdempotentResponse),
    Named(Resource),
}

/// Checks the claim; `Some` answers the call without running the use case.
fn check_claim<E>(
    conn: &Connection,
    claim: Option<&IdempotencyClaim>,
) -> Result<Option<Earlier>, TxError<E>> {
    let Some(claim) = claim else {
        return Ok(None);
    };
    match idempotency::claim(conn, claim).map_err(sql)? {
        Claimed::Fresh => Ok(None),
        Claimed::Replay(stored) => Ok(Some(Earlier::Kept(stored))),
        Claimed::Unkept(resource) => Ok(Some(Earlier::Named(resource))),
        Claimed::Conflict => Err(TxError::IdempotencyConflict),
    }
}

/// Records the claim as committed with `resource`, in the use case's transaction.
fn name<E>(
    conn: &Connection,
    claim: Option<&IdempotencyClaim>,
    resource: Resource,
) -> Result<(), TxError<E>> {
    if let Some(claim) = claim {
        idempotency::name(conn, claim, &resource).map_err(sql)?;
    }
    Ok(())
}

/// The claim names what `found` did not find: a damaged row (or a resource deleted since).
fn gone<E>(resource: &Resource) -> TxError<E> {
    TxError::Store(StoreError::Corrupt(format!(
        "idempotency key names {} {}, which is gone",
        resource.kind(),
        resource.id()
    )))
}

/// A sale: the merchant and the products it names come from the writer's cache (see its module for why
/// they are what a read would return).
pub(super) fn create_sale<S>(
    conn: &Connection,
    lookups: &WriterCache,
    sale: SaleTx<S>,
    recover: bool,
) -> Run<SaleTx<S>, Sale, SaleRefused<S>> {
    match check_claim(conn, sale.claim.as_ref())? {
        None => {}
        Some(Earlier::Kept(kept)) => return Ok(Step::Done(Committed::Replayed(kept))),
        Some(Earlier::Named(_)) if !recover => return Ok(Step::Wait(sale)),
        Some(Earlier::Named(resource)) => {
            let wallet = sale.wallet;
            let Resource::Receipt(id) = &resource else {
                return Err(gone(&resource));
            };
            let receipt = receipts::fetch(conn, Some(wallet), id)
                .map_err(sql)?
                .ok_or_else(|| gone(&resource))?;
            let merchant = lookups.merchant(conn, wallet).map_err(sql)?;
            return Ok(Step::Done(Committed::Recovered(Sale { receipt, merchant })));
        }
    }
    let SaleTx {
        wallet,
        items,
        claim,
        decide,
    } = sale;
    let merchant = lookups.merchant(conn, wallet).map_err(sql)?;
    let items = lookups.products(conn, wallet, &items).map_err(sql)?;
    let plan = decide(SaleInputs {
        merchant: merchant.clone(),
        items,
    })
    .map_err(|refusal| TxError::Refused(SaleRefused::Decision(refusal)))?;
    for take in &plan.reserve {
        reserve(conn, wallet, take, plan.receipt.now_ms)?;
    }
    match receipts::insert(conn, &plan.receipt).map_err(sql)? {
        CreateReceiptOutcome::Created => {
            receipt_stock::record(conn, conn.last_insert_rowid(), &plan.reserve).map_err(sql)?;
        }
        CreateReceiptOutcome::IdTaken => {
            return Err(TxError::Refused(SaleRefused::IdTaken(plan.receipt.id)));
        }
    }
    let sale = Sale {
        receipt: plan.receipt.into_stored(),
        merchant,
    };
    name(conn, claim.as_ref(), Resource::Receipt(sale.receipt.id.clone()))?;
    Ok(Step::Done(Committed::Fresh(sale)))
}

fn reserve<S>(
    conn: &Connection,
    wallet: Wallet,
    take: &StockTake,
    now_ms: i64,
) -> Result<(), TxError<SaleRefused<S>>> {
    let wallet = wallet.to_string();
    let changed = conn
        .prepare_cached(RESERVE_STOCK)
        .and_then(|mut statement| statement.execute(params![wallet, take.item_id, take.qty, now_ms]))
        .map_err(sql)?;
    if changed == 1 {
        return Ok(());
    }
    let (sku, available) = conn
        .query_row(STOCK_OF, params![wallet, take.item_id], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
        })
        .optional()
        .map_err(sql)?
        .unwrap_or_else(|| (take.item_id.clone(), 0));
    Err(TxError::Refused(SaleRefused::OutOfStock { sku, available }))
}

pub(super) fn transition<T>(
    conn: &Connection,
    lookups: &WriterCache,
    change: TransitionTx<T>,
    recover: bool,
) -> Run<TransitionTx<T>, Transitioned, TransitionRefused<T>> {
    let earlier = match check_claim(conn, change.claim.as_ref())? {
        None => None,
        Some(Earlier::Kept(kept)) => return Ok(Step::Done(Committed::Replayed(kept))),
        Some(Earlier::Named(_)) if !recover => return Ok(Step::Wait(change)),
        Some(Earlier::Named(resource)) => Some(resource),
    };
    let TransitionTx {
        wallet,
        receipt_id,
        claim,
        decide,
    } = change;
    let before = receipts::fetch(conn, wallet, &receipt_id)
        .map_err(sql)?
        .ok_or(TxError::Refused(TransitionRefused::NotFound(receipt_id.clone())))?;
    if let Some(resource) = earlier {
        // Committed by an earlier call that stopped before keeping its response: answered as it moved.
        let moved = match &resource {
            Resource::StatusChange(entry) => Some(
                receipts::history_entry(conn, *entry, &receipt_id)
                    .map_err(sql)?
                    .ok_or_else(|| gone(&resource))?,
            ),
            Resource::Receipt(_) => None,
            Resource::Plan(_) | Resource::Subscription(_) | Resource::Change(_) => {
                return Err(gone(&resource));
            }
        };
        return Ok(Step::Done(Committed::Recovered(Transitioned::recovered(
            before, moved,
        ))));
    }
    let merchant = lookups.merchant(conn, before.wallet).map_err(sql)?;
    let decided = decide(&before, &merchant);
    let Some(commit) = decided.map_err(|refusal| TxError::Refused(TransitionRefused::Decision(refusal)))?
    else {
        name(conn, claim.as_ref(), Resource::Receipt(receipt_id))?;
        return Ok(Step::Done(Committed::Fresh(Transitioned {
            before,
            moved: None,
            enqueued: false,
        })));
    };
    if let Some(refund) = &commit.refund
        && refunds::is_recorded(conn, &refund.tx_hash).map_err(sql)?
    {
        return Err(TxError::Refused(TransitionRefused::RefundTxTaken(
            refund.tx_hash.clone(),
        )));
    }
    // The writer holds the only write lock, so the version read above is still current.
    let Some(entry) = receipts::commit_transition(conn, &commit).map_err(sql)? else {
        return Err(TxError::Store(StoreError::Busy(format!(
            "receipt {} changed during its transaction",
            commit.receipt_id
        ))));
    };
    for (buyer, change) in purchase_credit_changes(&before, &commit) {
        users::credit_purchases(conn, buyer, change, commit.now_ms).map_err(sql)?;
    }
    name(conn, claim.as_ref(), Resource::StatusChange(entry))?;
    Ok(Step::Done(Committed::Fresh(Transitioned {
        before,
        moved: Some((commit.from, commit.to)),
        enqueued: commit.delivery.is_some(),
    })))
}

/// A plan created under an optional claim: the stored plan is the plan as given.
pub(super) fn create_plan(
    conn: &Connection,
    (plan, claim): Keyed<Plan>,
    recover: bool,
) -> Run<Keyed<Plan>, Plan, Infallible> {
    match check_claim(conn, claim.as_ref())? {
        None => {}
        Some(Earlier::Kept(kept)) => return Ok(Step::Done(Committed::Replayed(kept))),
        Some(Earlier::Named(_)) if !recover => return Ok(Step::Wait((plan, claim))),
        Some(Earlier::Named(resource)) => {
            let stored = match &resource {
                Resource::Plan(id) => recurring::fetch_plan(conn, id).map_err(sql)?,
                _ => None,
            };
            return Ok(Step::Done(Committed::Recovered(
                stored.ok_or_else(|| gone(&resource))?,
            )));
        }
    }
    recurring::create_plan(conn, &plan).map_err(sql)?;
    name(conn, claim.as_ref(), Resource::Plan(plan.id.clone()))?;
    Ok(Step::Done(Committed::Fresh(plan)))
}

/// A subscription created under an optional claim; a refusal keeps nothing (the writer rolls it back).
pub(super) fn create_subscription(
    conn: &Connection,
    (new, claim): Keyed<NewCustomerSubscription>,
    now_ms: i64,
    recover: bool,
) -> Run<Keyed<NewCustomerSubscription>, CustomerSubscription, SubscriptionRefusal> {
    match check_claim(conn, claim.as_ref())? {
        None => {}
        Some(Earlier::Kept(kept)) => return Ok(Step::Done(Committed::Replayed(kept))),
        Some(Earlier::Named(_)) if !recover => return Ok(Step::Wait((new, claim))),
        Some(Earlier::Named(resource)) => {
            let stored = match &resource {
                Resource::Subscription(id) => recurring::fetch_subscription(conn, id).map_err(sql)?,
                _ => None,
            };
            return Ok(Step::Done(Committed::Recovered(
                stored.ok_or_else(|| gone(&resource))?,
            )));
        }
    }
    let subscription = recurring::create_subscription(conn, &new, now_ms)
        .map_err(sql)?
        .into_result()
        .map_err(TxError::Refused)?;
    name(
        conn,
        claim.as_ref(),
        Resource::Subscription(subscription.id.clone()),
    )?;
    Ok(Step::Done(Committed::Fresh(subscription)))
}
