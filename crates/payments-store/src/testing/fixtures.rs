//! Builders for the contract suite and the store's own tests: merchants, products, receipts, and the sale
//! and transition transactions (with decisions that stand in for the services' `payments-core` calls and
//! refuse with [`Refusal`]).

use payments_core::{Authority, Cents, ReceiptState, ReceiptStatus, TransitionError, Wallet};

use payments_domain::inventory::{ItemDraft, ItemFields, ProductId, Sku};
use payments_domain::receipt::{
    DeliveryId, ItemRef, NewReceipt, PaymentTarget, Receipt, ReceiptAmounts, ReceiptId, ReceiptOptions,
    ReceiptSource, ReceiptTax,
};

use crate::{
    IdempotencyClaim, IdempotentResponse, ItemUpsert, MerchantSnapshot, NewDelivery, NewRefund, SalePlan,
    StockTake, TransitionCommit, Transitioned,
};

/// What the fixtures' decisions refuse with, standing in for the services' errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The order names a product the merchant does not have.
    ItemNotFound,
    /// The decision read less stock than the order takes.
    OutOfStock { sku: String, available: i64 },
    /// The state machine refused the event.
    Transition(TransitionError),
}

/// The repositories as the fixtures' transactions use them.
pub type Repositories = crate::Repositories<Refusal, Refusal>;
/// A sale whose decision refuses with [`Refusal`].
pub type SaleTx = crate::SaleTx<Refusal>;
/// A transition whose decision refuses with [`Refusal`].
pub type TransitionTx = crate::TransitionTx<Refusal>;
/// A transition decision refusing with [`Refusal`].
pub type TransitionDecision = crate::TransitionDecision<Refusal>;

/// Where the suite's clock starts: 2023-11-14T22:13:20Z.
pub const T0: i64 = 1_700_000_000_000;
/// The payment window of [`new_receipt`]'s receipts: one hour.
pub const WINDOW_MS: i64 = 3_600_000;
/// The webhook target of the fixtures' transitions.
pub const HOOK_URL: &str = "https://merchant.example/hooks";

/// A merchant wallet made of one repeated hex digit (`'a'` gives `0xaaaa...`).
pub fn wallet(digit: char) -> Wallet {
    let text = format!("0x{}", digit.to_string().repeat(40));
    Wallet::parse(&text).unwrap_or_else(|error| panic!("not a wallet {text}: {error}"))
}

/// A receipt id.
pub fn receipt_id(id: &str) -> ReceiptId {
    ReceiptId::parse("id", id).unwrap_or_else(|error| panic!("not a receipt id {id}: {error}"))
}

/// An API receipt (starts `pending`) of one line.
pub fn new_receipt(wallet: Wallet, id: &str, total_cents: i64) -> NewReceipt {
    NewReceipt {
        id: receipt_id(id),
        wallet,
        source: ReceiptSource::Api,
        currency: "USD".to_owned(),
        amounts: ReceiptAmounts {
            subtotal: Cents::new(total_cents),
            tax: Cents::ZERO,
            fee: Cents::ZERO,
            total: Cents::new(total_cents),
        },
        line_items: vec![payments_core::LineItem {
            label: "Coffee".to_owned(),
            price_usd: Cents::new(total_cents),
            qty: None,
            unit_price_usd: None,
            item_id: None,
            sku: None,
            thumb: None,
        }],
        brand_name: "Cafe".to_owned(),
        tax: ReceiptTax::none(),
        options: ReceiptOptions::default(),
        webhook_url: Some(HOOK_URL.to_owned()),
        sealed_signing_key: Some(vec![7; 48]),
        // Stored and read back as given: the contract bodies compare whole receipts.
        payment: Some(PaymentTarget {
            to: self::wallet('d'),
            split: self::wallet('e'),
        }),
        expires_at: T0 + WINDOW_MS,
        now_ms: T0,
    }
}

/// Creates `receipt` as is (no products, no claim).
pub fn receipt_sale<S>(receipt: NewReceipt) -> crate::SaleTx<S> {
    crate::SaleTx {
        wallet: receipt.wallet,
        items: Vec::new(),
        claim: None,
        decide: Box::new(move |_| {
            Ok(SalePlan {
                receipt,
                reserve: Vec::new(),
            })
        }),
    }
}

/// An `Idempotency-Key` for route `receipts` with a body hashing to `request_hash`.
pub fn claim(wallet: Wallet, key: &str, request_hash: &str) -> IdempotencyClaim {
    IdempotencyClaim {
        wallet,
        scope: "receipts",
        key: key.to_owned(),
        request_hash: request_hash.to_owned(),
        now_ms: T0,
    }
}

/// The response kept for a created receipt: 201 and a body naming it.
pub fn created_response(receipt: &Receipt, request_hash: &str) -> IdempotentResponse {
    IdempotentResponse {
        request_hash: request_hash.to_owned(),
        status: 201,
        body: format!("{{\"id\":\"{}\",\"status\":\"{}\"}}", receipt.id, receipt.status).into_bytes(),
    }
}

