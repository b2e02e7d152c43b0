//! `POST /api/receipts`: a caller-assigned id and lines; starts `pending`. The creating API key is sealed with
//! the master key and stored with the receipt: it signs the receipt's webhooks, whichever process delivers them.

use std::fmt::Write as _;

use payments_core::{Cents, Wallet};
use url::{Position, Url, form_urlencoded};

use crate::domain::receipt::{
    NewReceipt, OrderError, ReceiptAmounts, ReceiptDraft, ReceiptError, ReceiptId, ReceiptSource, ReceiptTax,
};
use crate::domain::subscription::Caller;
use crate::secret::Secret;
use crate::services::idempotency::Outcome;
use crate::services::receipts::service::{IdempotencyRequest, ReceiptService, brand_name_of, sale_error};
use crate::store::{Sale, SalePlan, SaleTx};

/// `{base_url}/portal/{id}?recipient=<address>&merchant=<wallet>[&redirect_url=<url>]`: receipt ids are
/// unique per merchant, so `merchant` makes the link name exactly one receipt (docs/receipts.md).
pub(crate) fn payment_url(
    base_url: &Url,
    id: &ReceiptId,
    recipient: Wallet,
    merchant: Wallet,
    redirect_url: Option<&str>,
) -> String {
    // Written as text rather than through `Url` (`set_path`, `query_pairs_mut`), which parsed the whole link
    // again for every receipt answered (about 8,000 instructions per read): ids are `[A-Za-z0-9._-]` and
    // wallets hex, so only the redirect needs escaping, with the same form encoding `query_pairs_mut` uses.
    let base = base_url[..Position::AfterPath].trim_end_matches('/');
    let mut link = String::with_capacity(base.len() + 160);
    link.push_str(base);
    link.push_str("/portal/");
    link.push_str(id.as_str());
    let _ = write!(link, "?recipient={recipient}&merchant={merchant}");
    if let Some(redirect_url) = redirect_url {
        link.push_str("&redirect_url=");
        link.extend(form_urlencoded::byte_serialize(redirect_url.as_bytes()));
    }
    if let Some(fragment) = base_url.fragment() {
        link.push('#');
        link.push_str(fragment);
    }
    link
}

impl ReceiptService {
    /// Creates the receipt in one transaction (with the idempotency record when a key was presented).
    pub(crate) async fn create(
        &self,
        caller: &Caller,
        signing_key: Option<&Secret>,
        draft: ReceiptDraft,
        idempotency: Option<IdempotencyRequest>,
    ) -> Result<Outcome<Sale>, ReceiptError> {
        let sealed_signing_key =
            self.seal_signing_key(&draft.id, signing_key, draft.webhook_url.as_deref())?;
        let (wallet, now_ms) = (caller.wallet, self.clock.now_ms());
        let deposits = self.deposits;
        let expires_at = draft
            .payment_window
            .unwrap_or(self.payment_window)
            .expires_at(now_ms);
        let claim = idempotency.map(|request| self.claim(wallet, "receipts.create", request));
        let sale = SaleTx {
            wallet,
            items: Vec::new(),
            claim: claim.clone(),
            decide: Box::new(move |inputs| {
                let payment = deposits.target(&inputs.merchant, wallet, &draft.id);
                Ok(SalePlan {
                    receipt: NewReceipt {
                        id: draft.id,
                        wallet,
                        source: ReceiptSource::Api,
                        currency: "USD".to_owned(),
                        amounts: ReceiptAmounts {
                            subtotal: draft.total,
                            tax: Cents::ZERO,
                            fee: Cents::ZERO,
                            total: draft.total,
                        },
                        line_items: draft.line_items,
                        brand_name: brand_name_of(&inputs.merchant),
                        tax: ReceiptTax::none(),
                        options: draft.options,
                        webhook_url: draft.webhook_url,
                        sealed_signing_key,
                        payment,
                        expires_at,
                        now_ms,
                    },
                    reserve: Vec::new(),
                })
            }),
        };
        let committed = self
            .receipts
            .create(sale)
            .await
            .map_err(|error| match sale_error(error) {
                OrderError::Receipt(error) => error,
                // An API receipt reads no products and needs no split: no other refusal can happen.
                other => ReceiptError::Unexpected(other.to_string()),
            })?;
        Ok(Outcome::new(committed, claim))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_payment_url_names_the_recipient_and_encodes_the_redirect() {
        let base = Url::parse("https://pay.example.com").unwrap();
        let wallet = Wallet::parse("0x1111111111111111111111111111111111111111").unwrap();
        let merchant = Wallet::parse("0x2222222222222222222222222222222222222222").unwrap();
        let id = ReceiptId::parse("id", "order-1").unwrap();

        assert_eq!(
            payment_url(
                &base,
                &id,
                wallet,
                merchant,
                Some("https://shop.example.com/done?a=1&b=2")
            ),
            "https://pay.example.com/portal/order-1?recipient=0x1111111111111111111111111111111111111111\
             &merchant=0x2222222222222222222222222222222222222222\
             &redirect_url=https%3A%2F%2Fshop.example.com%2Fdone%3Fa%3D1%26b%3D2"
        );
        assert_eq!(
            payment_url(&base, &id, wallet, merchant, None),
            "https://pay.example.com/portal/order-1?recipient=0x1111111111111111111111111111111111111111\
             &merchant=0x2222222222222222222222222222222222222222"
        );
    }

    /// The link as `Url` builds it: the reference the text-built link must equal.
    fn built_with_url(
        base: &Url,
        id: &ReceiptId,
        recipient: Wallet,
        merchant: Wallet,
        redirect: Option<&str>,
    ) -> String {
        let mut url = base.clone();
        url.set_path(&format!("{}/portal/{id}", base.path().trim_end_matches('/')));
        url.set_query(None);
        {
            let mut query = url.query_pairs_mut();
            query.append_pair("recipient", &recipient.to_string());
            query.append_pair("merchant", &merchant.to_string());
            if let Some(redirect) = redirect {
                query.append_pair("redirect_url", redirect);
            }
        }
        url.to_string()
    }

    #[test]
    fn the_payment_url_is_what_url_builds_for_any_base_and_redirect() {
        let wallet = Wallet::parse("0x1111111111111111111111111111111111111111").unwrap();
        let merchant = Wallet::parse("0x2222222222222222222222222222222222222222").unwrap();
        let bases = [
            "http://127.0.0.1:8080",
            "https://pay.example.com/",
            "https://pay.example.com/shop",
            "https://pay.example.com/shop/?old=query",
            "https://pay.example.com/a%20b/#section",
            "https://user@pay.example.com:8443/x//",
        ];
        let redirects = [None, Some("https://shop.example/ok?x=1 2&y=é#top"), Some("")];
        for base in bases {
            let base = Url::parse(base).unwrap();
            for id in ["order-1", "rcpt_0192a.b_c-d"] {
                let id = ReceiptId::parse("id", id).unwrap();
                for redirect in redirects {
                    assert_eq!(
                        payment_url(&base, &id, wallet, merchant, redirect),
                        built_with_url(&base, &id, wallet, merchant, redirect),
                        "{base} {id} {redirect:?}"
                    );
                }
            }
        }
    }
}
