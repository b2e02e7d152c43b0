//! The query of `GET /api/split/transactions`: which address, from where (the cursor), how many.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use payments_core::Wallet;

use crate::field_error::FieldError;
use crate::page_cursor::{decoded, malformed};
use crate::page_limit::parse_limit;

/// Records per page when `limit` is absent.
pub const DEFAULT_LIMIT: u32 = 50;
/// The most records a page holds (each costs a block-time read at most).
pub const MAX_LIMIT: u32 = 100;

/// A place in the chain's log order, used as an exclusive upper bound: a page lists what comes strictly
/// before it. On the wire it is an opaque cursor like every list's (docs/receipts.md): base64url of
/// `s1:<block>:<logIndex>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LogPosition {
    pub block: u64,
    pub log_index: u64,
}

impl LogPosition {
    /// The start of `block` (nothing of that block is before it).
    pub fn block_start(block: u64) -> LogPosition {
        LogPosition { block, log_index: 0 }
    }

    /// The cursor text (the `X-Next-Cursor` header).
    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode(format!("s1:{}:{}", self.block, self.log_index))
    }

    /// Reads a cursor a previous page returned.
    ///
    /// # Errors
    /// A [`FieldError`] on `cursor` for anything this server did not make.
    pub fn decode(cursor: &str) -> Result<LogPosition, FieldError> {
        let text = decoded(cursor)?;
        let mut parts = text.split(':');
        match (parts.next(), parts.next(), parts.next(), parts.next()) {
            (Some("s1"), Some(block), Some(log_index), None) => Ok(LogPosition {
                block: block.parse().map_err(|_| malformed())?,
                log_index: log_index.parse().map_err(|_| malformed())?,
            }),
            _ => Err(malformed()),
        }
    }
}

/// A parsed listing request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitTransactionsQuery {
    /// The merchant's split (current or archived) or a recipient of its current split; `None`: the current
    /// split.
    pub address: Option<Wallet>,
    /// Where the previous page stopped; `None`: the newest confirmed block.
    pub before: Option<LogPosition>,
    pub limit: u32,
}

impl SplitTransactionsQuery {
    /// From the raw query parameters `address`, `cursor` and `limit`.
    ///
    /// # Errors
    /// A [`FieldError`] naming the first malformed parameter.
    pub fn parse(
        address: Option<&str>,
        cursor: Option<&str>,
        limit: Option<&str>,
    ) -> Result<SplitTransactionsQuery, FieldError> {
        let address = address
            .map(|text| {
                Wallet::parse(text.trim()).map_err(|error| FieldError::new("address", error.to_string()))
            })
            .transpose()?;
        Ok(SplitTransactionsQuery {
            address,
            before: cursor.map(LogPosition::decode).transpose()?,
            limit: parse_limit(limit, DEFAULT_LIMIT, MAX_LIMIT)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_as_it_was_written() {
        let position = LogPosition {
            block: 1234,
            log_index: 7,
        };
        assert_eq!(LogPosition::decode(&position.encode()), Ok(position));
    }

    #[test]
    fn malformed_cursors_are_refused_on_the_cursor_field() {
        let plain = |text: &str| URL_SAFE_NO_PAD.encode(text);
        let refused = [
            String::new(),
            "12-0".to_owned(),
            "not base64!".to_owned(),
            plain("r1:1700000000000:4"),
            plain("s1:12"),
            plain("s1:1:2:3"),
            plain("s1:-1:0"),
            plain("s1:99999999999999999999:0"),
        ];
        for text in refused {
            let error = LogPosition::decode(&text).unwrap_err();
            assert_eq!(error.field, "cursor", "{text}");
        }
    }

    #[test]
    fn a_malformed_address_is_refused_on_the_address_field() {
        let error = SplitTransactionsQuery::parse(Some("0x12"), None, None).unwrap_err();
        assert_eq!(error.field, "address");
    }

    #[test]
    fn no_parameters_mean_the_newest_default_page_of_the_current_split() {
        let query = SplitTransactionsQuery::parse(None, None, None).unwrap();
        assert_eq!(
            (query.address, query.before, query.limit),
            (None, None, DEFAULT_LIMIT)
        );
    }
}
