//! The hosted subscribe page (`GET /subscribe/{planId}`): the merchant's brand, the plan's name, price and
//! period, and (with the page's script, `subscribe.js`) Connect wallet, Subscribe and Cancel. Same stylesheet,
//! headers and Content-Security-Policy as the payment page; pure: view in, text out.

use std::fmt::{self, Display, Formatter};

use payments_core::{BillingPeriod, Cents};

use super::escape::Html;
use super::page::document;
use super::view::{TOKEN_SYMBOL, chain_name, usd};

/// Everything the subscribe page shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SubscribeView {
    pub(crate) plan_id: String,
    pub(crate) brand_name: String,
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) price: Cents,
    pub(crate) period: BillingPeriod,
    /// A deactivated plan takes no new subscribers.
    pub(crate) active: bool,
    /// The chain the permission is signed for.
    pub(crate) chain_id: u64,
    /// The server runs the test-mode chain (a banner says so).
    pub(crate) test_mode: bool,
}

/// The page's scripts, relative to `/subscribe/{planId}`: the wallet helpers shared with the payment page,
/// then its own.
const SCRIPT: &str = "<script src=\"../portal/assets/wallet.js\" defer></script>\n\
                      <script src=\"assets/subscribe.js\" defer></script>\n";

/// The subscribe page of one plan.
pub(crate) fn render_subscribe_page(view: &SubscribeView) -> String {
    let title = format!("Subscribe to {}", view.name);
    document(
        &title,
        &SubscribeBody(view),
        if view.active { SCRIPT } else { "" },
    )
}

/// The page for a plan id that does not exist (served with status 404).
pub(crate) fn render_plan_not_found() -> String {
    document("Plan not found", &PlanNotFound, "")
}

struct PlanNotFound;

impl Display for PlanNotFound {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(
            "<section class=\"card\">\n<h1>Plan not found</h1>\n<p>There is no subscription plan at this \
             address. Check the link you were given, or ask the merchant for a new one.</p>\n</section>\n",
        )
    }
}

/// "week", "2 weeks", "30 days", ...: how the price recurs, in words (periods are fixed lengths in days).
fn every(period: BillingPeriod) -> String {
    match period.seconds() / 86_400 {
        7 => "week".to_owned(),
        14 => "2 weeks".to_owned(),
        days => format!("{days} days"),
    }
}

struct SubscribeBody<'a>(&'a SubscribeView);

impl Display for SubscribeBody<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let view = self.0;
        let brand = match view.brand_name.trim() {
            "" => "Subscription",
            brand => brand,
        };
        let (badge, class) = if view.active {
            ("Subscription", "info")
        } else {
            ("Closed", "neutral")
        };
        write!(
            f,
            "<header class=\"card\">\n<div>\n<p class=\"brand\">{}</p>\n\
             <p class=\"receipt-id\">Plan <code>{}</code></p>\n</div>\n\
             <p class=\"badge {class}\" role=\"status\">{badge}</p>\n</header>\n",
            Html(brand),
            Html(&view.plan_id),
        )?;
        if view.test_mode {
            f.write_str(
                "<p class=\"notice warn test-mode\" role=\"note\"><strong>Test mode.</strong> This server runs a \
                 simulated chain: nothing signed here moves real money.</p>\n",
            )?;
        }
        let price = usd(view.price);
        let every = every(view.period);
        write!(
            f,
            "<section class=\"card\" aria-labelledby=\"plan-heading\">\n<h1 id=\"plan-heading\">{}</h1>\n",
            Html(&view.name)
        )?;
        if !view.description.trim().is_empty() {
            writeln!(f, "<p>{}</p>", Html(&view.description))?;
        }
        write!(
            f,
            "<p class=\"amount\">{price} <span class=\"amount-usd\">{TOKEN_SYMBOL} every {every}</span></p>\n\
             <p class=\"note\">Charged from your wallet on {} when you subscribe, then every {every} until you \
             cancel. You sign a spend permission that allows at most {price} per {every}.</p>\n</section>\n",
            Html(&chain_name(view.chain_id)),
        )?;
        if !view.active {
            return f.write_str(
                "<section class=\"card\">\n<p>This plan no longer takes new subscribers.</p>\n</section>\n",
            );
        }
        write!(
            f,
            "<section class=\"card\" id=\"subscribe-section\" aria-label=\"Subscribe\">\n\
             <noscript><p>Subscribing signs a permission with your browser wallet: open this page with \
             JavaScript on, in a browser with a wallet.</p></noscript>\n\
             <div id=\"subscribe\" class=\"checkout\" hidden data-plan-id=\"{}\" data-chain-id=\"{}\" \
             data-chain-name=\"{}\" data-permission-url=\"../api/subscriptions/plans/{}/permission\" \
             data-create-url=\"../api/subscriptions/create\" data-status-url=\"../api/subscriptions/status\" \
             data-cancel-url=\"../api/subscriptions/cancel\">\n\
             <p class=\"checkout-account\"></p>\n<ul class=\"wallet-list\" hidden></ul>\n\
             <div class=\"notice good\" id=\"subscription-state\" hidden></div>\n\
             <button type=\"button\" class=\"button\" data-action=\"connect\">Connect wallet</button>\n\
             <button type=\"button\" class=\"button\" data-action=\"subscribe\" hidden>Subscribe for {price} every {every}</button>\n\
             <button type=\"button\" class=\"button secondary\" data-action=\"cancel\" hidden>Cancel subscription</button>\n\
             <p class=\"checkout-message\" role=\"status\" aria-live=\"polite\"></p>\n</div>\n</section>\n",
            Html(&view.plan_id),
            view.chain_id,
            Html(&chain_name(view.chain_id)),
            Html(&view.plan_id),
        )?;
        writeln!(
            f,
            "<footer>{} &middot; plan {}</footer>",
            Html(brand),
            Html(&view.plan_id)
        )
    }
}

#[cfg(test)]
mod tests;
