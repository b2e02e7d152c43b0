//! The statements concurrent requests share (see [`super::batcher`]): the stamp read of `GET
//! /api/receipts/{id}` and the insert of a sale that needs no transaction of its own. Measured in
//! docs/benchmarks.md.

use std::sync::Arc;

use futures_util::future::try_join_all;
use payments_domain::receipt::NewReceipt;

use super::Connections;
use super::batcher::{BatchLimits, Batcher};
use super::receipt_stamp::{self, StampKey};
use super::receipts;
use crate::ReceiptStamp;

/// Stamp reads: one statement serves up to 64 requests, two such statements run at once. Fewer batches in
/// flight make each larger: with 64 clients on this 2-core machine, four gave 0.78x the probe's point
/// select, two 0.89x-1.15x, one 1.25x (docs/benchmarks.md). Two, so that one slow batch does not hold up
/// every read; each uses one pooled connection, and the rest of the pool serves everything else.
const STAMP_LIMITS: BatchLimits = BatchLimits {
    in_flight: 2,
    largest: 64,
};

/// Inserts: up to 32 receipts per transaction and commit, two transactions at once.
const INSERT_LIMITS: BatchLimits = BatchLimits {
    in_flight: 2,
    largest: 32,
};

/// A lone receipt's insert in a shared transaction: its row id, `None` when the id was taken; `Err` when
/// the commit failed, so whether the row exists is not known (the message says why).
pub(super) type InsertAnswer = Result<Option<i64>, String>;

/// The store's batchers.
#[derive(Clone)]
pub(super) struct Batches {
    pub(super) stamps: Batcher<StampKey, Option<ReceiptStamp>>,
    pub(super) inserts: Batcher<Arc<NewReceipt>, InsertAnswer>,
}

impl Batches {
    /// Both batchers, idle until the first request.
    pub(super) fn new(connections: &Connections) -> Self {
        let for_stamps = connections.clone();
        let for_inserts = connections.clone();
        Batches {
            stamps: Batcher::new(STAMP_LIMITS, move |keys| read_stamps(for_stamps.clone(), keys)),
            inserts: Batcher::new(INSERT_LIMITS, move |receipts| {
                insert_together(for_inserts.clone(), receipts)
            }),
        }
    }
}

/// The stamps of a batch in one statement; `None` when it failed or took longer than a connection may be
/// waited for (each request then reads alone, so a stalled connection holds up no more than one wait).
pub(super) async fn read_stamps(
    connections: Connections,
    keys: Vec<StampKey>,
) -> Option<Vec<Option<ReceiptStamp>>> {
    let read = async {
        let client = connections.get().await.ok()?;
        receipt_stamp::fetch_many(&client, &keys).await.ok()
    };
    tokio::time::timeout(connections.wait, read).await.ok().flatten()
}

/// Inserts a batch's receipts in one transaction: one commit, so one flush of the write-ahead log, for all
/// of them. Each insert is a statement of its own, pipelined, and a taken id refuses only its own receipt
/// (`ON CONFLICT DO NOTHING`). When anything fails before the commit nothing was written, and each
/// receipt is inserted alone (`None`); when the commit itself fails, each request is told so.
pub(super) async fn insert_together(
    connections: Connections,
    receipts: Vec<Arc<NewReceipt>>,
) -> Option<Vec<InsertAnswer>> {
    let mut client = connections.get().await.ok()?;
    let tx = client.transaction().await.ok()?;
    let inserted = try_join_all(receipts.iter().map(|receipt| receipts::insert(&tx, receipt)))
        .await
        .ok()?;
    Some(match tx.commit().await {
        Ok(()) => inserted.into_iter().map(Ok).collect(),
        Err(error) => {
            let why = error.to_string();
            inserted.iter().map(|_| Err(why.clone())).collect()
        }
    })
}
