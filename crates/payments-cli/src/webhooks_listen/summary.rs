//! The one line `payments webhooks listen` prints per verified delivery: delivery id, event type, then the
//! fields a developer looks for first. Every event type gets a line, including types this version does not
//! know.

use std::fmt::Write as _;

use webhook_verify::{Amount, Event, ReceiptStatusUpdated, SubscriptionEvent, UpcomingCharge, Webhook};

use crate::output::one_line;

/// `DELIVERY  TYPE  fields...`, with ` (test event)` at the end of a test event from an endpoint.
pub(super) fn summary(delivery: &str, webhook: &Webhook) -> String {
    let mut line = format!("{delivery}  {}", webhook.event_type());
    match webhook.event() {
        Event::ReceiptStatusUpdated(event) => receipt_fields(&mut line, event),
        event => match event.subscription() {
            Some(event) => subscription_fields(&mut line, event),
            None => line.push_str("  (not handled by this version)"),
        },
    }
    if webhook.is_test() {
        line.push_str(" (test event)");
    }
    one_line(&line)
}

/// Receipt, status and amount first, then whatever else the event carries.
fn receipt_fields(line: &mut String, event: &ReceiptStatusUpdated) {
    write!(line, "  receiptId={} status={}", event.receipt_id, event.status).ok();
    if let Some(previous) = &event.previous_status {
        write!(line, " previousStatus={previous}").ok();
    }
    if let Some(cents) = event.total_cents() {
        let sign = if cents < 0 { "-" } else { "" };
        let cents = cents.unsigned_abs();
        write!(line, " totalUsd={sign}{}.{:02}", cents / 100, cents % 100).ok();
    } else if let Some(usd) = event.total_usd {
        write!(line, " totalUsd={usd}").ok();
    }
    let identifiers = [
        ("token", &event.token),
        ("transactionId", &event.transaction_id),
        ("transactionHash", &event.transaction_hash),
        ("failureCode", &event.failure_code),
    ];
    for (name, value) in identifiers {
        if let Some(value) = value {
            write!(line, " {name}={value}").ok();
        }
    }
    if let Some(reason) = &event.failure_reason {
        write!(line, " failureReason={reason:?}").ok();
    }
}

/// The announced charge of `subscription.charge_upcoming`: when, how much, and whether it would go through.
fn upcoming_fields(line: &mut String, upcoming: &UpcomingCharge) {
    if let Some(index) = upcoming.period_index {
        write!(line, " periodIndex={index}").ok();
    }
    if let Some(at) = upcoming.charge_at {
        write!(line, " chargeAt={at}").ok();
    }
    amount_field(line, "amountUsd", upcoming.amount());
    if let Some(sufficient) = upcoming.balance_sufficient {
        write!(line, " balanceSufficient={sufficient}").ok();
    }
    if let Some(sufficient) = upcoming.allowance_sufficient {
        write!(line, " allowanceSufficient={sufficient}").ok();
    }
}

/// ` <name>=<exact USD>`, from the amount's base units (never through a float); nothing without them.
fn amount_field(line: &mut String, name: &str, amount: Option<Amount>) {
    if let Some(usd) = amount.as_ref().and_then(Amount::usd_text) {
        write!(line, " {name}={usd}").ok();
    }
}

