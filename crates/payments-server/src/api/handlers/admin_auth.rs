//! /api/auth: sign-in nonce, EIP-712 login, logout, whoami, and session revocation (platform admins).

use payments_core::{AdminLogin, Wallet};
use serde::{Deserialize, Serialize};

use crate::api::wire::admin::{Role, roles};
use crate::domain::field_error::FieldError;
use crate::http::admin::{self, AdminSession};
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::services::admin_auth::LoginAttempt;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct LoginRequest {
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    wallet: Wallet,
    nonce: String,
    /// Unix seconds.
    issued_at: u64,
    signature: String,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct RevokeRequest {
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    wallet: Wallet,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct LoginResponse<'a> {
    ok: bool,
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    wallet: Wallet,
    roles: Vec<Role>,
    csrf_token: &'a str,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct MeResponse {
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    wallet: Wallet,
    roles: Vec<Role>,
    expires_at: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct NonceResponse {
    /// Sign it in the EIP-712 login message within its lifetime.
    nonce: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = AuthOkResponse)]
struct OkResponse {
    ok: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct RevokeResponse {
    ok: bool,
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    wallet: Wallet,
    /// How many live sessions were ended.
    revoked: u64,
}

/// Counts a sign-in request against its client address: the sign-in routes need no credentials, so without
/// this anyone could fill the nonce table or grind logins. In-process calls (no address) are not counted.
fn count_sign_in(ctx: &Ctx<'_>) -> Result<(), ApiError> {
    match ctx.peer_ip() {
        Some(ip) => ctx.count_against(&ctx.state.sign_in_limits, &ip),
        None => Ok(()),
    }
}

/// A one-time sign-in nonce for a wallet (rate-limited per client address).
#[utoipa::path(
    get,
    path = "/api/auth/nonce",
    operation_id = "authNonce",
    tag = "auth",
    params(
        ("wallet" = String, Query, description = "The wallet that will sign in.")
    ),
    responses(
        (status = 200, description = "The nonce to sign.", body = NonceResponse),
        (status = 400, description = "wallet is missing or malformed (invalid_input).", body = crate::http::error::Envelope<'static>),
        (status = 429, description = "Too many sign-in requests from this address (rate_limited, resetAt).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn nonce(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    count_sign_in(ctx)?;
    let wallet = Wallet::parse(ctx.required_query("wallet")?)
        .map_err(|error| FieldError::new("wallet", error.to_string()))?;
    let nonce = ctx.state.services.admin_auth.issue_nonce(wallet).await?;
    Ok(response::ok(&NonceResponse {
        nonce: nonce.expose().to_owned(),
    }))
}

/// Signs in with an EIP-712 signature over the nonce; sets the cb_auth_token cookie and returns the CSRF token.
#[utoipa::path(
    post,
    path = "/api/auth/login",
    operation_id = "authLogin",
    tag = "auth",
    request_body = LoginRequest,
    responses(
        (status = 200, description = "Signed in.", body = LoginResponse<'static>, headers(("Set-Cookie" = String, description = "cb_auth_token session cookie"))),
        (status = 401, description = "The signature, nonce or time is refused (unauthorized).", body = crate::http::error::Envelope<'static>),
        (status = 429, description = "Too many sign-in requests from this address (rate_limited, resetAt).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn login(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    count_sign_in(ctx)?;
    let request: LoginRequest = ctx.json().await?;
    let attempt = LoginAttempt {
        login: AdminLogin {
            wallet: request.wallet,
            nonce: request.nonce,
            issued_at_secs: request.issued_at,
        },
        signature: request.signature,
    };
    let granted = ctx.state.services.admin_auth.login(attempt).await?;
    let mut reply = response::ok(&LoginResponse {
        ok: true,
        wallet: granted.wallet,
        roles: roles(&granted.roles),
        csrf_token: granted.csrf_token.expose(),
    });
    admin::set_session_cookie(&mut reply, &granted.token, ctx.state.config.dev_mode);
    Ok(reply)
}

/// Ends the session and clears the cookie.
#[utoipa::path(
    post,
    path = "/api/auth/logout",
    operation_id = "authLogout",
    tag = "auth",
    security(("session_cookie" = [], "csrf_token" = [])),
    responses(
        (status = 200, description = "Signed out.", body = OkResponse)
    )
)]
pub(crate) async fn logout(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let admin = ctx.admin_session(true).await?;
    ctx.state.services.admin_auth.logout(admin.session_id).await?;
    let mut reply = response::ok(&OkResponse { ok: true });
    admin::clear_session_cookie(&mut reply, ctx.state.config.dev_mode);
    Ok(reply)
}

/// The signed-in wallet, its roles and when the session ends.
#[utoipa::path(
    get,
    path = "/api/auth/me",
    operation_id = "authMe",
    tag = "auth",
    security(("session_cookie" = [])),
    responses(
        (status = 200, description = "The session.", body = MeResponse)
    )
)]
pub(crate) async fn me(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let AdminSession {
        wallet,
        roles: session_roles,
        expires_at_ms,
        ..
    } = ctx.admin_session(false).await?;
    Ok(response::ok(&MeResponse {
        wallet,
        roles: roles(&session_roles),
        expires_at: expires_at_ms,
    }))
}

/// Ends every session of a wallet (its own, or any for a platform admin).
#[utoipa::path(
    post,
    path = "/api/auth/sessions/revoke",
    operation_id = "authRevokeSessions",
    tag = "auth",
    security(("session_cookie" = [], "csrf_token" = [])),
    request_body = RevokeRequest,
    responses(
        (status = 200, description = "The sessions ended.", body = RevokeResponse)
    )
)]
pub(crate) async fn revoke_sessions(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let admin = ctx.admin_session(true).await?;
    let request: RevokeRequest = ctx.json().await?;
    let revoked = ctx
        .state
        .services
        .admin_auth
        .revoke_sessions(&admin.roles, request.wallet)
        .await?;
    Ok(response::ok(&RevokeResponse {
        ok: true,
        wallet: request.wallet,
        revoked,
    }))
}
