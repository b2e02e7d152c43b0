//! /api/users: search and live (Dev, users:read), one user (Dev, users:read), and a signed-in wallet's
//! own profile, heartbeat and follows (session + CSRF).

pub(crate) mod view;

use payments_core::Wallet;
use serde::Serialize;

use crate::api::handlers::users::view::{LiveUserView, UserView};
use crate::api::wire::users::{FollowRequest, HeartbeatRequest, ProfileRequest};
use crate::domain::scope::Scope;
use crate::domain::user::{LiveQuery, User, UserSearch};
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, Degraded, HttpResponse};

/// `{ users, total }`; degraded: `{ users: [], degraded: true, reason }` (the spec's degraded shape has no
/// `total`).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = UserSearchResponse)]
struct SearchResponse<'a> {
    users: Vec<UserView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<u64>,
    #[serde(flatten)]
    degraded: Option<Degraded>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = LiveUsersResponse)]
struct LiveResponse<'a> {
    live: Vec<LiveUserView<'a>>,
    #[serde(flatten)]
    degraded: Option<Degraded>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = UserSavedResponse)]
struct SavedResponse<'a> {
    ok: bool,
    user: UserView<'a>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct FollowResponse {
    ok: bool,
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    wallet: Wallet,
    following: bool,
    /// Whether this call changed anything (a repeated follow or unfollow is acknowledged).
    changed: bool,
}

