//! The test-mode chain's "Simulate payment": `POST /portal/{id}/simulate`, the button of the payment page
//! of a server without a chain node. Development and tests only: a server on a real chain has no such
//! thing, and money never moves through it.

use url::Url;

use crate::client::Client;
use crate::error::Error;
use crate::receipt::Receipt;

/// What the server did with a simulated payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SimulatedPayment {
    /// The test-mode chain transferred the receipt's amount to its deposit address (or the receipt was
    /// already paid, and nothing was sent again); detection then makes it `paid`, as for a real transfer.
    Sent,
    /// The server has no test-mode chain (it runs on a real chain), or the receipt has no payment
    /// instruction: nothing was sent.
    Unavailable,
}

impl Client {
    /// Pays `receipt` on the server's test-mode chain, as the payment page's "Simulate payment" button does
    /// (no key needed: the payment link is the capability). Returns at once; the receipt becomes `paid` when
    /// the server's watcher sees the transfer (poll [`Client::get_receipt`]).
    ///
    /// # Errors
    /// [`Error::Transport`] when the server cannot be reached; [`Error::Protocol`] for an unexpected answer.
    pub async fn simulate_payment(&self, receipt: &Receipt) -> Result<SimulatedPayment, Error> {
        let mut url = self.url("portal")?;
        url.path_segments_mut()
            .map_err(|()| Error::Config("the base URL cannot take a path".to_owned()))?
            .push(&receipt.receipt_id)
            .push("simulate");
        // The payment link names the merchant; the page's button posts with the same query.
        if let Some(merchant) = receipt
            .payment_url
            .as_deref()
            .and_then(|link| Url::parse(link).ok())
            .and_then(|link| {
                link.query_pairs()
                    .find(|(name, _)| name == "merchant")
                    .map(|(_, value)| value.into_owned())
            })
        {
            url.query_pairs_mut().append_pair("merchant", &merchant);
        }
        let response = self.http().post(url).send().await?;
        let status = response.status();
        if status.is_success() || status.is_redirection() {
            Ok(SimulatedPayment::Sent)
        } else if status == reqwest::StatusCode::NOT_FOUND {
            Ok(SimulatedPayment::Unavailable)
        } else {
            Err(Error::Protocol {
                status: status.as_u16(),
                message: "the payment page did not accept the simulated payment".to_owned(),
                correlation_id: response
                    .headers()
                    .get("x-correlation-id")
                    .and_then(|value| value.to_str().ok())
                    .map(str::to_owned),
            })
        }
    }
}
