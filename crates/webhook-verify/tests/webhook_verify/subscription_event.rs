//! The typed subscription events: the bodies the service sends to a plan's `webhookUrl`.

use webhook_verify::{BillingPeriod, Event, SubscriptionEvent, SubscriptionStatus, Webhook};

/// A `subscription.charged` body exactly as the service serialises it (every key present).
const CHARGED: &str = r#"{
    "event": "subscription.charged",
    "id": "d-1",
    "timestamp": 1700000000000,
    "subscriptionId": "csub_1",
    "planId": "plan_1",
    "merchantWallet": "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "customerWallet": "0xcccccccccccccccccccccccccccccccccccccccc",
    "status": "active",
    "previousStatus": "past_due",
    "period": "WEEKLY",
    "priceUsd": 9.99,
    "priceBaseUnits": "9990000",
    "charge": {
        "periodIndex": 2,
        "grossUsd": 9.99,
        "grossBaseUnits": "9990000",
        "feeUsd": 0.04995,
        "feeBaseUnits": "49950",
        "netUsd": 9.94005,
        "netBaseUnits": "9940050",
        "transactionHash": "0xabc",
        "failureReason": null
    },
    "cancelReason": null
}"#;

/// A `subscription.created` body as the service sends it: no charge, no previous status.
fn created(subscription: &str) -> String {
    format!(
        r#"{{"event":"subscription.created","id":"d-2","timestamp":1700000000000,"subscriptionId":"{subscription}",
            "planId":"plan_1","merchantWallet":"0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "customerWallet":"0xcccccccccccccccccccccccccccccccccccccccc","status":"active","previousStatus":null,
            "period":"MONTHLY","priceUsd":2.50,"priceBaseUnits":"2500000","charge":null,"cancelReason":null}}"#
    )
}

fn event_of(body: &str) -> Event {
    Webhook::parse(body.as_bytes()).unwrap().into_event()
}

