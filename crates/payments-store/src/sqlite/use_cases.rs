//! The use-case transactions of the receipt and recurring repositories, run by the writer inside one
//! transaction each: idempotency claim, reads, the service's decision, writes, kept response.

use std::convert::Infallible;

use payments_core::Wallet;
use rusqlite::{Connection, OptionalExtension, params};

use crate::sqlite::idempotency::{self, Claimed};
use crate::sqlite::writer_cache::WriterCache;
use crate::sqlite::{query, receipt_stock, receipts, recurring, refunds, users};
use crate::{
    Committed, CreateReceiptOutcome, IdempotencyClaim, Render, Sale, SaleInputs, SaleRefused, SaleTx,
    StockTake, StoreError, TransitionRefused, TransitionTx, Transitioned, TxError, purchase_credit_changes,
};
use payments_domain::recurring::{CustomerSubscription, NewCustomerSubscription, Plan, SubscriptionRefusal};

/// Finite stock only: the guard `stock_qty >= qty` makes a reservation that would go below zero change nothing.
const RESERVE_STOCK: &str = "UPDATE inventory_items SET stock_qty = stock_qty - ?3, updated_at = ?4
    WHERE wallet = ?1 AND public_id = ?2 AND stock_qty >= ?3";
const STOCK_OF: &str = "SELECT sku, stock_qty FROM inventory_items WHERE wallet = ?1 AND public_id = ?2";

fn sql<E>(error: rusqlite::Error) -> TxError<E> {
    TxError::Store(query(error))
}

/// Checks the claim; `Some` answers the call without running the use case.
fn check_claim<T, E>(
    conn: &Connection,
    claim: Option<&IdempotencyClaim>,
) -> Result<Option<Committed<T>>, TxError<E>> {
    let Some(claim) = claim else {
        return Ok(None);
    };
    match idempotency::claim(conn, claim).map_err(sql)? {
        Claimed::Fresh => Ok(None),
        Claimed::Replay(stored) => Ok(Some(Committed::Replayed(stored))),
        Claimed::Conflict => Err(TxError::IdempotencyConflict),
    }
}

fn keep_response<T, E>(
    conn: &Connection,
    claim: Option<(IdempotencyClaim, Render<T>)>,
    value: &T,
) -> Result<(), TxError<E>> {
    if let Some((claim, render)) = claim {
        idempotency::keep(conn, &claim, &render(value)).map_err(sql)?;
    }
    Ok(())
}

/// A sale: the merchant and the products it names come from the writer's cache (see its module for why
/// they are what a read would return).
pub(super) fn create_sale<S>(
    conn: &Connection,
    lookups: &WriterCache,
    sale: SaleTx<S>,
) -> Result<Committed<Sale>, TxError<SaleRefused<S>>> {
    let SaleTx {
        wallet,
        items,
        claim,
        decide,
    } = sale;
    if let Some(replayed) = check_claim(conn, claim.as_ref().map(|(claim, _)| claim))? {
        return Ok(replayed);
    }
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
    keep_response(conn, claim, &sale)?;
    Ok(Committed::Fresh(sale))
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
) -> Result<Committed<Transitioned>, TxError<TransitionRefused<T>>> {
    let TransitionTx {
        wallet,
        receipt_id,
        claim,
        decide,
    } = change;
    if let Some(replayed) = check_claim(conn, claim.as_ref().map(|(claim, _)| claim))? {
        return Ok(replayed);
    }
    let before = receipts::fetch(conn, wallet, &receipt_id)
        .map_err(sql)?
        .ok_or(TxError::Refused(TransitionRefused::NotFound(receipt_id)))?;
    let merchant = lookups.merchant(conn, before.wallet).map_err(sql)?;
    let decided = decide(&before, &merchant);
    let transitioned =
        match decided.map_err(|refusal| TxError::Refused(TransitionRefused::Decision(refusal)))? {
            None => Transitioned {
                before,
                moved: None,
                enqueued: false,
            },
            Some(commit) => {
                if let Some(refund) = &commit.refund
                    && refunds::is_recorded(conn, &refund.tx_hash).map_err(sql)?
                {
                    return Err(TxError::Refused(TransitionRefused::RefundTxTaken(
                        refund.tx_hash.clone(),
                    )));
                }
                // The writer holds the only write lock, so the version read above is still current.
                if !receipts::commit_transition(conn, &commit).map_err(sql)? {
                    return Err(TxError::Store(StoreError::Busy(format!(
                        "receipt {} changed during its transaction",
                        commit.receipt_id
                    ))));
                }
                for (buyer, change) in purchase_credit_changes(&before, &commit) {
                    users::credit_purchases(conn, buyer, change, commit.now_ms).map_err(sql)?;
                }
                Transitioned {
                    before,
                    moved: Some((commit.from, commit.to)),
                    enqueued: commit.delivery.is_some(),
                }
            }
        };
    keep_response(conn, claim, &transitioned)?;
    Ok(Committed::Fresh(transitioned))
}

/// A plan created under an optional claim: the stored plan is the plan as given, so it is what is kept.
pub(super) fn create_plan(
    conn: &Connection,
    plan: Plan,
    claim: Option<(IdempotencyClaim, Render<Plan>)>,
) -> Result<Committed<Plan>, TxError<Infallible>> {
    if let Some(replayed) = check_claim(conn, claim.as_ref().map(|(claim, _)| claim))? {
        return Ok(replayed);
    }
    recurring::create_plan(conn, &plan).map_err(sql)?;
    keep_response(conn, claim, &plan)?;
    Ok(Committed::Fresh(plan))
}

/// A subscription created under an optional claim; a refusal keeps nothing (the writer rolls it back).
pub(super) fn create_subscription(
    conn: &Connection,
    new: &NewCustomerSubscription,
    now_ms: i64,
    claim: Option<(IdempotencyClaim, Render<CustomerSubscription>)>,
) -> Result<Committed<CustomerSubscription>, TxError<SubscriptionRefusal>> {
    if let Some(replayed) = check_claim(conn, claim.as_ref().map(|(claim, _)| claim))? {
        return Ok(replayed);
    }
    let subscription = recurring::create_subscription(conn, new, now_ms)
        .map_err(sql)?
        .into_result()
        .map_err(TxError::Refused)?;
    keep_response(conn, claim, &subscription)?;
    Ok(Committed::Fresh(subscription))
}
