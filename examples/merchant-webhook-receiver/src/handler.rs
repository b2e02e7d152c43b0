//! What the worker does with each verified event: here, one line per event. A real backend ships the order,
//! extends the subscription, or records the failure; this is where that code goes.

use webhook_verify::{Event, SubscriptionEvent, Webhook};

/// The lines to print for one verified webhook. Every event type gets at least one line: the service adds
/// event types over time, and an unknown one is named rather than dropped.
pub(crate) fn describe(webhook: &Webhook) -> Vec<String> {
    let prefix = if webhook.is_test() { "[test] " } else { "" };
    let mut lines = Vec::new();
    match webhook.event() {
        Event::ReceiptStatusUpdated(receipt) => {
            let previous = receipt
                .previous_status
                .as_ref()
                .map_or("?", |status| status.as_str());
            lines.push(format!(
                "{prefix}receipt {} is now {} (was {previous})",
                receipt.receipt_id, receipt.status
            ));
            if let Some(reason) = &receipt.failure_reason {
                lines.push(format!("  failure: {reason}"));
            }
        }
        event => match event.subscription() {
            Some(subscription) => subscription_lines(prefix, event, subscription, &mut lines),
            None => lines.push(format!(
                "{prefix}event {} is not handled by this receiver",
                event.event_type()
            )),
        },
    }
    lines
}

fn subscription_lines(
    prefix: &str,
    event: &Event,
    subscription: &SubscriptionEvent,
    lines: &mut Vec<String>,
) {
    lines.push(format!(
        "{prefix}subscription {} is now {} ({})",
        subscription.subscription_id,
        subscription.status,
        event.event_type()
    ));
    let charge = subscription.charge.as_ref();
    match event {
        Event::SubscriptionCharged(_) => {
            // The exact text from the base units, never through a float.
            let gross = charge.and_then(|charge| charge.gross()?.usd_text());
            let period = charge.and_then(|charge| charge.period_index);
            if let (Some(gross), Some(period)) = (gross, period) {
                lines.push(format!("  charged {gross} USD for period {period}"));
            }
        }
        Event::SubscriptionChargeUpcoming(_) => {
            if let Some(upcoming) = &subscription.upcoming_charge {
                let usd = upcoming
                    .amount()
                    .and_then(|amount| amount.usd_text())
                    .unwrap_or_else(|| "?".to_owned());
                let ready =
                    upcoming.balance_sufficient == Some(true) && upcoming.allowance_sufficient == Some(true);
                let warning = if ready {
                    ""
                } else {
                    " (warn the customer: it would fail now)"
                };
                lines.push(format!("  {usd} USD due soon{warning}"));
            }
        }
        Event::SubscriptionChargeFailed(_) => {
            if let Some(reason) = charge.and_then(|charge| charge.failure_reason.as_ref()) {
                lines.push(format!("  charge failed: {reason}"));
            }
        }
        Event::SubscriptionCanceled(_) => {
            if let Some(reason) = &subscription.cancel_reason {
                lines.push(format!("  canceled: {reason}"));
            }
        }
        Event::SubscriptionUpdated(_) => {
            if let Some(change) = &subscription.plan_change {
                let from = change.previous_plan_id.as_deref().unwrap_or("?");
                let kind = change.proration.as_deref().unwrap_or("none");
                let units = change.proration_base_units.as_deref().unwrap_or("0");
                lines.push(format!(
                    "  plan changed from {from}: {kind} of {units} base units"
                ));
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use webhook_verify::Webhook;

    use super::describe;

    fn lines(body: &str) -> Vec<String> {
        describe(&Webhook::parse(body.as_bytes()).unwrap())
    }

    #[test]
    fn a_failed_receipt_gets_its_status_and_failure_reason() {
        assert_eq!(
            lines(
                r#"{"event":"receipt.status_updated","receiptId":"R-1","status":"failed","previousStatus":"pending",
                    "failureReason":"insufficient funds"}"#
            ),
            [
                "receipt R-1 is now failed (was pending)",
                "  failure: insufficient funds"
            ]
        );
    }

    #[test]
    fn a_charged_subscription_gets_its_amount_and_period() {
        assert_eq!(
            lines(
                r#"{"event":"subscription.charged","subscriptionId":"csub_1","status":"active",
                    "charge":{"periodIndex":2,"grossUsd":9.99,"grossBaseUnits":"9990000"}}"#
            ),
            [
                "subscription csub_1 is now active (subscription.charged)",
                "  charged 9.99 USD for period 2"
            ]
        );
    }

    #[test]
    fn an_unknown_test_event_is_named_and_marked() {
        assert_eq!(
            lines(r#"{"id":"msg_1","type":"receipt.overpaid","createdAt":1,"test":true,"data":{}}"#),
            ["[test] event receipt.overpaid is not handled by this receiver"]
        );
    }
}
