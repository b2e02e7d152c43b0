//! The merchant's split's on-chain history (`GET /api/split/transactions`, scope `split:read`).

use std::fmt;

use payments_core::{TokenAmount, Wallet};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::client::{Auth, Client};
use crate::error::Error;
use crate::token_amounts::usd_number;

/// The response header carrying the next page's cursor.
const NEXT_CURSOR_HEADER: &str = "x-next-cursor";

/// What a split transaction is: tokens arriving at the split, or the split paying its recipients.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SplitTransactionStatus {
    /// Tokens arrived at the split (a receipt's forwarded deposit, or a direct transfer).
    Received,
    /// The split paid its recipients (`distribute`, or one recipient's `release`).
    Distributed,
    /// A status this version does not know, verbatim.
    Unknown(String),
}

impl SplitTransactionStatus {
    /// The wire name.
    pub fn as_str(&self) -> &str {
        match self {
            SplitTransactionStatus::Received => "received",
            SplitTransactionStatus::Distributed => "distributed",
            SplitTransactionStatus::Unknown(name) => name,
        }
    }
}

impl fmt::Display for SplitTransactionStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for SplitTransactionStatus {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for SplitTransactionStatus {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match String::deserialize(deserializer)?.as_str() {
            "received" => SplitTransactionStatus::Received,
            "distributed" => SplitTransactionStatus::Distributed,
            other => SplitTransactionStatus::Unknown(other.to_owned()),
        })
    }
}

/// One inflow or payout of the split (the spec's `SplitTransaction`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SplitTransaction {
    /// `<transactionHash>-<logIndex>`, unique.
    pub id: String,
    /// The receipt whose deposit this inflow forwarded; empty for payouts and direct transfers.
    pub receipt_id: String,
    /// The amount moved, exact to the token's base unit (USD on the wire, up to 6 decimals).
    #[serde(with = "usd_number")]
    pub amount: TokenAmount,
    /// `USDC`.
    pub currency: String,
    /// Inflow or payout.
    pub status: SplitTransactionStatus,
    /// The block's time, ISO 8601 UTC.
    pub timestamp: String,
    /// The transaction on chain.
    pub transaction_hash: String,
    /// The platform recipient's part of the amount.
    #[serde(with = "usd_number")]
    pub fees: TokenAmount,
}

/// One page of split transactions, newest first.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SplitTransactionsPage {
    /// The page's records.
    pub transactions: Vec<SplitTransaction>,
    /// Pass to [`SplitTransactionsQuery::cursor`] for the next page; `None` on the last page. A page may
    /// be short (even empty) and still have a next one: each page reads a bounded range of blocks.
    pub next_cursor: Option<String>,
}

/// What to list: the current split by default, or `address` (the merchant's split, an archived split of
/// it, or a recipient: then only payouts to that recipient, with its part as the amount).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SplitTransactionsQuery {
    /// Whose view.
    pub address: Option<Wallet>,
    /// Where the previous page stopped.
    pub cursor: Option<String>,
    /// Records per page (server default 50, clamped to 1..=100).
    pub limit: Option<u32>,
}

impl SplitTransactionsQuery {
    /// The newest page of the current split.
    pub fn new() -> Self {
        Self::default()
    }

    /// Lists from `address`'s point of view.
    pub fn address(mut self, address: Wallet) -> Self {
        self.address = Some(address);
        self
    }

    /// Continues after a previous page.
    pub fn cursor(mut self, cursor: impl Into<String>) -> Self {
        self.cursor = Some(cursor.into());
        self
    }

    /// Records per page.
    pub fn limit(mut self, limit: u32) -> Self {
        self.limit = Some(limit);
        self
    }
}

impl Client {
    /// One page of the merchant's split's inflows and payouts, newest first (`GET /api/split/transactions`,
    /// scope `split:read`).
    ///
    /// # Errors
    /// [`Error::Api`] for a missing key or scope (`forbidden`), an address that is not the merchant's
    /// (`forbidden`), a malformed cursor (`invalid_input`) or an unavailable chain node
    /// (`chain_unavailable`, 503); [`Error::Transport`] or [`Error::Decode`] as for every call.
    pub async fn split_transactions(
        &self,
        query: &SplitTransactionsQuery,
    ) -> Result<SplitTransactionsPage, Error> {
        let mut url = self.url("api/split/transactions")?;
        {
            let mut pairs = url.query_pairs_mut();
            if let Some(address) = query.address {
                pairs.append_pair("address", &address.to_string());
            }
            if let Some(cursor) = &query.cursor {
                pairs.append_pair("cursor", cursor);
            }
            if let Some(limit) = query.limit {
                pairs.append_pair("limit", &limit.to_string());
            }
        }
        if url.query() == Some("") {
            url.set_query(None);
        }
        let (transactions, headers) = self.get_json_with_headers(url, Auth::Subscription).await?;
        let next_cursor = headers
            .get(NEXT_CURSOR_HEADER)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        Ok(SplitTransactionsPage {
            transactions,
            next_cursor,
        })
    }
}
