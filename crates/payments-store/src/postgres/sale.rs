//! Creating a receipt as one transaction: the idempotency claim, the merchant's configuration and the
//! named products, the service's decision, the stock reservation, the insert, and the claim naming the new
//! receipt (the caller keeps the response afterwards).
//!
//! Stock is reserved with a conditional `UPDATE ... AND stock_qty >= qty`, which PostgreSQL re-checks
//! against the latest committed row after waiting for a concurrent reservation, so finite stock is never
//! oversold and never needs a lock held across the decision.

use crate::postgres::connection::{PgClient, Queries};
use crate::postgres::error::PgError;
use futures_util::future::try_join;
use payments_core::Wallet;
use std::sync::Arc;

use crate::postgres::idempotency::{self, Claimed};
use crate::postgres::retry::{self, Failed};
use crate::postgres::{PgStore, merchant, receipts, stock};
use crate::{
    Committed, IdempotencyClaim, MerchantSnapshot, Resource, Sale, SaleDecision, SaleInputs, SalePlan,
    SaleRefused, SaleTx, TxError,
};
use payments_domain::inventory::InventoryItem;
use payments_domain::receipt::{ItemRef, ReceiptId};

/// Runs the sale, again after a transient failure as long as the decision has not run (it is `FnOnce`).
pub(super) async fn create<S: Send>(
    store: &PgStore,
    sale: SaleTx<S>,
) -> Result<Committed<Sale>, TxError<SaleRefused<S>>> {
    store.availability.check()?;
    let SaleTx {
        wallet,
        items,
        claim,
        decide,
    } = sale;
    let mut decide = Some(decide);
    let mut attempt = 0;
    loop {
        let client = store.client().await?;
        let recover = attempt + 1 >= retry::MAX_ATTEMPTS;
        let outcome = attempt_sale(
            (store, client),
            wallet,
            &items,
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

async fn attempt_sale<S>(
    (store, mut client): (&PgStore, PgClient),
    wallet: Wallet,
    items: &[ItemRef],
    (claim, recover): (Option<&IdempotencyClaim>, bool),
    decide: &mut Option<SaleDecision<S>>,
) -> Result<Committed<Sale>, Failed<SaleRefused<S>>> {
    let Some(claim) = claim else {
        return unclaimed_sale((store, client), wallet, items, decide).await;
    };
    let tx = client.transaction().await?;
    let claim_id = match idempotency::claim(&tx, claim).await? {
        Claimed::Fresh(id) => id,
        Claimed::Replay(response) => return Ok(Committed::Replayed(response)),
        Claimed::Unkept(Resource::Receipt(id)) => {
            idempotency::unkept(recover)?;
            return recovered(&tx, wallet, &id).await;
        }
        Claimed::Unkept(_) => return Err(Failed::Busy(idempotency::pending(claim))),
        Claimed::Conflict => return Err(Failed::Conflict),
        Claimed::Pending => return Err(Failed::Busy(idempotency::pending(claim))),
    };
    let decided = read_and_decide(&tx, wallet, items, decide).await?;
    let sale = write_sale(&tx, wallet, decided).await?;
    idempotency::name(&tx, claim_id, &Resource::Receipt(sale.receipt.id.clone())).await?;
    tx.commit().await?;
    Ok(Committed::Fresh(sale))
}

/// A sale without an idempotency key. Its reads are single statements that need no transaction around
/// them (each sees one snapshot, as in a READ COMMITTED transaction), and a sale that reserves no stock
/// writes one row, which needs no transaction of its own: it joins the concurrent sales' shared insert
/// ([`lone_insert`]). A sale that reserves stock writes the reservations, the receipt and their link in
/// one transaction.
///
/// Behind a transaction pooler the reads run without the transaction's `SET LOCAL lock_timeout`; they
/// take no locks.
async fn unclaimed_sale<S>(
    (store, mut client): (&PgStore, PgClient),
    wallet: Wallet,
    items: &[ItemRef],
    decide: &mut Option<SaleDecision<S>>,
) -> Result<Committed<Sale>, Failed<SaleRefused<S>>> {
    let decided = read_and_decide(&client, wallet, items, decide).await?;
    if decided.plan.reserve.is_empty() {
        // The connection goes back to the pool before waiting: the batch needs one of its own.
        drop(client);
        return lone_insert(store, decided).await;
    }
    let tx = client.transaction().await?;
    let sale = write_sale(&tx, wallet, decided).await?;
    tx.commit().await?;
    Ok(Committed::Fresh(sale))
}

/// The receipt of a sale that reserves nothing, inserted in a transaction shared with the lone inserts of
/// concurrent sales (one commit for all, see [`super::batches`]), or alone when that transaction failed
/// before its commit.
async fn lone_insert<S>(
    store: &PgStore,
    Decided { merchant, plan, .. }: Decided,
) -> Result<Committed<Sale>, Failed<SaleRefused<S>>> {
    let receipt = Arc::new(plan.receipt);
    let rowid = match store.batches.inserts.submit(Arc::clone(&receipt)).await {
        Some(Ok(rowid)) => rowid,
        Some(Err(why)) => return Err(Failed::Db(PgError::Lost(why))),
        None => receipts::insert(&store.connections.for_attempt().await?, &receipt).await?,
    };
    let receipt = Arc::unwrap_or_clone(receipt);
    if rowid.is_none() {
        return Err(Failed::Refused(SaleRefused::IdTaken(receipt.id)));
    }
    Ok(Committed::Fresh(Sale {
        receipt: receipt.into_stored(),
        merchant,
    }))
}

/// What the decision saw and planned.
struct Decided {
    merchant: MerchantSnapshot,
    plan: SalePlan,
    /// `(product id, SKU)` of every product read, to name one deleted before its reservation.
    skus: Vec<(String, String)>,
}

/// The merchant's configuration and the named products (independent reads, pipelined: one round trip),
/// then the service's decision.
async fn read_and_decide<S>(
    client: &impl Queries,
    wallet: Wallet,
    items: &[ItemRef],
    decide: &mut Option<SaleDecision<S>>,
) -> Result<Decided, Failed<SaleRefused<S>>> {
    let (merchant, products) = try_join(
        merchant::snapshot(client, wallet),
        stock::fetch_refs(client, wallet, items),
    )
    .await?;
    let skus: Vec<(String, String)> = products
        .iter()
        .flatten()
        .map(|item: &InventoryItem| (item.id.as_str().to_owned(), item.fields.sku.as_str().to_owned()))
        .collect();
    let decide = decide
        .take()
        .ok_or_else(|| Failed::Busy("the sale's decision already ran".to_owned()))?;
    let plan = decide(SaleInputs {
        merchant: merchant.clone(),
        items: products,
    })
    .map_err(|refusal| Failed::Refused(SaleRefused::Decision(refusal)))?;
    Ok(Decided { merchant, plan, skus })
}

/// Reserves the plan's stock, inserts the receipt and links the reservations to it.
async fn write_sale<S>(
    client: &impl Queries,
    wallet: Wallet,
    Decided { merchant, plan, skus }: Decided,
) -> Result<Sale, Failed<SaleRefused<S>>> {
    // One lock order for every sale, so two orders of the same products cannot deadlock.
    let mut reserve = plan.reserve.clone();
    reserve.sort_by(|a, b| a.item_id.cmp(&b.item_id));
    for take in &reserve {
        if !stock::reserve(client, wallet, take, plan.receipt.now_ms).await? {
            let (sku, available) = match stock::stock_of(client, wallet, &take.item_id).await? {
                Some(stock) => stock,
                None => (sku_of(&skus, &take.item_id), 0),
            };
            return Err(Failed::Refused(SaleRefused::OutOfStock { sku, available }));
        }
    }
    let Some(rowid) = receipts::insert(client, &plan.receipt).await? else {
        return Err(Failed::Refused(SaleRefused::IdTaken(plan.receipt.id)));
    };
    stock::record(client, rowid, &plan.reserve).await?;
    Ok(Sale {
        receipt: plan.receipt.into_stored(),
        merchant,
    })
}

/// The sale an earlier call with the same key committed, as stored now (the process stopped before it kept
/// its response).
async fn recovered<S>(
    tx: &impl Queries,
    wallet: Wallet,
    id: &ReceiptId,
) -> Result<Committed<Sale>, Failed<SaleRefused<S>>> {
    let receipt = receipts::fetch_row(tx, Some(wallet), id)
        .await?
        .ok_or(PgError::Corrupt(format!(
            "idempotency key names receipt {id}, which is gone"
        )))?;
    let merchant = merchant::snapshot(tx, wallet).await?;
    Ok(Committed::Recovered(Sale { receipt, merchant }))
}

/// The SKU the decision saw for a product deleted since (the order names it by id).
fn sku_of(skus: &[(String, String)], item_id: &str) -> String {
    skus.iter()
        .find(|(id, _)| id == item_id)
        .map_or_else(|| item_id.to_owned(), |(_, sku)| sku.clone())
}
