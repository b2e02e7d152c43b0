//! /api/subscriptions/plans: the public list of a merchant's active plans, and the merchant's writes (a key
//! of that wallet with `subscriptions:write`, or the merchant's admin session with CSRF). A body `wallet`
//! that is not the caller's is 403 `forbidden`. A `webhookUrl` is signed with the writing request's API key,
//! so a session (no key) that sets one is 400 `webhook_requires_key`.

use hyper::StatusCode;
use payments_core::Wallet;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::api::handlers::receipts::target_policy;
use crate::api::handlers::subscriptions::view::PlanView;
use crate::api::wire::plans::{CreatePlanRequest, DeletePlanRequest, UpdatePlanRequest};
use crate::domain::recurring::{self, Plan, PlanChange};
use crate::domain::scope::Scope;
use crate::http::admin::AdminSession;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::idempotency::{self, RenderContext};
use crate::http::response::{self, HttpResponse};

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct PlansResponse<'a> {
    success: bool,
    plans: Vec<PlanView<'a>>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct PlanResponse<'a> {
    success: bool,
    plan: PlanView<'a>,
}

/// Who writes a plan: a key's merchant, or a signed-in merchant (platform admins may name any wallet).
pub(crate) enum MerchantCaller {
    Key(Wallet),
    Session(AdminSession),
}

impl MerchantCaller {
    /// A session cookie without Dev credentials is the admin path; anything else is a Dev route.
    pub(crate) async fn of(ctx: &Ctx<'_>, scope: Scope) -> Result<Self, ApiError> {
        if ctx.has_session_cookie() && !ctx.has_dev_credentials() {
            return Ok(MerchantCaller::Session(ctx.admin_session(true).await?));
        }
        Ok(MerchantCaller::Key(ctx.dev_caller(scope).await?.wallet))
    }

    /// As [`MerchantCaller::of`] for a read: a session needs no CSRF token (a read changes nothing).
    pub(crate) async fn reading(ctx: &Ctx<'_>, scope: Scope) -> Result<Self, ApiError> {
        if ctx.has_session_cookie() && !ctx.has_dev_credentials() {
            return Ok(MerchantCaller::Session(ctx.admin_session(false).await?));
        }
        Ok(MerchantCaller::Key(ctx.dev_caller(scope).await?.wallet))
    }

    /// The merchant a write acts for; another merchant's wallet in the body is 403 `forbidden`.
    pub(crate) fn acting_for(&self, requested: Option<Wallet>) -> Result<Wallet, ApiError> {
        match self {
            MerchantCaller::Session(session) => session.acting_for(requested),
            MerchantCaller::Key(wallet) => match requested {
                Some(requested) if requested != *wallet => Err(ApiError::Forbidden {
                    message: format!("this key acts for {wallet}, not {requested}"),
                }),
                _ => Ok(*wallet),
            },
        }
    }

    /// Whether the reader of the public plan list is `merchant` itself: its session (or a platform admin's),
    /// or a key of that wallet with `subscriptions:read`. Only the merchant sees its plans' webhook targets (a receiver's URL may
    /// carry its secret token); credentials that do not resolve leave an anonymous reader, as before.
    pub(crate) async fn is_merchant(ctx: &Ctx<'_>, merchant: Wallet) -> bool {
        if ctx.has_session_cookie() && !ctx.has_dev_credentials() {
            return matches!(ctx.admin_session(false).await, Ok(session) if session.acting_for(Some(merchant)).is_ok());
        }
        ctx.has_dev_credentials()
            && matches!(ctx.dev_caller(Scope::SubscriptionsRead).await, Ok(caller) if caller.wallet == merchant)
    }
}

/// A merchant's active plans (public).
#[utoipa::path(
    get,
    path = "/api/subscriptions/plans",
    operation_id = "listSubscriptionPlans",
    tag = "subscriptions",
    params(("wallet" = String, Query, description = "The merchant wallet.")),
    responses(
        (status = 200, description = "The active plans; webhookUrl only when the merchant itself asks (its session, or its key with subscriptions:read).", body = PlansResponse<'static>),
        (status = 400, description = "A missing or malformed wallet.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn list(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let wallet = Wallet::parse(ctx.required_query("wallet")?).map_err(|_| {
        ApiError::invalid_input(
            Some("wallet".to_owned()),
            "wallet: must be a 0x address".to_owned(),
        )
    })?;
    let plans = ctx.state.services.recurring.active_plans(wallet).await?;
    let view = if MerchantCaller::is_merchant(ctx, wallet).await {
        PlanView::new
    } else {
        PlanView::public
    };
    Ok(response::ok(&PlansResponse {
        success: true,
        plans: plans.iter().map(view).collect(),
    }))
}

