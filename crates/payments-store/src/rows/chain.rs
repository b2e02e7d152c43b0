//! Chain transfers as stored (`chain_transfers`).

use payments_core::Wallet;

use super::bad;
use crate::RecordedTransfer;

/// A `chain_transfers` row's transfer columns.
pub(crate) struct ChainTransferRow {
    pub(crate) transaction_hash: String,
    pub(crate) log_index: i64,
    pub(crate) block_number: i64,
    pub(crate) block_hash: String,
    pub(crate) token: String,
    pub(crate) from_wallet: String,
    pub(crate) to_wallet: String,
    /// Base units as decimal text (a token amount is a `u128`); `NULL` when the log carried none.
    pub(crate) amount: Option<String>,
}

impl ChainTransferRow {
    pub(crate) fn into_record(self) -> Result<RecordedTransfer, String> {
        let wallet = |name: &str, text: &str| Wallet::parse(text).map_err(|error| bad(name, error));
        Ok(RecordedTransfer {
            log_index: u64::try_from(self.log_index).map_err(|error| bad("log_index", error))?,
            block_number: u64::try_from(self.block_number).map_err(|error| bad("block_number", error))?,
            token: wallet("token", &self.token)?,
            from: wallet("from_wallet", &self.from_wallet)?,
            to: wallet("to_wallet", &self.to_wallet)?,
            amount: self
                .amount
                .map(|text| text.parse::<u128>().map_err(|error| bad("amount", error)))
                .transpose()?,
            transaction_hash: self.transaction_hash,
            block_hash: self.block_hash,
        })
    }
}