/// Subscription, status and plan first, then the charge's amounts, exact.
fn subscription_fields(line: &mut String, event: &SubscriptionEvent) {
    write!(
        line,
        "  subscriptionId={} status={}",
        event.subscription_id, event.status
    )
    .ok();
    if let Some(previous) = &event.previous_status {
        write!(line, " previousStatus={previous}").ok();
    }
    if let Some(plan) = &event.plan_id {
        write!(line, " planId={plan}").ok();
    }
    amount_field(line, "priceUsd", event.price());
    if let Some(period) = &event.period {
        write!(line, " period={period}").ok();
    }
    if let Some(customer) = &event.customer_wallet {
        write!(line, " customerWallet={customer}").ok();
    }
    if let Some(charge) = &event.charge {
        if let Some(index) = charge.period_index {
            write!(line, " periodIndex={index}").ok();
        }
        amount_field(line, "grossUsd", charge.gross());
        amount_field(line, "feeUsd", charge.fee());
        amount_field(line, "netUsd", charge.net());
        if let Some(hash) = &charge.transaction_hash {
            write!(line, " transactionHash={hash}").ok();
        }
        if let Some(reason) = &charge.failure_reason {
            write!(line, " failureReason={reason:?}").ok();
        }
    }
    if let Some(upcoming) = &event.upcoming_charge {
        upcoming_fields(line, upcoming);
    }
    if let Some(reason) = &event.cancel_reason {
        write!(line, " cancelReason={reason:?}").ok();
    }
}

#[cfg(test)]
mod tests {
    use webhook_verify::Webhook;

    use super::summary;

    fn line(delivery: &str, body: &str) -> String {
        summary(delivery, &Webhook::parse(body.as_bytes()).unwrap())
    }

    #[test]
    fn a_receipt_summary_shows_amounts_in_cents_and_quotes_the_failure_reason() {
        let printed = line(
            "d-1",
            r#"{"event":"receipt.status_updated","receiptId":"R-2","status":"failed","totalUsd":7635.8,
                "failureCode":"PORTAL_PAY_INSUFFICIENT_FUNDS","failureReason":"Not enough\nUSDC"}"#,
        );

        assert_eq!(
            printed,
            "d-1  receipt.status_updated  receiptId=R-2 status=failed totalUsd=7635.80 \
             failureCode=PORTAL_PAY_INSUFFICIENT_FUNDS failureReason=\"Not enough\\nUSDC\""
        );
    }

    #[test]
    fn a_charge_failed_summary_shows_the_charge_and_its_reason() {
        let printed = line(
            "d-2",
            r#"{"event":"subscription.charge_failed","subscriptionId":"csub_1","status":"past_due",
                "previousStatus":"active","planId":"plan_1","period":"WEEKLY","priceUsd":9.99,"priceBaseUnits":"9990000",
                "charge":{"periodIndex":1,"grossUsd":9.99,"grossBaseUnits":"9990000","transactionHash":null,
                "failureReason":"allowance exhausted"},"cancelReason":null}"#,
        );

        assert_eq!(
            printed,
            "d-2  subscription.charge_failed  subscriptionId=csub_1 status=past_due previousStatus=active \
             planId=plan_1 priceUsd=9.99 period=WEEKLY periodIndex=1 grossUsd=9.99 \
             failureReason=\"allowance exhausted\""
        );
    }

    #[test]
    fn a_charge_upcoming_summary_shows_when_how_much_and_whether_it_would_go_through() {
        let printed = line(
            "d-3",
            r#"{"event":"subscription.charge_upcoming","subscriptionId":"csub_1","status":"trialing",
                "previousStatus":"trialing","upcomingCharge":{"periodIndex":0,"chargeAt":1767859191000,
                "amountUsd":9.99,"amountBaseUnits":"9990000","balanceSufficient":false,"allowanceSufficient":true}}"#,
        );

        assert_eq!(
            printed,
            "d-3  subscription.charge_upcoming  subscriptionId=csub_1 status=trialing previousStatus=trialing \
             periodIndex=0 chargeAt=1767859191000 amountUsd=9.99 balanceSufficient=false allowanceSufficient=true"
        );
    }

    #[test]
    fn an_unknown_event_in_a_test_envelope_is_named_and_marked() {
        let printed = line(
            "msg_1",
            r#"{"id":"msg_1","type":"receipt.underpaid","createdAt":1,"test":true,"data":{"receiptId":"R-1"}}"#,
        );

        assert_eq!(
            printed,
            "msg_1  receipt.underpaid  (not handled by this version) (test event)"
        );
    }
}
