//! The payment page and the not-found page, rendered as one HTML string each. Pure: view in, text out.

use std::fmt::{self, Display, Formatter};

use payments_core::{Cents, PaymentRequest};

use super::escape::Html;
use super::qr::qr_svg;
use super::style::CSS;
use super::view::{
    PaymentWindowState, PortalView, Stage, TOKEN_SYMBOL, chain_name, settled_message, status_label,
    time_left, usd,
};

/// The payment page of one receipt.
pub(crate) fn render_page(view: &PortalView) -> String {
    let title = format!("Pay {}", view.brand());
    Document {
        title: &title,
        body: &ReceiptBody(view),
        script: SCRIPT,
    }
    .to_string()
}

/// The page for a receipt id that does not exist (served with status 404).
pub(crate) fn render_not_found() -> String {
    Document {
        title: "Payment link not found",
        body: &NotFoundBody,
        script: "",
    }
    .to_string()
}

/// A page of the portal's family (the subscribe page too): the shared head and stylesheet, `body`, and
/// `script` (a script element or nothing).
pub(super) fn document(title: &str, body: &dyn Display, script: &str) -> String {
    Document { title, body, script }.to_string()
}

struct Document<'a> {
    title: &'a str,
    body: &'a dyn Display,
    /// The script element of a receipt's page; the not-found page runs nothing.
    script: &'a str,
}

/// The page's scripts (the shared wallet helpers first), relative to `/portal/{id}` (so they resolve under
/// whatever prefix serves the page).
const SCRIPT: &str =
    "<script src=\"assets/wallet.js\" defer></script>\n<script src=\"assets/checkout.js\" defer></script>\n";

impl Display for Document<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"referrer\" content=\"no-referrer\">\n<meta name=\"robots\" content=\"noindex\">\n\
             <title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n{}</main>\n{}</body>\n</html>\n",
            Html(self.title),
            self.body,
            self.script
        )
    }
}

struct NotFoundBody;

impl Display for NotFoundBody {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(
            "<section class=\"card\">\n<h1>Payment link not found</h1>\n\
             <p>There is no receipt at this address. Check the link you were given, or ask the merchant \
             for a new one.</p>\n</section>\n",
        )
    }
}

struct ReceiptBody<'a>(&'a PortalView);

impl Display for ReceiptBody<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let view = self.0;
        let (status, class) = status_label(view.status);
        write!(
            f,
            "<header class=\"card\">\n<div>\n<p class=\"brand\">{}</p>\n\
             <p class=\"receipt-id\">Receipt <code>{}</code></p>\n</div>\n\
             <p class=\"badge {class}\" role=\"status\">{}</p>\n</header>\n",
            Html(view.brand()),
            Html(&view.receipt_id),
            Html(status)
        )?;
        if view.test_mode {
            f.write_str(
                "<p class=\"notice warn test-mode\" role=\"note\"><strong>Test mode.</strong> This server runs a \
                 simulated chain: nothing sent here moves real money.</p>\n",
            )?;
        }
        write_summary(f, view)?;
        let stage = Stage::of(view.status);
        write_live_endpoints(f, view)?;
        f.write_str("<section class=\"card\" id=\"pay-section\" aria-labelledby=\"pay-heading\">\n")?;
        if view.window == PaymentWindowState::Ended {
            // Instead of instructions: nobody should pay a request the merchant no longer holds open.
            f.write_str(
                "<div class=\"notice bad expired\" role=\"alert\">\n<h2 id=\"pay-heading\">Payment request \
                 expired</h2>\n<p>The time to pay this receipt has ended. Ask the merchant for a new one; do not \
                 send a payment to it.</p>\n</div>\n</section>\n",
            )?;
            return write_footer(f, view);
        }
        write_stage_notice(f, view, stage)?;
        let before_payment = stage == Stage::Unopened || stage.shows_instructions();
        if let (PaymentWindowState::Open { minutes_left }, true) = (view.window, before_payment) {
            writeln!(
                f,
                "<p class=\"time-left\">Time left to pay: <strong>{}</strong></p>",
                time_left(minutes_left)
            )?;
        }
        if stage.shows_instructions() {
            write_instructions(f, view)?;
            if view.test_mode && view.payment.is_some() {
                write_simulate_button(f, view)?;
            }
        }
        f.write_str("</section>\n")?;
        write_footer(f, view)
    }
}

fn write_footer(f: &mut Formatter<'_>, view: &PortalView) -> fmt::Result {
    writeln!(
        f,
        "<footer>{} &middot; receipt {}</footer>",
        Html(view.brand()),
        Html(&view.receipt_id)
    )
}

