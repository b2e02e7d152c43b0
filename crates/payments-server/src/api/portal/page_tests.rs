use payments_core::{Cents, Failure, FailureCategory, PaymentRequest, ReceiptStatus, Wallet};

use super::{render_not_found, render_page};
use crate::api::portal::view::{PaymentWindowState, PortalLine, PortalView};

const TOKEN: &str = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const RECIPIENT: &str = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23";

fn view(status: ReceiptStatus) -> PortalView {
    let token = Wallet::parse(TOKEN).unwrap();
    let recipient = Wallet::parse(RECIPIENT).unwrap();
    PortalView {
        receipt_id: "order-42".to_owned(),
        brand_name: "Corner Café".to_owned(),
        status,
        lines: vec![
            PortalLine {
                label: "Espresso beans 1kg".to_owned(),
                qty: Some(2),
                price: Cents::new(3_800),
            },
            PortalLine {
                label: "Gift wrap".to_owned(),
                qty: None,
                price: Cents::new(250),
            },
        ],
        tax: Cents::new(330),
        fee: Cents::new(88),
        total: Cents::new(4_468),
        payment: Some(PaymentRequest::for_total(token, 8453, recipient, Cents::new(4_468)).unwrap()),
        failure: None,
        transaction_hash: None,
        merchant: recipient,
        test_mode: false,
        wallet_checkout: true,
        redirect_url: None,
        card_onramp: None,
        window: PaymentWindowState::NotApplicable,
        underpaid: None,
    }
}

#[test]
fn a_script_in_a_label_or_brand_is_shown_as_text() {
    let mut view = view(ReceiptStatus::Pending);
    view.lines[0].label = "<script>alert(1)</script>".to_owned();
    view.brand_name = "\"><img src=x onerror=alert(1)>".to_owned();
    let html = render_page(&view);
    assert!(!html.contains("<script>"), "{html}");
    assert!(!html.contains("<img"), "{html}");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"));
}

#[test]
fn an_unpaid_receipt_shows_amounts_in_base_units_and_usd_and_the_payment_uri() {
    let html = render_page(&view(ReceiptStatus::LinkOpened));
    assert!(
        html.contains("<code>44680000</code> base units (6 decimals) = $44.68"),
        "{html}"
    );
    assert!(html.contains("<p class=\"amount\">44.68 USDC</p>"));
    assert!(html.contains("Base (chain id 8453)"));
    assert!(html.contains(RECIPIENT));
    assert!(html.contains(
        "href=\"ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=\
         0x2c7536E3605D9C16a7a3D7b1898e529396a65c23&amp;uint256=44680000\""
    ));
}

#[test]
fn an_unpaid_receipt_has_a_qr_code_and_its_lines() {
    let html = render_page(&view(ReceiptStatus::LinkOpened));
    assert!(html.contains("<div class=\"qr\"><svg role=\"img\""), "{html}");
    assert!(html.contains("<td class=\"label\">Espresso beans 1kg</td><td class=\"num qty\">2</td>"));
    assert!(html.contains("<td class=\"num\">$38.00</td>"));
    assert!(html.contains("<th scope=\"row\" colspan=\"2\">Tax</th><td class=\"num\">$3.30</td>"));
    assert!(html.contains("<th scope=\"row\" colspan=\"2\">Processing fee</th><td class=\"num\">$0.88</td>"));
    assert!(html.contains("<th scope=\"row\" colspan=\"2\">Total</th><td class=\"num\">$44.68</td>"));
    assert!(html.contains("Awaiting payment"));
    assert!(html.contains("<meta name=\"viewport\""));
}

#[test]
fn a_paid_receipt_shows_paid_and_no_instructions() {
    let mut view = view(ReceiptStatus::Paid);
    view.transaction_hash = Some(format!("0x{}", "ab".repeat(32)));
    let html = render_page(&view);
    assert!(html.contains("<h2 id=\"pay-heading\">Paid</h2>"), "{html}");
    assert!(html.contains(&"ab".repeat(32)));
    assert!(!html.contains("ethereum:"));
    assert!(!html.contains("<svg"));
}

