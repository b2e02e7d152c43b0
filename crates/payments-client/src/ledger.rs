//! The ledger export (`GET /api/exports/ledger`, scope `receipts:read`): streamed chunk by chunk so an
//! export of any size passes through without being held in memory, or read whole as typed entries.

use serde::{Deserialize, Serialize};

use crate::client::{Auth, Client};
use crate::error::Error;
use crate::response::api_error;

/// The export's wire format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum LedgerFormat {
    /// `{ success, merchant, entries: [...] }`.
    #[default]
    Json,
    /// A header row, then one row per entry.
    Csv,
}

impl LedgerFormat {
    fn as_str(self) -> &'static str {
        match self {
            LedgerFormat::Json => "json",
            LedgerFormat::Csv => "csv",
        }
    }
}

/// Which movements to export: `from` inclusive, `to` exclusive, each a UTC date (`2026-01-31`) or time
/// (`2026-01-31T12:00:00Z`); absent bounds are open.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct LedgerRange {
    pub from: Option<String>,
    pub to: Option<String>,
}

impl LedgerRange {
    /// Every movement.
    pub fn all() -> Self {
        LedgerRange::default()
    }

    /// Movements recorded in `[from, to)` (either bound may be `None`).
    pub fn between(from: Option<&str>, to: Option<&str>) -> Self {
        LedgerRange {
            from: from.map(str::to_owned),
            to: to.map(str::to_owned),
        }
    }
}

/// One entry: `baseUnits` of the token left `credit_account` and arrived in `debit_account`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct LedgerEntry {
    pub id: String,
    pub time: String,
    /// `payment`, `overpayment`, `refund`, `split_share`, `platform_fee`, `subscription_charge` (more may come).
    pub movement: String,
    pub receipt_id: Option<String>,
    pub subscription_id: Option<String>,
    pub transaction_hash: Option<String>,
    pub block_number: Option<u64>,
    pub debit_account: String,
    pub credit_account: String,
    /// Token base units (6 decimals), integer text.
    pub base_units: String,
    /// The same amount in USD, exact, text.
    pub usd: String,
}

#[derive(Debug, Deserialize)]
struct LedgerBody {
    entries: Vec<LedgerEntry>,
}

/// An export being received: read it with [`LedgerDownload::next_chunk`] until `None`.
#[derive(Debug)]
pub struct LedgerDownload {
    response: reqwest::Response,
}

impl LedgerDownload {
    /// The next piece of the export; `None` once it is complete.
    ///
    /// # Errors
    /// [`Error::Transport`] when the transfer breaks: the service breaks it off when it cannot finish an
    /// export, so a download that ends without error is complete.
    pub async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, Error> {
        Ok(self.response.chunk().await?.map(|chunk| chunk.to_vec()))
    }
}

impl Client {
    /// Starts the merchant's ledger export in `format`; the answer's status is checked before this returns.
    ///
    /// # Errors
    /// [`Error::Api`]: `invalid_input` (a bad bound or format), `forbidden` (no `receipts:read`),
    /// `datastore_unavailable`; [`Error::Transport`] as for every call.
    pub async fn export_ledger(
        &self,
        range: &LedgerRange,
        format: LedgerFormat,
    ) -> Result<LedgerDownload, Error> {
        let mut url = self.url("api/exports/ledger")?;
        {
            let mut query = url.query_pairs_mut();
            query.append_pair("format", format.as_str());
            if let Some(from) = &range.from {
                query.append_pair("from", from);
            }
            if let Some(to) = &range.to {
                query.append_pair("to", to);
            }
        }
        let request = self.authorize(self.http().get(url), Auth::Subscription);
        let response = request.send().await?;
        if !response.status().is_success() {
            let (status, headers) = (response.status(), response.headers().clone());
            let body = response.bytes().await?;
            return Err(Error::from(api_error(status, &headers, &body)));
        }
        Ok(LedgerDownload { response })
    }

    /// The entries of `range`, read whole (for bounded ranges; use [`Client::export_ledger`] for large ones).
    ///
    /// # Errors
    /// As [`Client::export_ledger`]; [`Error::Decode`] when the body is not the documented shape.
    pub async fn ledger_entries(&self, range: &LedgerRange) -> Result<Vec<LedgerEntry>, Error> {
        let mut download = self.export_ledger(range, LedgerFormat::Json).await?;
        let mut body = Vec::new();
        while let Some(chunk) = download.next_chunk().await? {
            body.extend_from_slice(&chunk);
        }
        serde_json::from_slice::<LedgerBody>(&body)
            .map(|body| body.entries)
            .map_err(|source| Error::Decode {
                status: 200,
                source,
                correlation_id: None,
            })
    }
}
