//! GET /api/exports/ledger (Dev, receipts:read): every recorded money movement of the merchant as balanced
//! ledger entries, in CSV or JSON, streamed page by page (docs/ledger.md).

use bytes::Bytes;
use hyper::header::{CONTENT_DISPOSITION, CONTENT_TYPE, HeaderValue};
use hyper::{Response, StatusCode};
use payments_core::{Wallet, parse_utc_time};
use serde::Serialize;

use crate::domain::chain::PaymentChain;
use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::{ApiError, BoxError};
use crate::http::response::HttpResponse;
use crate::http::response_body::ResponseBody;
use crate::services::ledger::{LedgerEntry, LedgerPage, LedgerService, SplitDirectory};

/// Chunks (pages) buffered ahead of a slow reader: the export holds at most this many pages at once.
const PAGES_IN_FLIGHT: usize = 2;

/// The export's wire formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Csv,
    Json,
}

/// The `from`/`to` range in Unix ms (`from` inclusive, `to` exclusive) and the format.
fn parse_request(ctx: &Ctx<'_>) -> Result<((i64, i64), Format), ApiError> {
    let range = time_range(ctx)?;
    let format = match ctx.query("format").unwrap_or("json") {
        "json" => Format::Json,
        "csv" => Format::Csv,
        _ => {
            return Err(ApiError::invalid_input(
                Some("format".to_owned()),
                "format must be csv or json".to_owned(),
            ));
        }
    };
    Ok((range, format))
}

/// The `from`/`to` query range in Unix ms (`from` inclusive, `to` exclusive; each optional), as the ledger
/// export and reconciliation take it.
pub(crate) fn time_range(ctx: &Ctx<'_>) -> Result<(i64, i64), ApiError> {
    let time = |name: &str, default: i64| -> Result<i64, ApiError> {
        match ctx.query(name) {
            None => Ok(default),
            Some(text) => parse_utc_time(text).ok_or_else(|| {
                ApiError::invalid_input(
                    Some(name.to_owned()),
                    format!("{name} must be a UTC date (2026-01-31) or time (2026-01-31T12:00:00Z)"),
                )
            }),
        }
    };
    let range = (time("from", i64::MIN)?, time("to", i64::MAX)?);
    if range.0 >= range.1 {
        return Err(ApiError::invalid_input(
            Some("to".to_owned()),
            "to must be later than from".to_owned(),
        ));
    }
    Ok(range)
}

/// One entry as exported: amounts in the token's base units (integer text) and exact USD.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LedgerEntryView {
    /// Stable across exports: the source record and the entry's place in it.
    id: String,
    /// When the movement was recorded, UTC.
    time: String,
    /// payment, overpayment, refund, split_share, platform_fee or subscription_charge.
    movement: &'static str,
    receipt_id: Option<String>,
    subscription_id: Option<String>,
    transaction_hash: Option<String>,
    block_number: Option<u64>,
    /// The account the money went to (`deposit:<receiptId>`, `recipient:0x…`, `platform:0x…`, `buyer:0x…`,
    /// `merchant:0x…`).
    debit_account: String,
    /// The account it came from (`buyer:0x…`, `deposit:<receiptId>`, `customer:0x…`, `merchant:0x…`).
    credit_account: String,
    /// Token base units (6 decimals), integer text.
    base_units: String,
    /// The same amount in USD, exact (2 to 6 decimals), text.
    usd: String,
}

impl LedgerEntryView {
    /// The CSV cells, in `ledger_csv`'s column order (empty for absent values).
    pub(crate) fn cells(&self) -> [String; 11] {
        let text = |value: &Option<String>| value.clone().unwrap_or_default();
        [
            self.id.clone(),
            self.time.clone(),
            self.movement.to_owned(),
            text(&self.receipt_id),
            text(&self.subscription_id),
            text(&self.transaction_hash),
            self.block_number
                .map(|block| block.to_string())
                .unwrap_or_default(),
            self.debit_account.clone(),
            self.credit_account.clone(),
            self.base_units.clone(),
            self.usd.clone(),
        ]
    }

    fn of(entry: LedgerEntry) -> Self {
        LedgerEntryView {
            id: entry.id,
            time: payments_core::utc_iso8601(entry.at_ms),
            movement: entry.leg.movement.as_str(),
            receipt_id: entry.receipt_id,
            subscription_id: entry.subscription_id,
            transaction_hash: entry.transaction_hash,
            block_number: entry.block_number,
            debit_account: entry.leg.debit.to_string(),
            credit_account: entry.leg.credit.to_string(),
            base_units: entry.leg.amount.to_string(),
            usd: entry.leg.amount.to_usd_exact(),
        }
    }
}

