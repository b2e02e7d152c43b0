use super::*;

fn filters(patterns: &[&str]) -> EventFilters {
    EventFilters::parse(patterns).unwrap()
}

#[test]
fn a_family_pattern_matches_its_family_only() {
    let receipts = filters(&["receipt.*"]);

    assert!(receipts.matches("receipt.status_updated"));
    assert!(receipts.matches("receipt.underpaid"));
    assert!(!receipts.matches("subscription.charged"));
    assert!(!receipts.matches("receipts.other"));
    assert!(!receipts.matches("receipt"));
}

#[test]
fn exact_types_and_the_star_match_as_written() {
    let charged = filters(&["subscription.charged", "subscription.canceled"]);
    let every = filters(&["*"]);

    assert!(charged.matches("subscription.charged"));
    assert!(charged.matches("subscription.canceled"));
    assert!(!charged.matches("subscription.created"));
    assert!(every.matches("webhook_endpoint.disabled"));
}

#[test]
fn malformed_empty_and_oversized_lists_are_refused() {
    for bad in [
        "",
        "receipt",
        "Receipt.paid",
        "*.paid",
        "receipt.**",
        "receipt..paid",
        ".paid",
        "a b.c",
    ] {
        assert_eq!(
            EventFilters::parse(&[bad]),
            Err(EventFilterError::Malformed(bad.to_owned())),
            "{bad}"
        );
    }
    assert_eq!(EventFilters::parse::<&str>(&[]), Err(EventFilterError::Empty));
    let many: Vec<String> = (0..=MAX_EVENT_FILTERS).map(|n| format!("receipt.e{n}")).collect();
    assert_eq!(EventFilters::parse(&many), Err(EventFilterError::TooMany));
}

#[test]
fn duplicate_patterns_are_kept_once_in_their_order() {
    let parsed = filters(&["subscription.*", "*", "subscription.*"]);

    assert_eq!(parsed.to_strings(), vec!["subscription.*", "*"]);
}

#[test]
fn the_envelope_splices_the_data_bytes_unchanged_and_marks_test_events() {
    let data = br#"{"totalUsd":12.10,"price":{"usd":"9.99"}}"#;

    let live = EventEnvelope {
        id: "evt_a",
        event_type: "receipt.status_updated",
        created_at_ms: 1_700_000_000_000,
        test: false,
        data,
    }
    .to_body();
    let test = EventEnvelope {
        id: "evt_b",
        event_type: "subscription.charged",
        created_at_ms: 1_700_000_000_000,
        test: true,
        data,
    }
    .to_body();

    assert_eq!(
        String::from_utf8(live).unwrap(),
        r#"{"id":"evt_a","type":"receipt.status_updated","createdAt":1700000000000,"test":false,"data":{"totalUsd":12.10,"price":{"usd":"9.99"}}}"#
    );
    assert_eq!(
        String::from_utf8(test).unwrap(),
        r#"{"id":"evt_b","type":"subscription.charged","createdAt":1700000000000,"test":true,"data":{"totalUsd":12.10,"price":{"usd":"9.99"}}}"#
    );
}

#[test]
fn the_signature_header_matches_the_standard_webhooks_reference_vector() {
    // The example of the Standard Webhooks reference libraries (svix, standardwebhooks).
    let secret = StandardWebhooksSecret::parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();

    let header = signature_header(
        &[&secret],
        "msg_p5jXN8AQM9LWM0D4loKWxJek",
        1_614_265_330,
        br#"{"test": 2432232314}"#,
    );

    assert_eq!(header, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
}

#[test]
fn during_a_rotation_both_secrets_sign_space_separated_new_first() {
    let new = StandardWebhooksSecret::parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();
    let old = StandardWebhooksSecret::from_key_bytes(b"previous secret bytes");

    let header = signature_header(
        &[&new, &old],
        "msg_p5jXN8AQM9LWM0D4loKWxJek",
        1_614_265_330,
        br#"{"test": 2432232314}"#,
    );

    let parts: Vec<&str> = header.split(' ').collect();
    assert_eq!(parts.len(), 2);
    assert_eq!(parts[0], "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    assert!(parts[1].starts_with("v1,") && parts[1] != parts[0]);
}

#[test]
fn the_default_retry_schedule_spans_about_three_days() {
    let schedule = default_endpoint_retry_schedule();
    let total: u64 = schedule.iter().map(Duration::as_secs).sum();

    assert_eq!(schedule[0], Duration::from_secs(5));
    assert_eq!(schedule[1], Duration::from_secs(300));
    assert_eq!(schedule.len(), 11);
    assert_eq!(total, 5 + 300 + 1_800 + 7_200 + 18_000 + 6 * 36_000);
}