fn write_summary(f: &mut Formatter<'_>, view: &PortalView) -> fmt::Result {
    f.write_str(
        "<section class=\"card\" aria-labelledby=\"summary-heading\">\n\
         <h1 id=\"summary-heading\">Order summary</h1>\n<table>\n\
         <thead><tr><th scope=\"col\">Item</th><th scope=\"col\" class=\"num\">Qty</th>\
         <th scope=\"col\" class=\"num\">Price</th></tr></thead>\n<tbody>\n",
    )?;
    for line in &view.lines {
        let qty = line.qty.map(|qty| qty.to_string()).unwrap_or_default();
        writeln!(
            f,
            "<tr><td class=\"label\">{}</td><td class=\"num qty\">{qty}</td><td class=\"num\">{}</td></tr>",
            Html(&line.label),
            usd(line.price)
        )?;
    }
    f.write_str("</tbody>\n<tfoot>\n")?;
    write_total_row(f, "Tax", view.tax, "")?;
    write_total_row(f, "Processing fee", view.fee, "")?;
    write_total_row(f, "Total", view.total, " class=\"total\"")?;
    f.write_str("</tfoot>\n</table>\n</section>\n")
}

fn write_total_row(f: &mut Formatter<'_>, label: &str, amount: Cents, class: &str) -> fmt::Result {
    writeln!(
        f,
        "<tr{class}><th scope=\"row\" colspan=\"2\">{label}</th><td class=\"num\">{}</td></tr>",
        usd(amount)
    )
}

fn write_stage_notice(f: &mut Formatter<'_>, view: &PortalView, stage: Stage) -> fmt::Result {
    match stage {
        Stage::Settled => {
            let (label, tone) = status_label(view.status);
            write!(
                f,
                "<div class=\"notice {tone}\">\n<h2 id=\"pay-heading\">{}</h2>\n<p>{}</p>\n",
                Html(label),
                Html(&settled_message(view.status, view.total))
            )?;
            if let Some(hash) = &view.transaction_hash {
                writeln!(f, "<p>Transaction <code>{}</code></p>", Html(hash))?;
            }
            f.write_str("</div>\n")?;
            match &view.redirect_url {
                Some(url) => writeln!(
                    f,
                    "<a class=\"button\" href=\"{}\" rel=\"noreferrer\">Return to shop</a>",
                    Html(url)
                ),
                None => Ok(()),
            }
        }
        Stage::Confirming => f.write_str(
            "<div class=\"notice info\">\n<h2 id=\"pay-heading\">Payment submitted</h2>\n\
             <p>Your payment is being confirmed on chain. There is no need to pay again; \
             reload this page in a minute.</p>\n</div>\n",
        ),
        Stage::Mismatch => f.write_str(
            "<div class=\"notice warn\" role=\"alert\">\n<h2>Payment did not match</h2>\n\
             <p>A transaction was seen that does not match this receipt (token, network, recipient or \
             amount). Send the exact amount below, or contact the merchant.</p>\n</div>\n",
        ),
        Stage::Failed => {
            f.write_str("<div class=\"notice bad\" role=\"alert\">\n<h2>Payment failed</h2>\n")?;
            if let Some(failure) = &view.failure {
                write!(
                    f,
                    "<p>{}</p>\n<p><strong>What to do:</strong> {}</p>\n<p><code>{}</code></p>\n",
                    Html(&failure.failure_reason),
                    Html(&failure.failure_action),
                    Html(&failure.failure_code)
                )?;
            }
            f.write_str("</div>\n")
        }
        // No `action`: the form posts to the page's own address (whatever prefix serves it).
        Stage::Unopened => f.write_str(
            "<h2 id=\"pay-heading\">Ready to pay?</h2>\n\
             <p>Continue to see the amount, the address and a QR code for your wallet. The merchant is told \
             that you opened the payment page.</p>\n\
             <form method=\"post\"><button class=\"button\" type=\"submit\">Continue to payment</button></form>\n",
        ),
        Stage::AwaitingPayment => Ok(()),
    }
}

/// Where the script reads the receipt's status and posts the buyer's actions (relative to the page, with the
/// payment link's `merchant`). Hidden: it is data, not content.
fn write_live_endpoints(f: &mut Formatter<'_>, view: &PortalView) -> fmt::Result {
    let base = format!("{}/", view.receipt_id);
    let query = format!("?merchant={}", view.merchant);
    writeln!(
        f,
        "<div id=\"portal-live\" hidden data-status-url=\"{0}status{1}\" data-events-url=\"{0}events{1}\" \
         data-payment-url=\"{0}payment{1}\"></div>",
        Html(&base),
        Html(&query)
    )
}

