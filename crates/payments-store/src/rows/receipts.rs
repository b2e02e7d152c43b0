//! Receipts as stored (`receipts`).

use super::{bad, json};
use payments_core::{Authority, Cents, ReceiptStatus, TaxRate, TokenAmount, Wallet};
use payments_domain::receipt::{
    OnrampSession, PaymentTarget, Receipt, ReceiptAmounts, ReceiptId, ReceiptSource, ReceiptTax,
};

/// A `receipts` row as every receipt read selects it.
pub(crate) struct ReceiptRow {
    pub(crate) public_id: String,
    pub(crate) wallet: String,
    pub(crate) source: String,
    pub(crate) status: String,
    pub(crate) version: i64,
    pub(crate) currency: String,
    pub(crate) subtotal_cents: i64,
    pub(crate) tax_cents: i64,
    pub(crate) fee_cents: i64,
    pub(crate) total_cents: i64,
    pub(crate) paid_cents: i64,
    pub(crate) refunded_cents: i64,
    pub(crate) line_items_json: String,
    pub(crate) brand_name: String,
    pub(crate) jurisdiction_code: Option<String>,
    pub(crate) tax_rate: String,
    pub(crate) tax_components_json: String,
    pub(crate) options_json: String,
    pub(crate) webhook_url: Option<String>,
    pub(crate) transaction_hash: Option<String>,
    pub(crate) transaction_timestamp: Option<i64>,
    pub(crate) buyer_wallet: Option<String>,
    pub(crate) failure_json: Option<String>,
    pub(crate) created_at: i64,
    pub(crate) updated_at: i64,
    pub(crate) status_authority: String,
    pub(crate) pay_to: Option<String>,
    pub(crate) pay_split: Option<String>,
    pub(crate) expires_at: Option<i64>,
    pub(crate) expired: bool,
    pub(crate) paid_late: bool,
    pub(crate) stock_short: bool,
    pub(crate) onramp_provider: Option<String>,
    pub(crate) onramp_session_id: Option<String>,
    pub(crate) onramp_url: Option<String>,
    pub(crate) onramp_created_at: Option<i64>,
    pub(crate) received_units: String,
}

impl ReceiptRow {
    pub(crate) fn into_record(self) -> Result<Receipt, String> {
        let source = ReceiptSource::parse(&self.source)
            .ok_or_else(|| format!("unknown receipt source {}", self.source))?;
        Ok(Receipt {
            id: ReceiptId::from_stored(self.public_id),
            wallet: Wallet::parse(&self.wallet).map_err(|error| bad("wallet", error))?,
            source,
            status: self
                .status
                .parse::<ReceiptStatus>()
                .map_err(|error| bad("status", error))?,
            version: self.version,
            currency: self.currency,
            amounts: ReceiptAmounts {
                subtotal: Cents::new(self.subtotal_cents),
                tax: Cents::new(self.tax_cents),
                fee: Cents::new(self.fee_cents),
                total: Cents::new(self.total_cents),
            },
            paid: Cents::new(self.paid_cents),
            refunded: Cents::new(self.refunded_cents),
            line_items: json("line_items_json", &self.line_items_json)?,
            brand_name: self.brand_name,
            tax: ReceiptTax {
                jurisdiction_code: self.jurisdiction_code,
                rate: TaxRate::parse(&self.tax_rate).map_err(|error| bad("tax_rate", error))?,
                components: json("tax_components_json", &self.tax_components_json)?,
            },
            options: json("options_json", &self.options_json)?,
            webhook_url: self.webhook_url,
            transaction_hash: self.transaction_hash,
            transaction_timestamp: self.transaction_timestamp,
            buyer_wallet: self
                .buyer_wallet
                .map(|text| Wallet::parse(&text).map_err(|error| bad("buyer_wallet", error)))
                .transpose()?,
            failure: self
                .failure_json
                .map(|text| json("failure_json", &text))
                .transpose()?,
            created_at: self.created_at,
            updated_at: self.updated_at,
            status_authority: self
                .status_authority
                .parse::<Authority>()
                .map_err(|error| bad("status_authority", error))?,
            payment: PaymentTarget::from_stored(self.pay_to, self.pay_split)
                .map_err(|error| format!("payment target: {error}"))?,
            expires_at: self.expires_at,
            expired: self.expired,
            paid_late: self.paid_late,
            stock_short: self.stock_short,
            onramp: OnrampSession::from_stored(
                self.onramp_provider,
                self.onramp_session_id,
                self.onramp_url,
                self.onramp_created_at,
            ),
            received: TokenAmount::parse_base_units(&self.received_units)
                .map_err(|error| bad("received_units", error))?,
        })
    }
}
