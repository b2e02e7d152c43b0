//! `payments inventory import FILE.csv`: upsert many products, with progress and a per-row summary.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use payments_client::{Client, Error as ClientError, ErrorCode, UpsertInventoryItem};
use serde::Serialize;

use crate::output::{Table, one_line, print_json, print_text};
use crate::product_csv::{ColumnMap, read_rows};
use crate::report::{client_report, failure};

/// The `--help` text of `import`: the CSV format.
pub(crate) const LONG_ABOUT: &str = "\
Upsert every product of a CSV file, one request per row (an existing SKU is updated).

The first line names the columns, in any order; matching is case-insensitive:
  sku               required  stock-keeping unit
  name              required  display name
  priceUsd          required  unit price in USD, at most 2 decimals (12.99)
  stockQty          required  whole number; `unlimited` (or -1), 0 out of stock
  category          optional
  description       optional
  tags              optional  separated by ';' (blue;ceramic), at most 24
  taxable           optional  true/false (also yes/no, 1/0)
  jurisdictionCode  optional  tax jurisdiction, e.g. US-CA
  costUsd           optional  cost basis in USD
  industryPack      optional  e.g. general
Empty cells leave a field unset. Rows are numbered like the file's lines (the header is row 1).

A row that fails (unreadable value, more cells than the header has columns, or refused by the service) does
not stop the import. The summary lists each failed row with its error code and message, and the exit code
is 1 when any row failed. A transport failure (server down, unreachable, timing out) stops the import at
that row: the summary says how many rows were imported before it and how many were not tried. A row
answered 429 rate_limited waits for the quota reset (up to 60 s) and is sent again: upserts by SKU are
idempotent.";

/// Longest wait for a rate-limit reset before a row is counted as failed.
const MAX_RATE_LIMIT_WAIT: Duration = Duration::from_secs(60);
/// Times one row is sent again after a 429.
const RATE_LIMIT_RETRIES: u32 = 3;

#[derive(Debug, Args)]
pub(crate) struct ImportArgs {
    /// The CSV file (columns below).
    file: PathBuf,
}

/// A row that was not imported.
#[derive(Debug, Serialize)]
struct RowFailure {
    row: u64,
    sku: Option<String>,
    code: String,
    message: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Summary {
    rows: usize,
    imported: usize,
    failed: Vec<RowFailure>,
    /// Rows after a transport failure, not sent (the server is down: every further row would fail too).
    not_tried: usize,
}

pub(crate) async fn run(client: &Client, args: ImportArgs, json: bool) -> anyhow::Result<ExitCode> {
    let (columns, records) = read_file(&args.file)?;
    let progress = progress_bar(records.len());
    let mut summary = Summary {
        rows: records.len(),
        imported: 0,
        failed: Vec::new(),
        not_tried: 0,
    };
    let total = records.len();
    for (index, (row, record)) in records.into_iter().enumerate() {
        match columns.to_upsert(&record) {
            Err(message) => summary.failed.push(RowFailure {
                row,
                sku: columns.sku(&record).map(str::to_owned),
                code: "invalid_input".to_owned(),
                message,
            }),
            Ok(item) => match upsert_with_backoff(client, &item).await {
                Ok(()) => summary.imported += 1,
                Err(error) => {
                    let stop = matches!(error, ClientError::Transport { .. });
                    let report = client_report(&error);
                    summary.failed.push(RowFailure {
                        row,
                        sku: Some(item.sku),
                        code: report.code,
                        message: report.message,
                    });
                    if stop {
                        summary.not_tried = total - index - 1;
                        break;
                    }
                }
            },
        }
        progress.inc(1);
    }
    progress.finish_and_clear();
    if json {
        print_json(&summary)?;
    } else {
        print_text(&render(&summary))?;
    }
    if summary.failed.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    if summary.not_tried > 0 {
        return Err(failure(
            "import_stopped",
            format!(
                "the server could not be reached at row {}: {} rows imported before it, {} not tried",
                summary.failed.last().map_or(0, |failed| failed.row),
                summary.imported,
                summary.not_tried
            ),
        ));
    }
    Err(failure(
        "import_failed",
        format!("{} of {} rows failed", summary.failed.len(), summary.rows),
    ))
}

/// The header's column map and every data row with its row (line) number.
fn read_file(path: &std::path::Path) -> anyhow::Result<(ColumnMap, Vec<(u64, csv::StringRecord)>)> {
    let file = std::fs::File::open(path)
        .map_err(|err| failure("io_error", format!("cannot open {}: {err}", path.display())))?;
    read_rows(file).map_err(|message| failure("invalid_csv", message))
}

/// Sends one row; a 429 waits for the reset and tries again (safe: upserts by SKU are idempotent).
async fn upsert_with_backoff(client: &Client, item: &UpsertInventoryItem) -> Result<(), ClientError> {
    let mut retries_left = RATE_LIMIT_RETRIES;
    loop {
        match client.upsert_inventory_item(item).await {
            Ok(_) => return Ok(()),
            Err(ClientError::Api(api)) if api.code == ErrorCode::RateLimited && retries_left > 0 => {
                let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
                let wait = api.reset_at.map_or(Duration::from_secs(1), |reset| {
                    Duration::from_millis(reset).saturating_sub(now)
                });
                if wait > MAX_RATE_LIMIT_WAIT {
                    return Err(ClientError::Api(api));
                }
                retries_left -= 1;
                tokio::time::sleep(wait).await;
            }
            Err(error) => return Err(error),
        }
    }
}

/// A bar on stderr when it is a terminal; nothing at all in pipes and CI logs.
fn progress_bar(rows: usize) -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(rows as u64), target);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} rows {elapsed}") {
        bar.set_style(style);
    }
    bar
}

fn render(summary: &Summary) -> String {
    let mut text = format!(
        "imported {} of {} rows, {} failed",
        summary.imported,
        summary.rows,
        summary.failed.len()
    );
    if summary.not_tried > 0 {
        text.push_str(&format!(", {} not tried", summary.not_tried));
    }
    text.push('\n');
    if !summary.failed.is_empty() {
        let mut table = Table::new(["ROW", "SKU", "CODE", "MESSAGE"]);
        for failed in &summary.failed {
            table.row([
                failed.row.to_string(),
                one_line(failed.sku.as_deref().unwrap_or("")),
                failed.code.clone(),
                one_line(&failed.message),
            ]);
        }
        text.push_str(&table.render());
    }
    text
}
