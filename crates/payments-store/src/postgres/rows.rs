//! Reading columns back into domain types: a value that does not decode is [`PgError::Corrupt`], named by
//! its column, never a panic.

use std::fmt::Display;

use tokio_postgres::Row;
use tokio_postgres::types::FromSql;

use crate::postgres::error::PgError;

/// Column `name`, decoded as `T`.
pub(super) fn get<'a, T: FromSql<'a>>(row: &'a Row, name: &str) -> Result<T, PgError> {
    row.try_get(name)
        .map_err(|error| PgError::corrupt(format_args!("column {name}"), error))
}

/// Text column `name`, parsed.
pub(super) fn parsed<T, E: Display>(
    row: &Row,
    name: &str,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<T, PgError> {
    let text: &str = get(row, name)?;
    parse(text).map_err(|error| PgError::corrupt(format_args!("column {name}"), error))
}

/// JSON text column `name`.
pub(super) fn json<T: serde::de::DeserializeOwned>(row: &Row, name: &str) -> Result<T, PgError> {
    parsed(row, name, |text| serde_json::from_str(text))
}

/// JSON text for a column; serializing our own plain types cannot fail, but stay total anyway.
pub(super) fn to_json(value: &impl serde::Serialize) -> Result<String, PgError> {
    serde_json::to_string(value).map_err(|error| PgError::corrupt("value to store", error))
}

/// Counts and limits travel as BIGINT.
pub(super) fn non_negative(count: i64) -> u64 {
    u64::try_from(count).unwrap_or_default()
}