#[test]
fn a_failed_receipt_shows_reason_and_action_then_how_to_pay_again() {
    let mut view = view(ReceiptStatus::Failed);
    view.failure = Some(
        Failure::new(
            "PORTAL_PAY_INSUFFICIENT_FUNDS".to_owned(),
            FailureCategory::CardDecline,
            "The card has <insufficient> funds".to_owned(),
            "Use another card".to_owned(),
        )
        .unwrap(),
    );
    let html = render_page(&view);
    assert!(html.contains("Payment failed"));
    assert!(html.contains("The card has &lt;insufficient&gt; funds"), "{html}");
    assert!(html.contains("<strong>What to do:</strong> Use another card"));
    assert!(html.contains("PORTAL_PAY_INSUFFICIENT_FUNDS"));
    assert!(html.contains("ethereum:"));
}

#[test]
fn a_receipt_without_a_split_address_says_it_cannot_be_paid_yet() {
    let mut view = view(ReceiptStatus::LinkOpened);
    view.payment = None;
    let html = render_page(&view);
    assert!(html.contains("cannot be paid yet"));
    assert!(!html.contains("ethereum:"));
}

#[test]
fn the_not_found_page_uses_the_same_document() {
    let html = render_not_found();
    assert!(html.starts_with("<!doctype html>"));
    assert!(html.contains("Payment link not found"));
    assert!(html.contains("<style>"));
}

#[test]
fn a_merchant_without_a_brand_gets_a_neutral_heading() {
    let mut view = view(ReceiptStatus::Pending);
    view.brand_name = "  ".to_owned();
    let html = render_page(&view);
    assert!(html.contains("<p class=\"brand\">Payment request</p>"), "{html}");
}

#[test]
fn an_unopened_receipt_offers_a_button_that_posts_to_the_page_instead_of_instructions() {
    for status in [ReceiptStatus::Generated, ReceiptStatus::Pending] {
        let html = render_page(&view(status));

        assert!(
            html.contains(
                "<form method=\"post\"><button class=\"button\" type=\"submit\">Continue to payment</button></form>"
            ),
            "{html}"
        );
        assert!(!html.contains("ethereum:"), "{html}");
    }
}

#[test]
fn a_test_mode_page_says_so_and_offers_a_simulated_payment_while_unpaid() {
    let mut view = view(ReceiptStatus::LinkOpened);
    view.test_mode = true;
    let html = render_page(&view);
    assert!(html.contains("Test mode."), "{html}");
    assert!(
        html.contains(&format!(
            "action=\"order-42/simulate?merchant={}\"",
            RECIPIENT.to_lowercase()
        )),
        "{html}"
    );
    assert!(html.contains(">Simulate payment</button>"), "{html}");

    view.status = ReceiptStatus::Paid;
    let paid = render_page(&view);
    assert!(paid.contains("Test mode."), "{paid}");
    assert!(!paid.contains("Simulate payment"), "{paid}");
}

#[test]
fn a_live_page_has_no_test_banner_and_no_simulation() {
    let html = render_page(&view(ReceiptStatus::LinkOpened));
    assert!(!html.contains("Test mode."), "{html}");
    assert!(!html.contains("Simulate payment"), "{html}");
}

#[test]
fn an_unpaid_page_has_hidden_connect_and_pay_buttons_with_what_to_send() {
    let html = render_page(&view(ReceiptStatus::LinkOpened));
    assert!(
        html.contains(
            "<div id=\"wallet-checkout\" class=\"checkout\" hidden data-chain-id=\"8453\" data-chain-name=\"Base\" \
             data-token=\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\" \
             data-deposit=\"0x2c7536E3605D9C16a7a3D7b1898e529396a65c23\" data-amount=\"44680000\">"
        ),
        "{html}"
    );
    assert!(html.contains(">Connect wallet</button>"));
    assert!(html.contains("data-action=\"pay\" hidden>Pay 44.68 USDC</button>"));
    assert!(html.contains("data-copy=\"44.68\">Copy amount</button>"));
    assert!(html.contains("data-copy=\"0x2c7536E3605D9C16a7a3D7b1898e529396a65c23\">Copy address</button>"));
    assert!(html.contains("<script src=\"assets/checkout.js\" defer></script>"));
    assert!(html.contains(&format!(
        "data-status-url=\"order-42/status?merchant={}\"",
        RECIPIENT.to_lowercase()
    )));
}

