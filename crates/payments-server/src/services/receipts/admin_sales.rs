//! Admin terminal sales: one amount, priced like an order (refunds are in `refund.rs`).

use payments_core::{Wallet, price_terminal};

use crate::domain::receipt::{
    NewReceipt, OrderError, ReceiptError, ReceiptId, ReceiptOptions, ReceiptSource, TerminalSale,
};
use crate::services::receipts::sale::{TaxChoice, require_split, sale_terms};
use crate::services::receipts::service::{ReceiptService, brand_name_of, sale_error};
use crate::store::{Committed, Sale, SalePlan, SaleTx};

impl ReceiptService {
    /// A `generated` receipt for one amount, taxed as a single taxable line.
    pub(crate) async fn create_terminal(
        &self,
        wallet: Wallet,
        sale: TerminalSale,
    ) -> Result<Sale, OrderError> {
        let (id, now_ms) = (ReceiptId::generate(), self.clock.now_ms());
        let deposits = self.deposits;
        let expires_at = self.payment_window.expires_at(now_ms);
        let sale = SaleTx {
            wallet,
            items: Vec::new(),
            claim: None,
            decide: Box::new(move |inputs| {
                require_split(&inputs.merchant)?;
                let choice = TaxChoice {
                    explicit_rate: sale.explicit_rate,
                    jurisdiction_code: sale.jurisdiction_code,
                    tax_components: sale.tax_components,
                };
                let terms = sale_terms(&inputs.merchant, wallet, choice)?;
                let priced = price_terminal(sale.amount, &sale.label, terms.rate, terms.fees)
                    .map_err(OrderError::Pricing)?;
                let (amounts, tax) = terms.record(&priced)?;
                let payment = deposits.target(&inputs.merchant, wallet, &id);
                let receipt = NewReceipt {
                    id,
                    wallet,
                    source: ReceiptSource::Terminal,
                    currency: "USD".to_owned(),
                    amounts,
                    line_items: priced.line_items,
                    brand_name: brand_name_of(&inputs.merchant),
                    tax,
                    options: ReceiptOptions::default(),
                    webhook_url: None,
                    // An admin session presents no API key: terminal receipts have no webhook URL to sign for.
                    sealed_signing_key: None,
                    payment,
                    expires_at,
                    now_ms,
                };
                Ok(SalePlan {
                    receipt,
                    reserve: Vec::new(),
                })
            }),
        };
        match self.receipts.create(sale).await.map_err(sale_error)? {
            Committed::Fresh(sale) => Ok(sale),
            Committed::Replayed(_) | Committed::Recovered(_) => {
                Err(ReceiptError::Unexpected("a sale without a key was replayed".to_owned()).into())
            }
        }
    }
}
