//! Every subscription webhook the core serialises and signs is verified and typed by `webhook-verify`.
#![allow(clippy::unwrap_used, reason = "test helpers fail loudly on broken fixtures")]

use std::time::{Duration, UNIX_EPOCH};

use payments_core::{
    BillingPeriod, Cents, PlanChangeFacts, Proration, StandardWebhooksSecret, SubscriptionChargeFacts,
    SubscriptionEventKind, SubscriptionStatus, SubscriptionWebhook, TokenAmount, UpcomingCharge, Wallet,
    WebhookAmount, x_service_signature,
};
use webhook_verify::{ApiKey, Event, Verifier, WebhookSecret};

const API_KEY: &str = "sk_test_6cf2d133187c8df95247f2866028de71";
const SENT_AT_SECS: u64 = 1_767_599_992;

fn body(kind: SubscriptionEventKind) -> SubscriptionWebhook {
    let charge = matches!(
        kind,
        SubscriptionEventKind::Charged | SubscriptionEventKind::ChargeFailed
    )
    .then(|| SubscriptionChargeFacts {
        period_index: 3,
        gross: WebhookAmount::of(Cents::new(999)),
        fee: WebhookAmount::of(Cents::new(5)),
        net: WebhookAmount::of(Cents::new(994)),
        transaction_hash: (kind == SubscriptionEventKind::Charged).then(|| "0xabc".to_owned()),
        failure_reason: (kind == SubscriptionEventKind::ChargeFailed)
            .then(|| "allowance exhausted".to_owned()),
    });
    SubscriptionWebhook {
        event: kind,
        id: "6f1c9a52-0000-4000-8000-000000000007".to_owned(),
        timestamp: 1_767_599_991_000,
        subscription_id: "csub_77".to_owned(),
        plan_id: "plan_9".to_owned(),
        merchant_wallet: Wallet::parse("0x00000000000000000000000000000000000000aa").unwrap(),
        customer_wallet: Wallet::parse("0x00000000000000000000000000000000000000cc").unwrap(),
        status: SubscriptionStatus::PastDue,
        previous_status: (kind != SubscriptionEventKind::Created).then_some(SubscriptionStatus::Active),
        period: BillingPeriod::Quarterly,
        price: WebhookAmount::of(Cents::new(999)),
        charge,
        upcoming_charge: (kind == SubscriptionEventKind::ChargeUpcoming).then(|| UpcomingCharge {
            period_index: 4,
            charge_at: 1_767_859_191_000,
            amount: WebhookAmount::of(Cents::new(999)),
            balance_sufficient: false,
            allowance_sufficient: true,
        }),
        cancel_reason: (kind == SubscriptionEventKind::Canceled).then(|| "failed_periods".to_owned()),
        plan_change: (kind == SubscriptionEventKind::Updated).then(|| PlanChangeFacts {
            previous_plan_id: "plan_8".to_owned(),
            previous_price: TokenAmount::from_base_units(9_990_000),
            proration: Proration::Charge(TokenAmount::from_base_units(2_333_333)),
            fee: TokenAmount::from_base_units(11_667),
            net: TokenAmount::from_base_units(2_321_666),
            credit_balance: TokenAmount::from_base_units(0),
            transaction_hash: Some("0xdef".to_owned()),
        }),
    }
}

