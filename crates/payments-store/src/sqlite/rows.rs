//! Reading stored text back into domain types; a value that does not parse is reported as corrupt data.

use std::fmt::Display;

use rusqlite::Row;
use rusqlite::types::Type;

/// Reads column `index` as text and parses it, turning a parse failure into a conversion error.
pub(super) fn parsed<T, E: Display>(
    row: &Row<'_>,
    index: usize,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> rusqlite::Result<T> {
    let text: String = row.get(index)?;
    parse(&text).map_err(|error| corrupt(index, error))
}

/// Reads a JSON text column.
pub(super) fn json<T: serde::de::DeserializeOwned>(row: &Row<'_>, index: usize) -> rusqlite::Result<T> {
    parsed(row, index, |text| serde_json::from_str(text))
}

pub(super) fn corrupt(index: usize, error: impl Display) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(index, Type::Text, error.to_string().into())
}

/// JSON text for a column; serializing our own plain types cannot fail, but stay total anyway.
pub(super) fn to_json(value: &impl serde::Serialize) -> rusqlite::Result<String> {
    serde_json::to_string(value).map_err(|error| rusqlite::Error::ToSqlConversionFailure(Box::new(error)))
}

/// Counts, sizes and places are stored as INTEGER (i64); a negative one reads as 0.
pub(super) fn non_negative(value: i64) -> usize {
    usize::try_from(value).unwrap_or_default()
}

/// A count, size or place to store: INTEGER is an i64.
pub(super) fn integer(value: usize) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}
