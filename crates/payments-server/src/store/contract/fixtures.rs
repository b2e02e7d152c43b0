//! What the contract tests create: merchants, products, sales and transitions built directly (no HTTP).

use payments_core::{Cents, ReceiptEvent, ReceiptState, TaxRate, Wallet, apply_event};
use serde_json::json;

use crate::domain::inventory::{InventoryItemRequest, ItemDraft, ProductId};
use crate::domain::receipt::{
    ItemRef, NewReceipt, OrderError, ReceiptAmounts, ReceiptError, ReceiptId, ReceiptOptions, ReceiptSource,
    ReceiptTax,
};
use crate::store::{
    IdempotencyClaim, IdempotentResponse, ItemUpsert, Repositories, SalePlan, SaleTx, StockTake,
    TransitionCommit, TransitionTx, UpsertOutcome,
};

pub(super) fn wallet(byte: u8) -> Wallet {
    Wallet::parse(&format!("0x{}", format!("{byte:02x}").repeat(20))).unwrap()
}

/// A product of `merchant` with `stock` (-1 unlimited); returns its id.
pub(super) async fn product(repos: &Repositories, merchant: Wallet, sku: &str, stock: i64) -> String {
    let request: InventoryItemRequest =
        serde_json::from_value(json!({"sku": sku, "name": sku, "priceUsd": 2, "stockQty": stock})).unwrap();
    let upsert = ItemUpsert {
        wallet: merchant,
        draft: ItemDraft::try_from(request).unwrap(),
        new_id: ProductId::generate(),
        now_ms: 1,
    };
    match repos.inventory.upsert(&upsert).await.unwrap() {
        UpsertOutcome::Saved(item) => item.id.as_str().to_owned(),
        other => panic!("product {sku}: {other:?}"),
    }
}

pub(super) fn new_receipt(merchant: Wallet, id: &str, total: i64) -> NewReceipt {
    NewReceipt {
        id: ReceiptId::parse("id", id).unwrap(),
        wallet: merchant,
        source: ReceiptSource::Api,
        currency: "USD".to_owned(),
        amounts: ReceiptAmounts {
            subtotal: Cents::new(total),
            tax: Cents::ZERO,
            fee: Cents::ZERO,
            total: Cents::new(total),
        },
        line_items: Vec::new(),
        brand_name: String::new(),
        tax: ReceiptTax {
            jurisdiction_code: None,
            rate: TaxRate::ZERO,
            components: Vec::new(),
        },
        options: ReceiptOptions::default(),
        webhook_url: Some("https://hooks.example.com/r".to_owned()),
        sealed_signing_key: None,
        now_ms: 1,
    }
}

pub(super) fn claim(merchant: Wallet, key: &str, body: &str) -> IdempotencyClaim {
    IdempotencyClaim {
        wallet: merchant,
        scope: "contract",
        key: key.to_owned(),
        request_hash: body.to_owned(),
        now_ms: 10,
    }
}

/// A sale of receipt `id` reserving `reserve` (product id, qty), kept under `claim` when given.
pub(super) fn sale(
    merchant: Wallet,
    id: &str,
    reserve: Vec<(String, u32)>,
    claim: Option<IdempotencyClaim>,
) -> SaleTx {
    let receipt = new_receipt(merchant, id, 500);
    SaleTx {
        wallet: merchant,
        items: reserve
            .iter()
            .map(|(item, _)| ItemRef::Id(item.clone()))
            .collect(),
        claim: claim.map(|claim| {
            let render: crate::store::Render<crate::store::Sale> = Box::new(|sale| IdempotentResponse {
                request_hash: String::new(),
                status: 201,
                body: sale.receipt.id.as_str().as_bytes().to_vec(),
            });
            (claim, render)
        }),
        decide: Box::new(move |inputs| {
            if inputs.items.iter().any(Option::is_none) {
                return Err(OrderError::ItemNotFound("missing".to_owned()));
            }
            Ok(SalePlan {
                receipt,
                reserve: reserve
                    .into_iter()
                    .map(|(item_id, qty)| StockTake { item_id, qty })
                    .collect(),
            })
        }),
    }
}

/// Applies `event` to receipt `id` through the state machine inside the transaction, with a webhook row.
pub(super) fn transition(merchant: Wallet, id: &str, event: ReceiptEvent) -> TransitionTx {
    TransitionTx {
        wallet: Some(merchant),
        receipt_id: ReceiptId::parse("id", id).unwrap(),
        claim: None,
        decide: Box::new(move |receipt, _| {
            let current = ReceiptState {
                status: receipt.status,
                paid: receipt.paid,
                refunded: receipt.refunded,
            };
            let (from, to) = match apply_event(current, &event).map_err(ReceiptError::Transition)? {
                payments_core::Transition::Moved { from, to } => (from, to),
                payments_core::Transition::Ignored { .. } => return Ok(None),
            };
            Ok(Some(TransitionCommit {
                receipt_id: receipt.id.clone(),
                wallet: receipt.wallet,
                expected_version: receipt.version,
                from,
                to,
                transaction_hash: None,
                buyer_wallet: None,
                failure: None,
                actor: "contract".to_owned(),
                now_ms: 20,
                delivery: Some(crate::store::NewDelivery {
                    id: crate::domain::receipt::DeliveryId::generate(),
                    url: "https://hooks.example.com/r".to_owned(),
                    event: "receipt.status.updated",
                    body: b"{}".to_vec(),
                }),
                refund: None,
            }))
        }),
    }
}