/// Creates a plan (the merchant: key with subscriptions:write, or admin session + CSRF).
#[utoipa::path(
    post,
    path = "/api/subscriptions/plans",
    operation_id = "createSubscriptionPlan",
    tag = "subscriptions",
    security(("subscription_key" = []), ("session_cookie" = [], "csrf_token" = [])),
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retried create safe (per merchant): the same key and body answer the first answer again; the same key with another body is 409 idempotency_conflict.")
    ),
    request_body = CreatePlanRequest,
    responses(
        (status = 201, description = "The new plan.", body = PlanResponse<'static>),
        (status = 400, description = "A malformed field (invalid_input), or a webhookUrl from an admin session, which has no API key to sign with (webhook_requires_key).", body = crate::http::error::Envelope<'static>),
        (status = 409, description = "The Idempotency-Key was used with another body (idempotency_conflict).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn create(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = MerchantCaller::of(ctx, Scope::SubscriptionsWrite).await?;
    let request = recurring::CreatePlanRequest::from(ctx.json::<CreatePlanRequest>().await?);
    let merchant = caller.acting_for(request.wallet()?)?;
    let service = &ctx.state.services.recurring;
    let plan = request.into_plan(merchant, service.now_ms(), target_policy(ctx))?;
    let claim = idempotency::claim(ctx)?;
    let committed = service
        .create_plan(plan, ctx.presented_key().as_ref(), claim)
        .await?;
    Ok(idempotency::answer(ctx, committed, render_created).await)
}

/// `201 { success, plan }`: the fresh answer and the one kept under an `Idempotency-Key`.
fn render_created(plan: &Plan, _: &RenderContext) -> (StatusCode, Vec<u8>) {
    idempotency::json_body(
        StatusCode::CREATED,
        &PlanResponse {
            success: true,
            plan: PlanView::new(plan),
        },
    )
}

/// Updates a plan (the merchant).
#[utoipa::path(
    put,
    path = "/api/subscriptions/plans",
    operation_id = "updateSubscriptionPlan",
    tag = "subscriptions",
    security(("subscription_key" = []), ("session_cookie" = [], "csrf_token" = [])),
    request_body = UpdatePlanRequest,
    responses(
        (status = 200, description = "The updated plan.", body = PlanResponse<'static>),
        (status = 400, description = "A malformed field (invalid_input), or a webhookUrl from an admin session, which has no API key to sign with (webhook_requires_key).", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No such plan of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn update(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    change::<UpdatePlanRequest, recurring::UpdatePlanRequest>(ctx).await
}

/// Deactivates a plan: no new subscriptions, existing ones unaffected (the merchant).
#[utoipa::path(
    delete,
    path = "/api/subscriptions/plans",
    operation_id = "deactivateSubscriptionPlan",
    tag = "subscriptions",
    security(("subscription_key" = []), ("session_cookie" = [], "csrf_token" = [])),
    request_body = DeletePlanRequest,
    responses(
        (status = 200, description = "The deactivated plan.", body = PlanResponse<'static>),
        (status = 404, description = "No such plan of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn delete(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    change::<DeletePlanRequest, recurring::DeletePlanRequest>(ctx).await
}

/// A merchant's change to one of its plans (an edit or a deactivation), answered with the plan as stored.
async fn change<W, R>(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError>
where
    W: DeserializeOwned + Into<R>,
    R: PlanChange,
{
    let caller = MerchantCaller::of(ctx, Scope::SubscriptionsWrite).await?;
    let request: R = ctx.json::<W>().await?.into();
    let merchant = caller.acting_for(request.wallet()?)?;
    let service = &ctx.state.services.recurring;
    let update = request.into_update(merchant, service.now_ms(), target_policy(ctx))?;
    let plan = service.update_plan(update, ctx.presented_key().as_ref()).await?;
    Ok(response::ok(&PlanResponse {
        success: true,
        plan: PlanView::new(&plan),
    }))
}
