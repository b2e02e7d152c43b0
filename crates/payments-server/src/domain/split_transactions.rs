//! The query of `GET /api/split/transactions`: which address, from where (the cursor), how many.

use std::fmt;

use payments_core::Wallet;

use crate::domain::field_error::FieldError;
use crate::domain::page_limit::parse_limit;

/// Records per page when `limit` is absent.
pub(crate) const DEFAULT_LIMIT: u32 = 50;
/// The most records a page holds (each costs a block-time read at most).
pub(crate) const MAX_LIMIT: u32 = 100;

/// A place in the chain's log order, used as an exclusive upper bound: a page lists what comes strictly
/// before it. Written `<block>-<logIndex>` (`"1234-0"`: everything before block 1234).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct LogPosition {
    pub(crate) block: u64,
    pub(crate) log_index: u64,
}

impl LogPosition {
    /// The start of `block` (nothing of that block is before it).
    pub(crate) fn block_start(block: u64) -> LogPosition {
        LogPosition { block, log_index: 0 }
    }

    /// Reads a cursor a previous page returned.
    ///
    /// # Errors
    /// A [`FieldError`] on `cursor` unless the text is `<digits>-<digits>`, each fitting in 64 bits.
    pub(crate) fn parse(text: &str) -> Result<LogPosition, FieldError> {
        let invalid = || {
            FieldError::new(
                "cursor",
                "not a cursor of this listing (use the X-Next-Cursor header of the previous page)",
            )
        };
        let (block, log_index) = text.split_once('-').ok_or_else(invalid)?;
        let number = |digits: &str| {
            (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                .then(|| digits.parse::<u64>().ok())
                .flatten()
                .ok_or_else(invalid)
        };
        Ok(LogPosition {
            block: number(block)?,
            log_index: number(log_index)?,
        })
    }
}

impl fmt::Display for LogPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.block, self.log_index)
    }
}

/// A parsed listing request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SplitTransactionsQuery {
    /// The merchant's split (current or archived) or a recipient of its current split; `None`: the current
    /// split.
    pub(crate) address: Option<Wallet>,
    /// Where the previous page stopped; `None`: the newest confirmed block.
    pub(crate) before: Option<LogPosition>,
    pub(crate) limit: u32,
}

impl SplitTransactionsQuery {
    /// From the raw query parameters `address`, `cursor` and `limit`.
    ///
    /// # Errors
    /// A [`FieldError`] naming the first malformed parameter.
    pub(crate) fn parse(
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
            before: cursor.map(LogPosition::parse).transpose()?,
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
        assert_eq!(LogPosition::parse(&position.to_string()), Ok(position));
    }

    #[test]
    fn malformed_cursors_are_refused_on_the_cursor_field() {
        for text in [
            "",
            "12",
            "-1-2",
            "1-",
            "a-1",
            "1-2-3",
            "1 -2",
            "99999999999999999999-0",
        ] {
            let error = LogPosition::parse(text).unwrap_err();
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
