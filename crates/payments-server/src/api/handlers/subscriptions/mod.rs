//! /api/subscriptions/create, /status, /cancel. Creating needs no key: the customer's EIP-712 signature over
//! the spend permission is the proof. Cancel needs the customer (signed-in session of the wallet, or its
//! EIP-712 `CancelSubscription` signature) or the merchant's own session.

pub(crate) mod change;
pub(crate) mod cron;
pub(crate) mod permission;
pub(crate) mod plan_webhooks;
pub(crate) mod plans;
pub(crate) mod view;

use hyper::StatusCode;
use serde::Serialize;

use crate::api::handlers::subscriptions::plans::MerchantCaller;
use crate::api::handlers::subscriptions::view::SubscriptionView;
use crate::api::wire::charges::BillingEvent;
use crate::api::wire::subscriptions::{CancelRequest, CreateSubscriptionRequest};
use crate::domain::recurring::{self, CustomerSubscription, StatusQuery};
use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::idempotency::{self, RenderContext};
use crate::http::response::{self, HttpResponse};
use crate::services::recurring::CancelAuthority;

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct SubscriptionResponse<'a> {
    success: bool,
    subscription: SubscriptionView<'a>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct StatusResponse<'a> {
    success: bool,
    subscriptions: Vec<SubscriptionView<'a>>,
    /// With `subscriptionId` only: the subscription's charge attempts, oldest first.
    #[serde(skip_serializing_if = "Option::is_none")]
    billing_events: Option<Vec<BillingEvent<'a>>>,
}

/// Subscribes a customer with an EIP-712 signed spend permission (the signature is the proof; no key).
#[utoipa::path(
    post,
    path = "/api/subscriptions/create",
    operation_id = "createSubscription",
    tag = "subscriptions",
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retried create safe (per customerWallet): the same key and body answer the first answer again; the same key with another body is 409 idempotency_conflict.")
    ),
    request_body = CreateSubscriptionRequest,
    responses(
        (status = 201, description = "The active subscription.", body = SubscriptionResponse<'static>),
        (status = 409, description = "The Idempotency-Key was used with another body (idempotency_conflict).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn create(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let request = recurring::CreateSubscriptionRequest::from(ctx.json::<CreateSubscriptionRequest>().await?);
    let claim = idempotency::claim(ctx)?;
    let committed = ctx.state.services.recurring.subscribe(&request, claim).await?;
    Ok(idempotency::answer(ctx, committed, render_created).await)
}

/// `201 { success, subscription }`: the fresh answer and the one kept under an `Idempotency-Key`.
fn render_created(subscription: &CustomerSubscription, _: &RenderContext) -> (StatusCode, Vec<u8>) {
    idempotency::json_body(
        StatusCode::CREATED,
        &SubscriptionResponse {
            success: true,
            subscription: SubscriptionView::new(subscription),
        },
    )
}

/// Subscriptions by id, customer or merchant (exactly one query parameter). By id and by customer need no
/// credential (as the spec says); by merchant needs the merchant: its key with subscriptions:read, or its
/// session.
#[utoipa::path(
    get,
    path = "/api/subscriptions/status",
    operation_id = "subscriptionStatus",
    tag = "subscriptions",
    security((), ("subscription_key" = []), ("session_cookie" = [])),
    params(
        ("subscriptionId" = Option<String>, Query, description = "One subscription, with its billing events."),
        ("customer" = Option<String>, Query, description = "A customer wallet's subscriptions."),
        ("merchant" = Option<String>, Query, description = "A merchant wallet's subscriptions: only the merchant's key (subscriptions:read) or session.")
    ),
    responses(
        (status = 200, description = "The subscriptions.", body = StatusResponse<'static>),
        (status = 400, description = "Not exactly one query parameter, or a malformed one.", body = crate::http::error::Envelope<'static>),
        (status = 401, description = "By merchant without the merchant's key or session (unauthorized).", body = crate::http::error::Envelope<'static>),
        (status = 403, description = "By merchant with another merchant's key or session, or a key without subscriptions:read (forbidden).", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No such subscription.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn status(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let query = StatusQuery::parse(
        ctx.query("subscriptionId"),
        ctx.query("customer"),
        ctx.query("merchant"),
    )?;
    if let StatusQuery::Merchant(merchant) = &query {
        // A merchant's list names every subscriber wallet and price: only the merchant may read it.
        MerchantCaller::reading(ctx, Scope::SubscriptionsRead)
            .await?
            .acting_for(Some(*merchant))?;
    }
    let service = &ctx.state.services.recurring;
    let subscriptions = service.status(&query).await?;
    let billing_events = match &query {
        StatusQuery::Id(id) if !subscriptions.is_empty() => Some(service.billing_events(id).await?),
        StatusQuery::Id(id) => {
            return Err(ApiError::NotFound {
                message: format!("subscription {} not found", id.as_str()),
            });
        }
        StatusQuery::Customer(_) | StatusQuery::Merchant(_) => None,
    };
    Ok(response::ok(&StatusResponse {
        success: true,
        subscriptions: subscriptions.iter().map(SubscriptionView::new).collect(),
        billing_events: billing_events
            .as_deref()
            .map(|events| events.iter().map(BillingEvent::from).collect()),
    }))
}

/// Cancels a subscription: the customer (session, or its EIP-712 CancelSubscription signature) or the merchant.
#[utoipa::path(
    post,
    path = "/api/subscriptions/cancel",
    operation_id = "cancelSubscription",
    tag = "subscriptions",
    security((), ("session_cookie" = [], "csrf_token" = [])),
    request_body = CancelRequest,
    responses(
        (status = 200, description = "The canceled subscription.", body = SubscriptionResponse<'static>),
        (status = 404, description = "No such subscription.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn cancel(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let session = if ctx.has_session_cookie() {
        Some(ctx.admin_session(true).await?.wallet)
    } else {
        None
    };
    let request = recurring::CancelRequest::from(ctx.json::<CancelRequest>().await?);
    let (id, wallet) = request.parse()?;
    let authority = match (session, request.signature) {
        (Some(signed_in), _) => CancelAuthority::Session(signed_in),
        (None, Some(signature)) => CancelAuthority::Signature(signature),
        (None, None) => {
            return Err(ApiError::AdminUnauthorized {
                message: "sign in as the customer or send the customer's CancelSubscription signature"
                    .to_owned(),
            });
        }
    };
    let subscription = ctx
        .state
        .services
        .recurring
        .cancel(&id, wallet, &authority)
        .await?;
    Ok(response::ok(&SubscriptionResponse {
        success: true,
        subscription: SubscriptionView::new(&subscription),
    }))
}
