//! Rendering results: aligned plain-text tables for people, JSON for scripts.

use std::io::{self, Write};

use anyhow::Context as _;
use serde::Serialize;

/// A plain-text table: a header row and left-aligned columns separated by two spaces.
#[derive(Debug, Default)]
pub(crate) struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub(crate) fn new<I, S>(header: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Table {
            header: header.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
        }
    }

    pub(crate) fn row<I, S>(&mut self, cells: I)
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.rows.push(cells.into_iter().map(Into::into).collect());
    }

    /// The table as text, one line per row, each ending with `\n`; trailing spaces are trimmed.
    pub(crate) fn render(&self) -> String {
        let columns = std::iter::once(&self.header)
            .chain(&self.rows)
            .map(Vec::len)
            .max()
            .unwrap_or(0);
        let mut widths = vec![0; columns];
        for row in std::iter::once(&self.header).chain(&self.rows) {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(display_width(cell));
            }
        }
        let mut out = String::new();
        for row in std::iter::once(&self.header).chain(&self.rows) {
            let mut line = String::new();
            for (index, cell) in row.iter().enumerate() {
                if index > 0 {
                    line.push_str("  ");
                }
                line.push_str(cell);
                let pad = widths[index].saturating_sub(display_width(cell));
                line.extend(std::iter::repeat_n(' ', pad));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// Cells are one line: newlines and tabs would break the alignment.
pub(crate) fn one_line(text: &str) -> String {
    text.replace(['\n', '\r', '\t'], " ")
}

fn display_width(text: &str) -> usize {
    text.chars().count()
}

/// Writes `text` to stdout.
///
/// # Errors
/// When stdout is closed (e.g. a pipe to `head`).
pub(crate) fn print_text(text: &str) -> anyhow::Result<()> {
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .context("cannot write to stdout")?;
    stdout.flush().context("cannot write to stdout")
}

/// Writes `value` as pretty JSON and a newline to stdout.
///
/// # Errors
/// When the value cannot be serialised or stdout is closed.
pub(crate) fn print_json<T: Serialize>(value: &T) -> anyhow::Result<()> {
    let mut text = serde_json::to_string_pretty(value).context("cannot render JSON")?;
    text.push('\n');
    print_text(&text)
}

/// [`utc`] of an unsigned Unix ms time.
pub(crate) fn utc_ms(ms: u64) -> String {
    utc(i64::try_from(ms).unwrap_or(i64::MAX))
}

/// A Unix ms time as UTC `YYYY-MM-DDTHH:MM:SSZ`, so people need not convert it (JSON keeps the number).
/// UTC rather than local time: the local offset needs a time-zone database dependency, and a `Z` time is
/// unambiguous in logs shared across machines.
pub(crate) fn utc(ms: i64) -> String {
    payments_core::utc_iso8601(ms)
}

#[cfg(test)]
mod tests {
    use super::{Table, utc};

    #[test]
    fn unix_ms_are_shown_as_utc() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(1_700_000_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(utc(951_782_400_000), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_735_689_599_999), "2024-12-31T23:59:59Z");
    }

    #[test]
    fn columns_are_padded_to_the_widest_cell() {
        let mut table = Table::new(["SKU", "NAME", "PRICE"]);
        table.row(["MUG-1", "Blue mug", "12.99"]);
        table.row(["T", "Tee", "5.00"]);
        assert_eq!(
            table.render(),
            "SKU    NAME      PRICE\nMUG-1  Blue mug  12.99\nT      Tee       5.00\n"
        );
    }
}
