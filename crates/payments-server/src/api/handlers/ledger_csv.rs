//! The ledger export's CSV form: the JSON entry's fields as columns, header first. A text cell that a
//! spreadsheet would run as a formula (receipt ids are chosen by callers) is written with a leading `'`.

use crate::api::handlers::exports::LedgerEntryView;
use crate::http::error::BoxError;

const COLUMNS: [&str; 11] = [
    "id",
    "time",
    "movement",
    "receiptId",
    "subscriptionId",
    "transactionHash",
    "blockNumber",
    "debitAccount",
    "creditAccount",
    "baseUnits",
    "usd",
];

pub(crate) fn header() -> Vec<u8> {
    let mut line = COLUMNS.join(",");
    line.push_str("\r\n");
    line.into_bytes()
}

/// The rows of `entries`.
pub(crate) fn rows(entries: impl Iterator<Item = LedgerEntryView>) -> Result<Vec<u8>, BoxError> {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    for entry in entries {
        writer.write_record(entry.cells().iter().map(|cell| inert(cell).into_owned()))?;
    }
    writer.into_inner().map_err(|error| error.into_error().into())
}

/// `text`, with a `'` in front when a spreadsheet would read it as a formula.
fn inert(text: &str) -> std::borrow::Cow<'_, str> {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}").into()
    } else {
        text.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_like_cells_are_made_inert_and_others_kept() {
        assert_eq!(inert("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(inert("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(inert("order-1"), "order-1");
        assert_eq!(inert(""), "");
    }

    #[test]
    fn the_header_names_every_column_once() {
        let header = String::from_utf8(header()).unwrap();
        assert_eq!(header.trim_end().split(',').count(), COLUMNS.len());
    }
}