#[test]
fn every_subscription_event_signed_by_the_core_verifies_and_parses_into_its_typed_variant() {
    let at = UNIX_EPOCH + Duration::from_secs(SENT_AT_SECS + 1);
    let x_service = Verifier::new(ApiKey::new(API_KEY).unwrap());
    let secret = StandardWebhooksSecret::from_key_bytes(API_KEY.as_bytes());
    let standard = Verifier::standard_webhooks(WebhookSecret::new(secret.to_whsec()).unwrap());

    for kind in SubscriptionEventKind::ALL {
        let sent = body(kind);
        let bytes = serde_json::to_vec(&sent).unwrap();
        let timestamp = SENT_AT_SECS.to_string();
        let headers = [
            (
                "x-service-signature",
                x_service_signature(API_KEY.as_bytes(), &bytes),
            ),
            ("x-service-timestamp", format!("{SENT_AT_SECS}000")),
            ("webhook-id", sent.id.clone()),
            ("webhook-timestamp", timestamp),
            (
                "webhook-signature",
                secret.sign(&sent.id, SENT_AT_SECS as i64, &bytes),
            ),
        ];

        let by_key = x_service.verify_and_parse_at(&headers[..], &bytes, at).unwrap();
        let by_secret = standard.verify_and_parse_at(&headers[..], &bytes, at).unwrap();

        assert_eq!(by_key, by_secret, "{kind}");
        let event = by_key.into_event();
        assert_eq!(event.event_type(), kind.as_str());
        let variant_matches = match kind {
            SubscriptionEventKind::Created => matches!(event, Event::SubscriptionCreated(_)),
            SubscriptionEventKind::ChargeUpcoming => {
                matches!(event, Event::SubscriptionChargeUpcoming(_))
            }
            SubscriptionEventKind::Charged => matches!(event, Event::SubscriptionCharged(_)),
            SubscriptionEventKind::ChargeFailed => matches!(event, Event::SubscriptionChargeFailed(_)),
            SubscriptionEventKind::Canceled => matches!(event, Event::SubscriptionCanceled(_)),
            SubscriptionEventKind::Updated => matches!(event, Event::SubscriptionUpdated(_)),
            _ => false,
        };
        assert!(variant_matches, "{kind}: {event:?}");
        let parsed = event.subscription().unwrap();
        assert_eq!(parsed.subscription_id, "csub_77");
        assert_eq!(parsed.id.as_deref(), Some(sent.id.as_str()));
        assert_eq!(parsed.status.as_str(), "past_due");
        assert_eq!(parsed.period.as_ref().map(|p| p.as_str()), Some("QUARTERLY"));
        assert_eq!(parsed.price().and_then(|p| p.cents()), Some(999));
        assert_eq!(
            parsed.customer_wallet.as_deref(),
            Some("0x00000000000000000000000000000000000000cc")
        );
        let charge = parsed.charge.as_ref();
        assert_eq!(charge.is_some(), sent.charge.is_some(), "{kind}");
        if let Some(charge) = charge {
            assert_eq!(charge.period_index, Some(3));
            assert_eq!(charge.fee().and_then(|fee| fee.base_units()), Some(50_000));
            assert_eq!(charge.net().and_then(|net| net.cents()), Some(994));
        }
        assert_eq!(parsed.cancel_reason, sent.cancel_reason, "{kind}");
        let change = parsed.plan_change.as_ref();
        assert_eq!(change.is_some(), sent.plan_change.is_some(), "{kind}");
        if let Some(change) = change {
            assert_eq!(change.previous_plan_id.as_deref(), Some("plan_8"));
            assert_eq!(change.proration.as_deref(), Some("charge"));
            assert_eq!(change.proration_base_units.as_deref(), Some("2333333"));
            assert_eq!(
                change.proration_usd.as_ref().map(ToString::to_string).as_deref(),
                Some("2.333333")
            );
            assert_eq!(change.fee_base_units.as_deref(), Some("11667"));
            assert_eq!(change.net_base_units.as_deref(), Some("2321666"));
            assert_eq!(change.credit_balance_base_units.as_deref(), Some("0"));
            assert_eq!(change.transaction_hash.as_deref(), Some("0xdef"));
        }
        let upcoming = parsed.upcoming_charge.as_ref();
        assert_eq!(upcoming.is_some(), sent.upcoming_charge.is_some(), "{kind}");
        if let Some(upcoming) = upcoming {
            assert_eq!(upcoming.period_index, Some(4));
            assert_eq!(upcoming.charge_at, Some(1_767_859_191_000));
            assert_eq!(
                upcoming.amount().and_then(|amount| amount.base_units()),
                Some(9_990_000)
            );
            assert_eq!(upcoming.balance_sufficient, Some(false));
            assert_eq!(upcoming.allowance_sufficient, Some(true));
        }
    }
}