/// `sale` carrying `key` with a body hashing to `request_hash` (run it with [`super::keeping`] to keep its
/// answer as the edge does).
pub fn with_claim(mut sale: SaleTx, key: &str, request_hash: &str) -> SaleTx {
    sale.claim = Some(claim(sale.wallet, key, request_hash));
    sale
}

/// A product with `stock` units (-1: unlimited), tagged `tags`.
pub fn product(wallet: Wallet, sku: &str, stock: i64, tags: &[&str]) -> ItemUpsert {
    ItemUpsert {
        wallet,
        draft: ItemDraft {
            id: None,
            claimed_wallet: None,
            images: Some(Vec::new()),
            fields: ItemFields {
                sku: Sku::parse("sku", sku).unwrap_or_else(|error| panic!("not a sku {sku}: {error}")),
                name: format!("Product {sku}"),
                price_usd: Cents::new(250),
                currency: "USD".to_owned(),
                stock_qty: stock,
                category: "Drinks".to_owned(),
                description: format!("The {sku} of the house"),
                tags: tags.iter().map(|tag| (*tag).to_owned()).collect(),
                attributes: Default::default(),
                cost_usd: Cents::new(100),
                taxable: true,
                jurisdiction_code: None,
                industry_pack: "cafe".to_owned(),
                shipping_enabled: false,
                shipping_config: Default::default(),
            },
        },
        new_id: ProductId::generate(),
        now_ms: T0,
    }
}

/// An order for `qty` of `product` as receipt `id`: refused when the product is unknown or (as read
/// by the decision) short of stock; reserves finite stock.
pub fn order_sale(wallet: Wallet, id: &str, product: &ProductId, qty: u32) -> SaleTx {
    let id = id.to_owned();
    SaleTx {
        wallet,
        items: vec![ItemRef::Id(product.as_str().to_owned())],
        claim: None,
        decide: Box::new(move |inputs| {
            let Some(Some(item)) = inputs.items.into_iter().next() else {
                return Err(Refusal::ItemNotFound);
            };
            let stock = item.fields.stock_qty;
            if stock >= 0 && stock < i64::from(qty) {
                let sku = item.fields.sku.as_str().to_owned();
                return Err(Refusal::OutOfStock {
                    sku,
                    available: stock,
                });
            }
            let mut receipt = new_receipt(wallet, &id, item.fields.price_usd.as_i64() * i64::from(qty));
            receipt.source = ReceiptSource::Order;
            let reserve = if stock >= 0 {
                vec![StockTake {
                    item_id: item.id.as_str().to_owned(),
                    qty,
                }]
            } else {
                Vec::new()
            };
            Ok(SalePlan { receipt, reserve })
        }),
    }
}

/// A transition of the merchant's receipt `id`.
pub fn transition(wallet: Wallet, id: &str, decide: TransitionDecision) -> TransitionTx {
    TransitionTx {
        wallet: Some(wallet),
        receipt_id: receipt_id(id),
        claim: None,
        decide,
    }
}

/// `change` carrying `key` (run it with [`super::keeping`] to keep its answer as the edge does).
pub fn with_transition_claim(mut change: TransitionTx, key: &str, request_hash: &str) -> TransitionTx {
    let wallet = change
        .wallet
        .unwrap_or_else(|| panic!("a claimed transition names its merchant"));
    change.claim = Some(claim(wallet, key, request_hash));
    change
}

/// The response kept for a transition: 200 and a body naming the status the receipt moved to.
pub fn transition_response(done: &Transitioned, request_hash: &str) -> IdempotentResponse {
    IdempotentResponse {
        request_hash: request_hash.to_owned(),
        status: 200,
        body: format!("{:?}", done.moved.map(|(_, to)| to.status)).into_bytes(),
    }
}

/// The commit of an accepted transition of `receipt` to `to`, with its `event` webhook.
pub fn commit(receipt: &Receipt, to: ReceiptState, event: &'static str) -> TransitionCommit {
    TransitionCommit {
        receipt_id: receipt.id.clone(),
        wallet: receipt.wallet,
        expected_version: receipt.version,
        from: receipt.status,
        to,
        transaction_hash: None,
        buyer_wallet: None,
        failure: None,
        actor: "key:sub_contract".to_owned(),
        now_ms: T0 + 1_000,
        delivery: Some(NewDelivery {
            id: DeliveryId::generate(),
            url: HOOK_URL.to_owned(),
            endpoint: HOOK_URL.to_owned(),
            event,
            body: format!("{{\"event\":\"{event}\",\"version\":{}}}", receipt.version + 1).into_bytes(),
        }),
        event: crate::MerchantEvent::new(
            receipt.wallet,
            event,
            T0 + 1_000,
            format!("{{\"receiptId\":\"{}\"}}", receipt.id.as_str()).into_bytes(),
        ),
        refund: None,
        confirms_refund: None,
        expires: false,
        retakes_stock: false,
        paid_late: false,
        received: receipt.received,
    }
}

