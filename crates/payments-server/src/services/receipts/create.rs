//! Creating receipts. The creating API key is sealed with the master key and stored with the receipt: it
//! signs the receipt's webhooks, whichever process delivers them.

use payments_core::{Cents, ReceiptStatus, Wallet};
use url::Url;

use crate::app::AppState;
use crate::domain::receipt::ReceiptError;
use crate::domain::receipt::{
    NewReceipt, Receipt, ReceiptAmounts, ReceiptDraft, ReceiptId, ReceiptSource, ReceiptTax,
};
use crate::domain::subscription::Caller;
use crate::secret::Secret;
use crate::store::{self, CreateReceiptOutcome};

/// What `POST /api/receipts` answers.
#[derive(Debug, Clone)]
pub(crate) struct Created {
    pub(crate) id: ReceiptId,
    pub(crate) payment_url: String,
    pub(crate) status: ReceiptStatus,
    pub(crate) redirect_url: Option<String>,
    pub(crate) webhook_url: Option<String>,
}

/// `{base_url}/portal/{id}?recipient=<address>[&redirect_url=<url>]`.
pub(crate) fn payment_url(
    base_url: &Url,
    id: &ReceiptId,
    recipient: Wallet,
    redirect_url: Option<&str>,
) -> String {
    let mut url = base_url.clone();
    url.set_path(&format!("{}/portal/{id}", base_url.path().trim_end_matches('/')));
    url.set_query(None);
    {
        let mut query = url.query_pairs_mut();
        query.append_pair("recipient", &recipient.to_string());
        if let Some(redirect_url) = redirect_url {
            query.append_pair("redirect_url", redirect_url);
        }
    }
    url.to_string()
}

/// The payment link of a stored receipt; `recipient` from [`recipient`].
pub(crate) fn link_for(state: &AppState, receipt: &Receipt, recipient: Wallet) -> String {
    payment_url(
        &state.config.base_url,
        &receipt.id,
        recipient,
        receipt.options.redirect_url.as_deref(),
    )
}

/// Seals the creating key for `id` when the receipt has a webhook target, the only use of the key; a receipt
/// without one stores no secret. A webhook target needs a key to sign with, which the edge path does not carry.
pub(super) fn seal_signing_key(
    state: &AppState,
    id: &ReceiptId,
    key: Option<&Secret>,
    webhook_url: Option<&str>,
) -> Result<Option<Vec<u8>>, ReceiptError> {
    if webhook_url.is_none() {
        return Ok(None);
    }
    match (key, &state.receipts.master_key) {
        (None, _) => Err(ReceiptError::WebhookWithoutKey),
        (Some(key), Some(master)) => Ok(Some(master.seal(key.expose().as_bytes(), id.as_str()))),
        (Some(_), None) => Err(ReceiptError::NoMasterKey),
    }
}

/// The address buyers pay: the merchant's split contract when it configured one, else its wallet.
pub(crate) async fn recipient(state: &AppState, wallet: Wallet) -> Result<Wallet, ReceiptError> {
    let split = store::blocking(&state.store, move |store| store.fetch_split(wallet)).await?;
    Ok(split.map_or(wallet, |split| split.address))
}

pub(super) async fn brand_name(state: &AppState, wallet: Wallet) -> Result<String, ReceiptError> {
    let shop = store::blocking(&state.store, move |store| store.fetch_shop_config(wallet)).await?;
    Ok(shop.map(|shop| shop.brand_name).unwrap_or_default())
}

/// Inserts a receipt; 409 when its id is taken.
pub(super) async fn insert(state: &AppState, receipt: NewReceipt) -> Result<(), ReceiptError> {
    let id = receipt.id.clone();
    let outcome = store::blocking(&state.store, move |store| store.create_receipt(&receipt)).await?;
    match outcome {
        CreateReceiptOutcome::Created => Ok(()),
        CreateReceiptOutcome::IdTaken => Err(ReceiptError::IdTaken(id)),
    }
}

/// `POST /api/receipts`: a caller-assigned id and lines; starts `pending`.
pub(crate) async fn create(
    state: &AppState,
    caller: &Caller,
    signing_key: Option<&Secret>,
    draft: ReceiptDraft,
) -> Result<Created, ReceiptError> {
    let sealed_signing_key = seal_signing_key(state, &draft.id, signing_key, draft.webhook_url.as_deref())?;
    let brand_name = brand_name(state, caller.wallet).await?;
    let recipient = recipient(state, caller.wallet).await?;
    let receipt = NewReceipt {
        id: draft.id.clone(),
        wallet: caller.wallet,
        source: ReceiptSource::Api,
        currency: "USD".to_owned(),
        amounts: ReceiptAmounts {
            subtotal: draft.total,
            tax: Cents::ZERO,
            fee: Cents::ZERO,
            total: draft.total,
        },
        line_items: draft.line_items,
        brand_name,
        tax: ReceiptTax::none(),
        options: draft.options.clone(),
        webhook_url: draft.webhook_url.clone(),
        sealed_signing_key,
        now_ms: state.clock.now_ms(),
    };
    insert(state, receipt).await?;
    let redirect_url = draft.options.redirect_url;
    Ok(Created {
        payment_url: payment_url(
            &state.config.base_url,
            &draft.id,
            recipient,
            redirect_url.as_deref(),
        ),
        id: draft.id,
        status: ReceiptSource::Api.initial_status(),
        redirect_url,
        webhook_url: draft.webhook_url,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_payment_url_names_the_recipient_and_encodes_the_redirect() {
        let base = Url::parse("https://pay.example.com").unwrap();
        let wallet = Wallet::parse("0x1111111111111111111111111111111111111111").unwrap();
        let id = ReceiptId::parse("id", "order-1").unwrap();

        assert_eq!(
            payment_url(&base, &id, wallet, Some("https://shop.example.com/done?a=1&b=2")),
            "https://pay.example.com/portal/order-1?recipient=0x1111111111111111111111111111111111111111\
             &redirect_url=https%3A%2F%2Fshop.example.com%2Fdone%3Fa%3D1%26b%3D2"
        );
        assert_eq!(
            payment_url(&base, &id, wallet, None),
            "https://pay.example.com/portal/order-1?recipient=0x1111111111111111111111111111111111111111"
        );
    }
}