fn write_instructions(f: &mut Formatter<'_>, view: &PortalView) -> fmt::Result {
    let total = view.total;
    f.write_str("<h2 id=\"pay-heading\">How to pay</h2>\n")?;
    let Some(payment) = view.payment.as_ref() else {
        return f.write_str(
            "<p>This receipt cannot be paid yet: the merchant has not set up a payout address. \
             Please contact the merchant.</p>\n",
        );
    };
    let uri = payment.eip681_uri();
    let chain = chain_name(payment.chain_id);
    let units = payment.amount;
    let token = payment.token.to_checksum();
    let recipient = payment.recipient.to_checksum();
    if let Some(balance) = view.underpaid {
        // Only what is missing: the buyer must not send the whole total again.
        writeln!(
            f,
            "<p class=\"notice warn underpaid\" role=\"status\">Received so far: {} {TOKEN_SYMBOL} of {}. \
             Send the remaining amount below to complete the payment.</p>",
            TokenDecimal(balance.received.base_units()),
            usd(total),
        )?;
    }
    let amount_usd = match view.underpaid {
        Some(_) => format!("{} USD still due", TokenDecimal(units.base_units())),
        None => usd(total),
    };
    write!(
        f,
        "<p class=\"amount\">{} {TOKEN_SYMBOL}</p>\n<p class=\"amount-usd\">{} on {}</p>\n",
        TokenDecimal(units.base_units()),
        Html(&amount_usd),
        Html(&chain)
    )?;
    if view.wallet_checkout {
        write_wallet_checkout(f, payment, &chain)?;
    }
    if let Some(provider) = view.card_onramp {
        super::card::write_card_button(f, view, provider, &TokenDecimal(units.base_units()).to_string())?;
    }
    if let Some(svg) = qr_svg(&uri, "QR code of the payment request; scan it with your wallet") {
        writeln!(f, "<div class=\"qr\">{svg}</div>")?;
    }
    write!(
        f,
        "<a class=\"button\" href=\"{}\">Pay with a wallet app</a>\n<dl>\n\
         <dt>Token</dt><dd>{TOKEN_SYMBOL} <code>{}</code></dd>\n\
         <dt>Network</dt><dd>{} (chain id {})</dd>\n\
         <dt>Amount</dt><dd><code>{units}</code> base units (6 decimals) = {}{}</dd>\n\
         <dt>Recipient</dt><dd><code>{}</code>{}</dd>\n</dl>\n\
         <p class=\"uri\">Payment request: <a href=\"{0}\"><code>{0}</code></a></p>\n\
         <p class=\"note\">Send exactly this amount of {TOKEN_SYMBOL} on {2}. Another token, network or \
         amount will not settle this receipt.</p>\n",
        Html(&uri),
        Html(&token),
        Html(&chain),
        payment.chain_id,
        Html(&amount_usd),
        CopyButton(&TokenDecimal(units.base_units()).to_string(), "Copy amount"),
        Html(&recipient),
        CopyButton(&recipient, "Copy address"),
    )
}

/// Connect wallet / Pay, hidden until the script shows them (without JavaScript they would do nothing). The
/// script reads what to send from the data attributes; nothing else on the page is executable.
fn write_wallet_checkout(f: &mut Formatter<'_>, payment: &PaymentRequest, chain: &str) -> fmt::Result {
    let amount = TokenDecimal(payment.amount.base_units());
    write!(
        f,
        "<div id=\"wallet-checkout\" class=\"checkout\" hidden data-chain-id=\"{}\" data-chain-name=\"{}\" \
         data-token=\"{}\" data-deposit=\"{}\" data-amount=\"{}\">\n\
         <p class=\"checkout-account\"></p>\n<ul class=\"wallet-list\" hidden></ul>\n\
         <button type=\"button\" class=\"button\" data-action=\"connect\">Connect wallet</button>\n\
         <button type=\"button\" class=\"button\" data-action=\"pay\" hidden>Pay {amount} {TOKEN_SYMBOL}</button>\n\
         <p class=\"checkout-message\" role=\"status\" aria-live=\"polite\"></p>\n</div>\n",
        payment.chain_id,
        Html(chain),
        payment.token.to_checksum(),
        payment.recipient.to_checksum(),
        payment.amount.base_units(),
    )
}

/// A button that copies `value`; hidden until the script enables it.
struct CopyButton<'a>(&'a str, &'a str);

impl Display for CopyButton<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            " <button type=\"button\" class=\"copy\" hidden data-copy=\"{}\">{}</button>",
            Html(self.0),
            Html(self.1)
        )
    }
}

/// Test mode: a button that pays the receipt on the simulated chain, through the same detection path as a real
/// transfer. The relative action resolves under whatever prefix serves `/portal/{id}`.
fn write_simulate_button(f: &mut Formatter<'_>, view: &PortalView) -> fmt::Result {
    writeln!(
        f,
        "<form method=\"post\" action=\"{}/simulate?merchant={}\">\
         <button class=\"button\" type=\"submit\">Simulate payment</button></form>",
        Html(&view.receipt_id),
        view.merchant
    )
}

/// Token base units (6 decimals) as a decimal number with trailing zeros trimmed to cents: `12.65`.
struct TokenDecimal(u128);

impl Display for TokenDecimal {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 1_000_000;
        let fraction = format!("{:06}", self.0 % 1_000_000);
        let fraction = fraction.trim_end_matches('0');
        let fraction = if fraction.len() < 2 {
            format!("{fraction:0<2}")
        } else {
            fraction.to_owned()
        };
        write!(f, "{whole}.{fraction}")
    }
}

#[cfg(test)]
#[path = "page_tests.rs"]
mod tests;