/// The JSON export's shape (sent in pieces as pages are read).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct LedgerExport {
    success: bool,
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    merchant: Wallet,
    entries: Vec<LedgerEntryView>,
}

#[utoipa::path(
    get,
    path = "/api/exports/ledger",
    operation_id = "exportLedger",
    tag = "billing",
    security(("subscription_key" = [])),
    params(
        ("from" = Option<String>, Query, description = "UTC date (`2026-01-31`, its midnight) or time (`2026-01-31T12:00:00Z`); movements recorded at or after it. Default: the first."),
        ("to" = Option<String>, Query, description = "UTC date or time; movements recorded before it. Default: all."),
        ("format" = Option<String>, Query, description = "`json` (default) or `csv` (one row per entry, the same columns, header first).")
    ),
    responses(
        (status = 200, description = "The entries in time order, streamed. `format=json` (default): `{ success, merchant, entries }`; `format=csv`: a header row, then one row per entry with the same fields.", content((LedgerExport = "application/json"), (String = "text/csv; charset=utf-8"))),
        (status = 400, description = "A bad `from`, `to` or `format`.", body = crate::http::error::Envelope<'static>),
        (status = 401, description = "No valid key or session.", body = crate::http::error::Envelope<'static>),
        (status = 403, description = "The key lacks receipts:read.", body = crate::http::error::Envelope<'static>),
        (status = 503, description = "The datastore is unavailable.", body = crate::http::error::Envelope<'static>)
    )
)]
/// The merchant's ledger export.
///
/// One entry per money movement (payment, overpayment, refund, split share, platform fee, subscription
/// charge), each debiting one account and crediting another by the same amount. The first page is read
/// before answering, so a failure then is an error answer; a failure later breaks the transfer (never a
/// short export that looks complete).
pub(crate) async fn ledger(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::ReceiptsRead).await?;
    let (range, format) = parse_request(ctx)?;
    let service = ctx.state.services.ledger.clone();
    let chain = ctx.state.config.payment_chain();
    let splits = service.splits(caller.wallet).await?;
    let first = service.page(caller.wallet, chain, range, None, &splits).await?;
    let export = Export {
        service,
        merchant: caller.wallet,
        chain,
        range,
        splits,
        format,
    };
    let (sender, body) = ResponseBody::channel(PAGES_IN_FLIGHT);
    tokio::spawn(export.stream(first, sender));
    let mut response = Response::new(body);
    *response.status_mut() = StatusCode::OK;
    let (content_type, disposition) = match format {
        Format::Csv => ("text/csv; charset=utf-8", "attachment; filename=\"ledger.csv\""),
        Format::Json => ("application/json", "inline"),
    };
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(CONTENT_DISPOSITION, HeaderValue::from_static(disposition));
    Ok(response)
}

/// One running export.
struct Export {
    service: LedgerService,
    merchant: Wallet,
    chain: PaymentChain,
    range: (i64, i64),
    splits: SplitDirectory,
    format: Format,
}

type Chunks = tokio::sync::mpsc::Sender<Result<Bytes, BoxError>>;

impl Export {
    async fn stream(self, first: LedgerPage, chunks: Chunks) {
        let opening = match self.format {
            Format::Csv => super::ledger_csv::header(),
            Format::Json => {
                format!(r#"{{"success":true,"merchant":"{}","entries":["#, self.merchant).into_bytes()
            }
        };
        if chunks.send(Ok(Bytes::from(opening))).await.is_err() {
            return;
        }
        let mut page = first;
        let mut written = 0_usize;
        loop {
            let rendered = self.render(std::mem::take(&mut page.entries), &mut written);
            if chunks.send(rendered.map(Bytes::from)).await.is_err() {
                return;
            }
            let Some(after) = page.next else { break };
            page = match self
                .service
                .page(self.merchant, self.chain, self.range, Some(after), &self.splits)
                .await
            {
                Ok(next) => next,
                Err(error) => {
                    tracing::warn!(error = %error, "ledger export stopped by a read failure; the transfer is broken off");
                    let _ = chunks.send(Err(error.into())).await;
                    return;
                }
            };
        }
        if self.format == Format::Json {
            let _ = chunks.send(Ok(Bytes::from_static(b"]}"))).await;
        }
    }

    fn render(&self, entries: Vec<LedgerEntry>, written: &mut usize) -> Result<Vec<u8>, BoxError> {
        let views = entries.into_iter().map(LedgerEntryView::of);
        match self.format {
            Format::Csv => super::ledger_csv::rows(views),
            Format::Json => {
                let mut out = Vec::new();
                for view in views {
                    if *written > 0 {
                        out.push(b',');
                    }
                    serde_json::to_writer(&mut out, &view)?;
                    *written += 1;
                }
                Ok(out)
            }
        }
    }
}