/// Searches users, by XP descending (users:read).
#[utoipa::path(
    get,
    path = "/api/users/search",
    operation_id = "searchUsers",
    tag = "users",
    security(("subscription_key" = [])),
    params(
        ("q" = Option<String>, Query, description = "Case-insensitive, over wallet and displayName."),
        ("domains" = Option<String>, Query, description = "Comma-separated; the user must have all."),
        ("platforms" = Option<String>, Query, description = "Comma-separated; the user must have all."),
        ("languages" = Option<String>, Query, description = "Comma-separated; the user must have all."),
        ("minXp" = Option<f64>, Query, description = "Lowest XP."),
        ("maxXp" = Option<f64>, Query, description = "Highest XP."),
        ("live" = Option<bool>, Query, description = "Only users live now with a public space."),
        ("limit" = Option<u32>, Query, description = "Clamped to 1..100 (default 25)."),
        ("scan" = Option<u32>, Query, description = "Items scanned before filtering, clamped to [limit, 1000] (default 400).")
    ),
    responses(
        (status = 200, description = "The users; degraded: no users, degraded and reason.", body = SearchResponse<'static>),
        (status = 400, description = "A query parameter is invalid (invalid_input).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn search(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    ctx.dev_caller(Scope::UsersRead).await?;
    let now_ms = ctx.state.services.users.now_ms();
    let search = UserSearch::parse(ctx.raw_query().len(), |name| ctx.query(name), now_ms)?;
    let listing = ctx.state.services.users.search(&search).await?;
    Ok(response::ok(&SearchResponse {
        users: views(&listing.found.users, now_ms),
        total: (!listing.degraded).then_some(listing.found.total),
        degraded: listing.degraded.then(Degraded::datastore_unavailable),
    }))
}

/// Users live now with a public space (users:read).
#[utoipa::path(
    get,
    path = "/api/users/live",
    operation_id = "liveUsers",
    tag = "users",
    security(("subscription_key" = [])),
    params(
        ("limit" = Option<u32>, Query, description = "At most this many.")
    ),
    responses(
        (status = 200, description = "The live users.", body = LiveResponse<'static>),
        (status = 400, description = "limit is invalid (invalid_input).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn live(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    ctx.dev_caller(Scope::UsersRead).await?;
    let query = LiveQuery::parse(ctx.query("limit"), ctx.state.services.users.now_ms())?;
    let listing = ctx.state.services.users.live(query).await?;
    Ok(response::ok(&LiveResponse {
        live: listing.found.iter().map(LiveUserView::new).collect(),
        degraded: listing.degraded.then(Degraded::datastore_unavailable),
    }))
}

/// One user (users:read).
#[utoipa::path(
    get,
    path = "/api/users/{wallet}",
    operation_id = "getUser",
    tag = "users",
    security(("subscription_key" = [])),
    params(
        ("wallet" = String, Path, description = "The user's wallet.")
    ),
    responses(
        (status = 200, description = "The user.", body = crate::api::handlers::users::view::UserView<'static>),
        (status = 404, description = "No user with this wallet of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn get(ctx: &Ctx<'_>, wallet: &str) -> Result<HttpResponse, ApiError> {
    ctx.dev_caller(Scope::UsersRead).await?;
    let wallet = Wallet::parse(wallet).map_err(|_| not_a_user(wallet))?;
    let user = ctx.state.services.users.user(wallet).await?;
    Ok(response::ok(&UserView::new(
        &user,
        ctx.state.services.users.now_ms(),
    )))
}

/// Saves the signed-in wallet's profile (session + CSRF).
#[utoipa::path(
    put,
    path = "/api/users/me",
    operation_id = "putMyProfile",
    tag = "users",
    security(("session_cookie" = [], "csrf_token" = [])),
    request_body = ProfileRequest,
    responses(
        (status = 200, description = "The saved user.", body = SavedResponse<'static>)
    )
)]
pub(crate) async fn put_me(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let wallet = ctx.user_session().await?;
    let request: ProfileRequest = ctx.json().await?;
    let user = ctx
        .state
        .services
        .users
        .save_profile(wallet, request.into())
        .await?;
    Ok(saved(ctx, &user))
}

/// Marks the signed-in wallet live (or not) (session + CSRF).
#[utoipa::path(
    post,
    path = "/api/users/heartbeat",
    operation_id = "userHeartbeat",
    tag = "users",
    security(("session_cookie" = [], "csrf_token" = [])),
    request_body = HeartbeatRequest,
    responses(
        (status = 200, description = "The saved user.", body = SavedResponse<'static>)
    )
)]
pub(crate) async fn heartbeat(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let wallet = ctx.user_session().await?;
    let request: HeartbeatRequest = ctx.json().await?;
    let user = ctx.state.services.users.heartbeat(wallet, request.into()).await?;
    Ok(saved(ctx, &user))
}

/// Follows a wallet (session + CSRF).
#[utoipa::path(
    post,
    path = "/api/users/follows",
    operation_id = "followUser",
    tag = "users",
    security(("session_cookie" = [], "csrf_token" = [])),
    request_body = FollowRequest,
    responses(
        (status = 200, description = "Following; changed is false when it already was.", body = FollowResponse),
        (status = 404, description = "No user with this wallet of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn follow(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let wallet = ctx.user_session().await?;
    let request: FollowRequest = ctx.json().await?;
    let (followed, changed) = ctx.state.services.users.follow(wallet, request.into()).await?;
    Ok(response::ok(&FollowResponse {
        ok: true,
        wallet: followed,
        following: true,
        changed,
    }))
}

/// Stops following a wallet (session + CSRF).
#[utoipa::path(
    delete,
    path = "/api/users/follows",
    operation_id = "unfollowUser",
    tag = "users",
    security(("session_cookie" = [], "csrf_token" = [])),
    request_body = FollowRequest,
    responses(
        (status = 200, description = "Not following; changed is false when it already was not.", body = FollowResponse)
    )
)]
pub(crate) async fn unfollow(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let wallet = ctx.user_session().await?;
    let request: FollowRequest = ctx.json().await?;
    let (followed, changed) = ctx.state.services.users.unfollow(wallet, request.into()).await?;
    Ok(response::ok(&FollowResponse {
        ok: true,
        wallet: followed,
        following: false,
        changed,
    }))
}

fn saved(ctx: &Ctx<'_>, user: &User) -> HttpResponse {
    response::ok(&SavedResponse {
        ok: true,
        user: UserView::new(user, ctx.state.services.users.now_ms()),
    })
}

fn views(users: &[User], now_ms: i64) -> Vec<UserView<'_>> {
    users.iter().map(|user| UserView::new(user, now_ms)).collect()
}

fn not_a_user(wallet: &str) -> ApiError {
    ApiError::NotFound {
        message: format!(
            "no user with wallet {}",
            wallet.chars().take(64).collect::<String>()
        ),
    }
}
