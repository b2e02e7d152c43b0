//! GET /api/admin/reconcile (platform admin session): the database beside the chain for the records created
//! in `from`..`to` — payments into deposits, settlements, refunds, subscription charges — and every difference
//! (docs/money.md, "Reconciliation"). The same report as `payments-server reconcile`, for a server whose chain
//! lives inside it (test mode) or an operator without shell access.

use serde::Serialize;

use crate::api::handlers::exports::time_range;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};

/// One difference: what the database records and what the chain shows.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DifferenceView {
    /// `receipt:<id>` or `subscription:<id>[,<id>…]`.
    subject: String,
    /// What differs: `transfer <hash>:<log index>`, `amountReceivedBaseUnits`, `settlement`, `refund`, `charge
    /// of period <n>`.
    field: String,
    /// The database's value (`absent` when it has none).
    database: String,
    /// The chain's value (`absent` when it has none).
    chain: String,
}

/// How many records were compared.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CheckedView {
    receipts: usize,
    refunds: usize,
    charges: usize,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ReconcileView {
    /// No difference found.
    ok: bool,
    /// The newest block compared: the head less `--confirmations`.
    confirmed_head: u64,
    checked: CheckedView,
    differences: Vec<DifferenceView>,
}

/// Reconcile the database with the chain (platform admin session).
#[utoipa::path(
    get,
    path = "/api/admin/reconcile",
    operation_id = "reconcile",
    tag = "operations",
    security(("session_cookie" = [])),
    params(
        ("from" = Option<String>, Query, description = "Records created at or after this UTC date or time."),
        ("to" = Option<String>, Query, description = "Records created before this UTC date or time.")
    ),
    responses(
        (status = 200, description = "The comparison; `ok` is false when a difference was found.", body = ReconcileView),
        (status = 400, description = "from or to is not a UTC date or time, or to is not later (invalid_input).", body = crate::http::error::Envelope<'static>),
        (status = 401, description = "No admin session.", body = crate::http::error::Envelope<'static>),
        (status = 403, description = "The session is not a platform admin's (forbidden).", body = crate::http::error::Envelope<'static>),
        (status = 503, description = "The chain or the datastore could not be read.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn get(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let admin = ctx.admin_session(false).await?;
    if !admin.is_platform_admin() {
        return Err(ApiError::Forbidden {
            message: "reconciliation reads every merchant's records: a platform admin's session is needed"
                .to_owned(),
        });
    }
    let (from_ms, to_ms) = time_range(ctx)?;
    let report = ctx.state.services.reconcile.run(from_ms, to_ms).await?;
    Ok(response::ok(&ReconcileView {
        ok: report.differences.is_empty(),
        confirmed_head: report.confirmed_head,
        checked: CheckedView {
            receipts: report.receipts,
            refunds: report.refunds,
            charges: report.charges,
        },
        differences: report
            .differences
            .into_iter()
            .map(|difference| DifferenceView {
                subject: difference.subject,
                field: difference.field,
                database: difference.database,
                chain: difference.chain,
            })
            .collect(),
    }))
}
