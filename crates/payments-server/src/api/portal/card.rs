//! The card path on the payment page: the "Pay with card" form, and the two small pages a browser without
//! JavaScript gets after posting it. The page's CSP allows forms to post only to its own origin
//! (`form-action 'self'`), which browsers also apply to a redirect answering the post, so the server does
//! not 303 to the provider: the script navigates there itself, and without a script the buyer follows a
//! plain link (docs/payment-page.md).

use std::fmt::{self, Display, Formatter};

use payments_core::OnrampProviderKind;

use super::escape::Html;
use super::page::document;
use super::view::{PortalView, TOKEN_SYMBOL};

/// "Pay with card": a form posting to `/portal/{id}/onramp` (relative, so it resolves under whatever prefix
/// serves the page); the script takes it over to show errors in place.
pub(super) fn write_card_button(
    f: &mut Formatter<'_>,
    view: &PortalView,
    provider: OnrampProviderKind,
    amount: &str,
) -> fmt::Result {
    write!(
        f,
        "<form id=\"card-onramp\" class=\"checkout card-onramp\" method=\"post\" action=\"{}/onramp?merchant={}\">\n\
         <button class=\"button\" type=\"submit\">Pay with card</button>\n\
         <p class=\"note\">Buy exactly {amount} {TOKEN_SYMBOL} with a card through {}: it is delivered to this \
         receipt's address, and this page shows Paid when it arrives.</p>\n\
         <p class=\"checkout-message\" role=\"status\" aria-live=\"polite\"></p>\n</form>\n",
        Html(&view.receipt_id),
        view.merchant,
        Html(provider.display_name()),
    )
}

/// Without JavaScript: the session is ready, continue to the provider.
pub(crate) fn render_card_handoff(provider: OnrampProviderKind, url: &str, back: &str) -> String {
    let body = Card {
        heading: "Continue to pay by card",
        text: &format!(
            "Your card payment is ready at {}. Once the purchase completes, the tokens arrive at this receipt's \
             address and its payment page shows Paid.",
            provider.display_name()
        ),
        link: Some((url, &format!("Continue to {}", provider.display_name()))),
        back,
    };
    document("Pay by card", &body, "")
}

/// Without JavaScript: why no card payment could start, and the way back to the page.
pub(crate) fn render_card_refused(message: &str, back: &str) -> String {
    let body = Card {
        heading: "Card payment not available",
        text: message,
        link: None,
        back,
    };
    document("Card payment not available", &body, "")
}

struct Card<'a> {
    heading: &'a str,
    text: &'a str,
    /// The provider's page and the link's text.
    link: Option<(&'a str, &'a str)>,
    /// The payment page (relative to the post's URL).
    back: &'a str,
}

impl Display for Card<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "<section class=\"card\">\n<h1>{}</h1>\n<p>{}</p>\n",
            Html(self.heading),
            Html(self.text)
        )?;
        if let Some((url, label)) = self.link {
            writeln!(
                f,
                "<a class=\"button\" href=\"{}\" rel=\"noreferrer\">{}</a>",
                Html(url),
                Html(label)
            )?;
        }
        writeln!(
            f,
            "<p><a href=\"{}\">Back to the payment page</a></p>\n</section>",
            Html(self.back)
        )
    }
}