#[test]
fn a_receipt_paid_to_a_split_directly_offers_no_wallet_checkout() {
    let mut view = view(ReceiptStatus::LinkOpened);
    view.wallet_checkout = false;
    let html = render_page(&view);
    assert!(!html.contains("wallet-checkout"), "{html}");
    assert!(html.contains("ethereum:"));
}

#[test]
fn refunded_receipts_say_refunded_not_paid() {
    let html = render_page(&view(ReceiptStatus::Refunded));
    assert!(html.contains("<h2 id=\"pay-heading\">Refunded</h2>"), "{html}");
    assert!(html.contains("Your payment of $44.68 was refunded."));
    let partial = render_page(&view(ReceiptStatus::RefundPartial));
    assert!(
        partial.contains("<h2 id=\"pay-heading\">Partially refunded</h2>"),
        "{partial}"
    );
}

#[test]
fn a_paid_receipt_with_a_redirect_url_offers_return_to_shop() {
    let mut view = view(ReceiptStatus::Paid);
    view.redirect_url = Some("https://shop.example/thanks?o=1&x=2".to_owned());
    let html = render_page(&view);
    assert!(
        html.contains("<a class=\"button\" href=\"https://shop.example/thanks?o=1&amp;x=2\" rel=\"noreferrer\">Return to shop</a>"),
        "{html}"
    );
    view.status = ReceiptStatus::LinkOpened;
    assert!(!render_page(&view).contains("Return to shop"));
}

#[test]
fn an_open_payment_window_shows_the_time_left_beside_the_instructions() {
    let mut open = view(ReceiptStatus::LinkOpened);
    open.window = PaymentWindowState::Open { minutes_left: 65 };

    let html = render_page(&open);

    assert!(
        html.contains("Time left to pay: <strong>1 hour 5 minutes</strong>"),
        "{html}"
    );
    assert!(
        html.contains("Send exactly"),
        "the instructions are still there: {html}"
    );
}

#[test]
fn an_ended_payment_window_says_expired_instead_of_payment_instructions() {
    let mut ended = view(ReceiptStatus::LinkOpened);
    ended.window = PaymentWindowState::Ended;

    let html = render_page(&ended);

    assert!(html.contains("Payment request expired"), "{html}");
    assert!(!html.contains("Send exactly"), "no instructions: {html}");
    assert!(!html.contains("ethereum:"), "no payment link or QR code: {html}");
}

#[test]
fn pay_with_card_is_offered_only_with_a_provider_and_only_while_unpaid() {
    let mut unpaid = view(ReceiptStatus::LinkOpened);
    let without = render_page(&unpaid);
    unpaid.card_onramp = Some(payments_core::OnrampProviderKind::Coinbase);
    let with = render_page(&unpaid);
    let mut paid = view(ReceiptStatus::Paid);
    paid.card_onramp = Some(payments_core::OnrampProviderKind::Coinbase);

    assert!(!without.contains("Pay with card"), "{without}");
    assert!(
        with.contains(&format!(
            "<form id=\"card-onramp\" class=\"checkout card-onramp\" method=\"post\" \
             action=\"order-42/onramp?merchant={}\">",
            Wallet::parse(RECIPIENT).unwrap()
        )),
        "{with}"
    );
    assert!(
        with.contains("Buy exactly 44.68 USDC with a card through Coinbase"),
        "{with}"
    );
    assert!(!render_page(&paid).contains("Pay with card"));
}

#[test]
fn an_underpaid_receipt_asks_for_exactly_the_remainder() {
    let mut view = view(ReceiptStatus::Underpaid);
    let received = payments_core::TokenAmount::from_base_units(40_000_000);
    let balance = payments_core::ReceiptBalance::of(Cents::new(4_468), received);
    view.underpaid = Some(balance);
    if let Some(payment) = view.payment.as_mut() {
        payment.amount = balance.due;
    }
    let html = render_page(&view);
    assert!(html.contains("Received so far: 40.00 USDC of $44.68"), "{html}");
    assert!(html.contains("<p class=\"amount\">4.68 USDC</p>"), "{html}");
    assert!(html.contains("<code>4680000</code> base units (6 decimals) = 4.68 USD still due"));
    assert!(
        html.contains("&amp;uint256=4680000\""),
        "the QR and link ask for the remainder: {html}"
    );
    assert!(html.contains("Partly paid"));
}
