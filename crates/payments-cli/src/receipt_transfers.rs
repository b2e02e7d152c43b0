//! `payments receipts transfers ID`: what a receipt's deposit address received on chain, counted or not.

use payments_client::DepositTransfers;
use payments_core::TokenAmount;

use crate::output::Table;
use crate::token_usd::usd_text;

/// A header line (received and missing, in USD) and one row per transfer.
pub(crate) fn transfers_text(deposit: &DepositTransfers) -> String {
    let mut text = format!(
        "receipt {}: received {} USD, missing {} USD\n",
        deposit.receipt_id,
        usd_text(deposit.received),
        usd_text(deposit.missing)
    );
    if deposit.transfers.is_empty() {
        text.push_str("no confirmed transfer to its deposit address yet\n");
        return text;
    }
    let mut table = Table::new(["BLOCK", "FROM", "AMOUNT", "COUNTED", "TOKEN", "TRANSACTION"]);
    for transfer in &deposit.transfers {
        // Another token's units are not dollars: shown raw, so no one reads them as a payment.
        let amount = match (&transfer.amount, transfer.counted) {
            (Some(units), true) => units
                .parse::<u128>()
                .map(|units| usd_text(TokenAmount::from_base_units(units)))
                .unwrap_or_else(|_| units.clone()),
            (Some(units), false) => format!("{units} units"),
            (None, _) => "too large".to_owned(),
        };
        table.row([
            transfer.block_number.to_string(),
            transfer.from.to_string(),
            amount,
            if transfer.counted { "yes" } else { "no" }.to_owned(),
            transfer.token.to_string(),
            transfer.transaction_hash.clone(),
        ]);
    }
    text.push_str(&table.render());
    text
}