/// Marks the receipt paid `paid_cents` with a transaction hash, enqueueing a `receipt.paid` webhook.
pub fn mark_paid(paid_cents: i64) -> TransitionDecision {
    Box::new(move |receipt: &Receipt, _: &MerchantSnapshot| {
        let to = ReceiptState {
            status: ReceiptStatus::Paid,
            paid: Cents::new(paid_cents),
            refunded: receipt.refunded,
            held_by: Authority::Chain,
        };
        let mut commit = commit(receipt, to, "receipt.paid");
        commit.transaction_hash = Some(format!("0x{}", "ab".repeat(32)));
        commit.buyer_wallet = Some(wallet('b'));
        Ok(Some(commit))
    })
}

/// Like [`mark_paid`], with the webhook going to `url` (its own endpoint).
pub fn mark_paid_to(paid_cents: i64, url: &'static str) -> TransitionDecision {
    let paid = mark_paid(paid_cents);
    Box::new(move |receipt: &Receipt, merchant: &MerchantSnapshot| {
        let mut commit = paid(receipt, merchant)?;
        if let Some(delivery) = commit.as_mut().and_then(|commit| commit.delivery.as_mut()) {
            url.clone_into(&mut delivery.url);
            url.clone_into(&mut delivery.endpoint);
        }
        Ok(commit)
    })
}

/// Refunds `amount_cents`, refused when the refunds would exceed what was paid: the decision is only
/// right if it sees every earlier refund.
pub fn refund(amount_cents: i64) -> TransitionDecision {
    refund_in(amount_cents, next_refund_tx(), true)
}

/// [`refund`] proven by transaction `tx_hash`, `confirmed` or still waiting for its confirmations (the
/// receipt is then `refund_requested`).
pub fn refund_in(amount_cents: i64, tx_hash: String, confirmed: bool) -> TransitionDecision {
    Box::new(move |receipt: &Receipt, _: &MerchantSnapshot| {
        let requested = Cents::new(amount_cents);
        let refunded = Cents::new(receipt.refunded.as_i64() + amount_cents);
        if refunded > receipt.paid {
            let remaining = Cents::new(receipt.paid.as_i64() - receipt.refunded.as_i64());
            return Err(Refusal::Transition(TransitionError::RefundExceedsPaid {
                requested,
                remaining,
            }));
        }
        let status = if confirmed {
            status_by_amounts(receipt.paid, refunded)
        } else {
            ReceiptStatus::RefundRequested
        };
        let to = ReceiptState {
            status,
            paid: receipt.paid,
            refunded,
            held_by: Authority::Admin,
        };
        let mut commit = commit(receipt, to, "receipt.refunded");
        commit.refund = Some(NewRefund {
            buyer: wallet('b'),
            amount: requested,
            items: Vec::new(),
            tx_hash,
            block_number: 7,
            confirmed,
        });
        Ok(Some(commit))
    })
}

/// The chain confirmed the receipt's pending refund in transaction `tx_hash`: `refunded` or
/// `refund_partial` by the amounts.
pub fn confirm_refund(tx_hash: String) -> TransitionDecision {
    Box::new(move |receipt: &Receipt, _: &MerchantSnapshot| {
        let to = ReceiptState {
            status: status_by_amounts(receipt.paid, receipt.refunded),
            paid: receipt.paid,
            refunded: receipt.refunded,
            held_by: Authority::Chain,
        };
        let mut commit = commit(receipt, to, "receipt.refunded");
        commit.confirms_refund = Some(tx_hash);
        Ok(Some(commit))
    })
}

/// `refunded` when all that was paid is refunded, else `refund_partial`.
fn status_by_amounts(paid: Cents, refunded: Cents) -> ReceiptStatus {
    if refunded == paid {
        ReceiptStatus::Refunded
    } else {
        ReceiptStatus::RefundPartial
    }
}

/// A transaction hash no other refund of this process used: one transaction proves one refund.
pub fn next_refund_tx() -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("0x{n:064x}")
}

/// Acknowledges the event and writes nothing.
pub fn acknowledge() -> TransitionDecision {
    Box::new(|_: &Receipt, _: &MerchantSnapshot| Ok(None))
}

/// Like [`mark_paid`], naming `buyer` as the buyer.
pub fn mark_paid_by(paid_cents: i64, buyer: Wallet) -> TransitionDecision {
    let paid = mark_paid(paid_cents);
    Box::new(move |receipt: &Receipt, merchant: &MerchantSnapshot| {
        let mut commit = paid(receipt, merchant)?;
        if let Some(commit) = commit.as_mut() {
            commit.buyer_wallet = Some(buyer);
        }
        Ok(commit)
    })
}

/// Moves a paid receipt to `completed`: its split ran on chain.
pub fn mark_completed() -> TransitionDecision {
    Box::new(|receipt: &Receipt, _: &MerchantSnapshot| {
        let to = ReceiptState {
            status: ReceiptStatus::Completed,
            paid: receipt.paid,
            refunded: receipt.refunded,
            held_by: Authority::Chain,
        };
        Ok(Some(commit(receipt, to, "receipt.completed")))
    })
}
