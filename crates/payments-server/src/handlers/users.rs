//! /api/users: search and live (Dev, users:read), one user (Dev, users:read), and a signed-in wallet's
//! own profile, heartbeat and follows (session + CSRF).

use payments_core::Wallet;
use serde::Serialize;

use crate::domain::scope::Scope;
use crate::domain::user::{FollowRequest, HeartbeatRequest, LiveQuery, ProfileRequest, User, UserSearch};
use crate::handlers::user_view::{LiveUserView, UserView};
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, Degraded, HttpResponse};

/// `{ users, total }`; degraded: `{ users: [], degraded: true, reason }` (the spec's degraded shape has no
/// `total`).
#[derive(Debug, Serialize)]
struct SearchResponse<'a> {
    users: Vec<UserView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<u64>,
    #[serde(flatten)]
    degraded: Option<Degraded>,
}

#[derive(Debug, Serialize)]
struct LiveResponse<'a> {
    live: Vec<LiveUserView<'a>>,
    #[serde(flatten)]
    degraded: Option<Degraded>,
}

#[derive(Debug, Serialize)]
struct SavedResponse<'a> {
    ok: bool,
    user: UserView<'a>,
}

#[derive(Debug, Serialize)]
struct FollowResponse {
    ok: bool,
    wallet: Wallet,
    following: bool,
    /// Whether this call changed anything (a repeated follow or unfollow is acknowledged).
    changed: bool,
}

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

pub(crate) async fn live(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    ctx.dev_caller(Scope::UsersRead).await?;
    let query = LiveQuery::parse(ctx.query("limit"), ctx.state.services.users.now_ms())?;
    let listing = ctx.state.services.users.live(query).await?;
    Ok(response::ok(&LiveResponse {
        live: listing.found.iter().map(LiveUserView::new).collect(),
        degraded: listing.degraded.then(Degraded::datastore_unavailable),
    }))
}

pub(crate) async fn get(ctx: &Ctx<'_>, wallet: &str) -> Result<HttpResponse, ApiError> {
    ctx.dev_caller(Scope::UsersRead).await?;
    let wallet = Wallet::parse(wallet).map_err(|_| not_a_user(wallet))?;
    let user = ctx.state.services.users.user(wallet).await?;
    Ok(response::ok(&UserView::new(
        &user,
        ctx.state.services.users.now_ms(),
    )))
}

pub(crate) async fn put_me(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let wallet = ctx.user_session().await?;
    let request: ProfileRequest = ctx.json().await?;
    let user = ctx.state.services.users.save_profile(wallet, request).await?;
    Ok(saved(ctx, &user))
}

pub(crate) async fn heartbeat(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let wallet = ctx.user_session().await?;
    let request: HeartbeatRequest = ctx.json().await?;
    let user = ctx.state.services.users.heartbeat(wallet, request).await?;
    Ok(saved(ctx, &user))
}

pub(crate) async fn follow(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let wallet = ctx.user_session().await?;
    let request: FollowRequest = ctx.json().await?;
    let (followed, changed) = ctx.state.services.users.follow(wallet, request).await?;
    Ok(response::ok(&FollowResponse {
        ok: true,
        wallet: followed,
        following: true,
        changed,
    }))
}

pub(crate) async fn unfollow(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let wallet = ctx.user_session().await?;
    let request: FollowRequest = ctx.json().await?;
    let (followed, changed) = ctx.state.services.users.unfollow(wallet, request).await?;
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