#[test]
fn every_field_of_a_charged_body_is_typed() {
    let Event::SubscriptionCharged(event) = event_of(CHARGED) else {
        panic!("expected subscription.charged");
    };

    assert_eq!(event.event, "subscription.charged");
    assert_eq!(event.id.as_deref(), Some("d-1"));
    assert_eq!(event.timestamp, Some(1_700_000_000_000));
    assert_eq!(event.subscription_id, "csub_1");
    assert_eq!(event.plan_id.as_deref(), Some("plan_1"));
    assert_eq!(
        event.merchant_wallet.as_deref(),
        Some("0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
    );
    assert_eq!(
        event.customer_wallet.as_deref(),
        Some("0xcccccccccccccccccccccccccccccccccccccccc")
    );
    assert_eq!(event.status, SubscriptionStatus::Active);
    assert_eq!(event.previous_status, Some(SubscriptionStatus::PastDue));
    assert_eq!(event.period, Some(BillingPeriod::Weekly));
    assert_eq!(event.price().and_then(|price| price.cents()), Some(999));
    assert_eq!(event.price_usd, Some(9.99));
    let charge = event.charge.unwrap();
    assert_eq!(charge.period_index, Some(2));
    assert_eq!(
        charge.gross().and_then(|gross| gross.base_units()),
        Some(9_990_000)
    );
    assert_eq!(
        charge.fee().and_then(|fee| fee.cents()),
        None,
        "a fraction of a cent"
    );
    assert_eq!(
        charge.fee().and_then(|fee| fee.usd_text()).as_deref(),
        Some("0.04995")
    );
    assert_eq!(charge.net().and_then(|net| net.base_units()), Some(9_940_050));
    assert_eq!(charge.net_usd, Some(9.94005));
    assert_eq!(charge.transaction_hash.as_deref(), Some("0xabc"));
    assert_eq!(charge.failure_reason, None);
    assert_eq!(event.cancel_reason, None);
}

#[test]
fn each_subscription_event_type_parses_into_its_own_variant() {
    let body = |event_type: &str| created("csub_9").replace("subscription.created", event_type);

    let created = event_of(&body("subscription.created"));
    let charged = event_of(&body("subscription.charged"));
    let failed = event_of(&body("subscription.charge_failed"));
    let canceled = event_of(&body("subscription.canceled"));

    assert!(matches!(created, Event::SubscriptionCreated(_)), "{created:?}");
    assert!(matches!(charged, Event::SubscriptionCharged(_)), "{charged:?}");
    assert!(matches!(failed, Event::SubscriptionChargeFailed(_)), "{failed:?}");
    assert!(matches!(canceled, Event::SubscriptionCanceled(_)), "{canceled:?}");
    for (event, event_type) in [
        (&created, "subscription.created"),
        (&charged, "subscription.charged"),
        (&failed, "subscription.charge_failed"),
        (&canceled, "subscription.canceled"),
    ] {
        assert_eq!(event.event_type(), event_type);
        assert_eq!(
            event.subscription().map(|s| s.subscription_id.as_str()),
            Some("csub_9")
        );
    }
}

#[test]
fn a_created_body_has_no_charge_and_no_previous_status() {
    let Event::SubscriptionCreated(event) = event_of(&created("csub_2")) else {
        panic!("expected subscription.created");
    };

    assert_eq!(event.previous_status, None);
    assert_eq!(event.charge, None);
    assert_eq!(event.period, Some(BillingPeriod::Monthly));
    assert_eq!(event.price().and_then(|price| price.cents()), Some(250));
}

#[test]
fn unknown_statuses_and_periods_are_kept_instead_of_failing() {
    let body = created("csub_3")
        .replace(r#""status":"active""#, r#""status":"paused""#)
        .replace("MONTHLY", "DAILY");

    let event = event_of(&body);

    let subscription = event.subscription().unwrap();
    assert_eq!(
        subscription.status,
        SubscriptionStatus::Unknown("paused".to_owned())
    );
    assert_eq!(
        subscription.period,
        Some(BillingPeriod::Unknown("DAILY".to_owned()))
    );
}

#[test]
fn only_event_subscription_id_and_status_are_required() {
    let minimal =
        event_of(r#"{"event":"subscription.canceled","subscriptionId":"csub_4","status":"canceled"}"#);

    assert_eq!(
        minimal.subscription().map(|s| s.status.clone()),
        Some(SubscriptionStatus::Canceled)
    );
    for missing in [
        r#"{"event":"subscription.canceled","status":"canceled"}"#,
        r#"{"event":"subscription.canceled","subscriptionId":"csub_4"}"#,
    ] {
        let err = Webhook::parse(missing.as_bytes()).unwrap_err();
        assert_eq!(err.event_type(), Some("subscription.canceled"), "{missing}");
    }
}

#[test]
fn every_known_subscription_status_and_period_reads_its_wire_name() {
    for (wire, status) in [
        ("active", SubscriptionStatus::Active),
        ("past_due", SubscriptionStatus::PastDue),
        ("canceled", SubscriptionStatus::Canceled),
    ] {
        assert_eq!(SubscriptionStatus::from(wire), status);
        assert_eq!(status.as_str(), wire);
    }
    for (wire, period) in [
        ("WEEKLY", BillingPeriod::Weekly),
        ("BIWEEKLY", BillingPeriod::Biweekly),
        ("MONTHLY", BillingPeriod::Monthly),
        ("QUARTERLY", BillingPeriod::Quarterly),
        ("YEARLY", BillingPeriod::Yearly),
    ] {
        assert_eq!(BillingPeriod::from(wire), period);
        assert_eq!(period.to_string(), wire);
    }
}

#[test]
fn a_subscription_event_serialises_back_to_camel_case_wire_names() {
    let event: SubscriptionEvent = serde_json::from_str(CHARGED).unwrap();

    let json = serde_json::to_value(&event).unwrap();

    assert_eq!(json["subscriptionId"], "csub_1");
    assert_eq!(json["previousStatus"], "past_due");
    assert_eq!(json["charge"]["grossBaseUnits"], "9990000");
    assert_eq!(json["priceUsd"], 9.99);
}

#[test]
fn a_charge_upcoming_notice_parses_with_its_amount_and_readiness() {
    let body = r#"{"event":"subscription.charge_upcoming","subscriptionId":"csub_4","status":"trialing",
        "upcomingCharge":{"periodIndex":0,"chargeAt":1767859191000,
        "amountUsd":9.99,"amountBaseUnits":"9990000","balanceSufficient":false,"allowanceSufficient":true}}"#;

    let event = event_of(body);

    let Event::SubscriptionChargeUpcoming(notice) = &event else {
        panic!("expected a charge_upcoming: {event:?}");
    };
    assert_eq!(event.event_type(), "subscription.charge_upcoming");
    assert_eq!(notice.status, SubscriptionStatus::Trialing);
    let upcoming = notice.upcoming_charge.clone().unwrap();
    assert_eq!(upcoming.period_index, Some(0));
    assert_eq!(upcoming.charge_at, Some(1_767_859_191_000));
    assert_eq!(
        upcoming.amount().and_then(|amount| amount.base_units()),
        Some(9_990_000)
    );
    assert_eq!(upcoming.balance_sufficient, Some(false));
    assert_eq!(upcoming.allowance_sufficient, Some(true));
}
