//! Realistic bodies for test events (`payments webhooks trigger`): the same types the live events carry,
//! with made-up ids and amounts, so a receiver can be built and checked before any real sale.

use payments_core::{
    BillingPeriod, Cents, PlanChangeFacts, Proration, RECEIPT_STATUS_UPDATED, ReceiptBalance, ReceiptStatus,
    ReceiptStatusUpdated, SubscriptionChargeFacts, SubscriptionEventKind, SubscriptionStatus,
    SubscriptionWebhook, TokenAmount, UpcomingCharge, WEBHOOK_ENDPOINT_DISABLED, Wallet, WebhookAmount,
};

/// The event types `trigger` can send.
pub(crate) const SAMPLE_EVENT_TYPES: [&str; 7] = [
    RECEIPT_STATUS_UPDATED,
    "subscription.created",
    "subscription.charged",
    "subscription.charge_failed",
    "subscription.canceled",
    "subscription.updated",
    WEBHOOK_ENDPOINT_DISABLED,
];

/// A customer wallet no one holds (the test events move nothing).
const SAMPLE_CUSTOMER: &str = "0x000000000000000000000000000000000000c0de";

/// The `data` of a test event of `event_type` for `merchant`; `None` for a type no event has.
pub(super) fn sample(event_type: &str, merchant: Wallet, now_ms: i64) -> Option<Vec<u8>> {
    let data = match event_type {
        RECEIPT_STATUS_UPDATED => serde_json::to_value(receipt(merchant, now_ms)),
        WEBHOOK_ENDPOINT_DISABLED => Ok(serde_json::json!({
            "endpointId": "we_00000000000000000000000000000000",
            "url": "https://example.com/webhooks",
            "failingSince": now_ms.saturating_sub(5 * 24 * 60 * 60 * 1000),
            "disabledAt": now_ms,
        })),
        other => {
            let kind = SubscriptionEventKind::ALL
                .into_iter()
                .find(|kind| kind.as_str() == other)?;
            serde_json::to_value(subscription(kind, merchant, now_ms))
        }
    };
    // Serializing these plain values cannot fail.
    data.ok().map(|value| value.to_string().into_bytes())
}

/// The sample customer; the merchant itself if the constant ever failed to parse.
fn customer(merchant: Wallet) -> Wallet {
    Wallet::parse(SAMPLE_CUSTOMER).unwrap_or(merchant)
}

fn receipt(merchant: Wallet, now_ms: i64) -> ReceiptStatusUpdated {
    ReceiptStatusUpdated {
        event: RECEIPT_STATUS_UPDATED.to_owned(),
        receipt_id: "rcpt_test_0000000000000000000000000".to_owned(),
        status: ReceiptStatus::Paid,
        previous_status: ReceiptStatus::Pending,
        failure_code: None,
        failure_category: None,
        failure_reason: None,
        failure_action: None,
        transaction_hash: Some(format!("0x{}", "ab".repeat(32))),
        buyer_wallet: Some(customer(merchant)),
        merchant_wallet: merchant,
        total_usd: Cents::new(1_210),
        token: "USDC".to_owned(),
        onramp_session_id: None,
        is_onramp_session_unique: false,
        transaction_id: None,
        metadata: None,
        timestamp: now_ms,
        brand_key: "test".to_owned(),
        paid_late: false,
        balance: Some(ReceiptBalance::of(
            Cents::new(1_210),
            TokenAmount::from_base_units(12_100_000),
        )),
        payment: None,
    }
}

fn subscription(kind: SubscriptionEventKind, merchant: Wallet, now_ms: i64) -> SubscriptionWebhook {
    let price = Cents::new(999);
    let (status, previous_status, charge, cancel_reason) = match kind {
        SubscriptionEventKind::Charged => (
            SubscriptionStatus::Active,
            Some(SubscriptionStatus::Active),
            Some(charge(Some(format!("0x{}", "cd".repeat(32))), None)),
            None,
        ),
        SubscriptionEventKind::ChargeFailed => (
            SubscriptionStatus::PastDue,
            Some(SubscriptionStatus::Active),
            Some(charge(None, Some("allowance too low".to_owned()))),
            None,
        ),
        SubscriptionEventKind::Canceled => (
            SubscriptionStatus::Canceled,
            Some(SubscriptionStatus::Active),
            None,
            None,
        ),
        // `created`, and kinds added later, show a new active subscription.
        _ => (SubscriptionStatus::Active, None, None, None),
    };
    SubscriptionWebhook {
        event: kind,
        id: "00000000-0000-4000-8000-000000000000".to_owned(),
        timestamp: now_ms,
        subscription_id: "csub_test_00000000000000000000000".to_owned(),
        plan_id: "plan_test_000000000000000000000000".to_owned(),
        merchant_wallet: merchant,
        customer_wallet: customer(merchant),
        status,
        previous_status,
        period: BillingPeriod::Monthly,
        price: WebhookAmount::of(price),
        charge,
        upcoming_charge: (kind == SubscriptionEventKind::ChargeUpcoming).then(|| UpcomingCharge {
            period_index: 1,
            charge_at: now_ms + 3 * 86_400_000,
            amount: WebhookAmount::of(price),
            balance_sufficient: true,
            allowance_sufficient: true,
        }),
        cancel_reason,
        plan_change: (kind == SubscriptionEventKind::Updated).then(|| PlanChangeFacts {
            previous_plan_id: "plan_test_previous_000000000000000".to_owned(),
            previous_price: TokenAmount::from_base_units(4_990_000),
            proration: Proration::Charge(TokenAmount::from_base_units(2_500_000)),
            fee: TokenAmount::from_base_units(12_500),
            net: TokenAmount::from_base_units(2_487_500),
            credit_balance: TokenAmount::default(),
            transaction_hash: Some(format!("0x{}", "ef".repeat(32))),
        }),
    }
}

fn charge(transaction_hash: Option<String>, failure_reason: Option<String>) -> SubscriptionChargeFacts {
    SubscriptionChargeFacts {
        period_index: 0,
        gross: WebhookAmount::of(Cents::new(999)),
        fee: WebhookAmount::of_units(TokenAmount::from_base_units(99_900)),
        net: WebhookAmount::of_units(TokenAmount::from_base_units(9_890_100)),
        transaction_hash,
        failure_reason,
    }
}
