//! /api/auth: sign-in nonce, EIP-712 login, logout, whoami, and session revocation (platform admins).

use payments_core::{AdminLogin, Wallet};
use serde::{Deserialize, Serialize};

use crate::domain::admin::Role;
use crate::domain::field_error::FieldError;
use crate::http::admin::{self, AdminSession};
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::services::admin_auth::LoginAttempt;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct LoginRequest {
    wallet: Wallet,
    nonce: String,
    /// Unix seconds.
    issued_at: u64,
    signature: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RevokeRequest {
    wallet: Wallet,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct LoginResponse<'a> {
    ok: bool,
    wallet: Wallet,
    roles: &'a [Role],
    csrf_token: &'a str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct MeResponse<'a> {
    wallet: Wallet,
    roles: &'a [Role],
    expires_at: i64,
}

/// Counts a sign-in request against its client address: the sign-in routes need no credentials, so without
/// this anyone could fill the nonce table or grind logins. In-process calls (no address) are not counted.
fn count_sign_in(ctx: &Ctx<'_>) -> Result<(), ApiError> {
    match ctx.peer_ip() {
        Some(ip) => ctx.count_against(&ctx.state.sign_in_limits, &ip),
        None => Ok(()),
    }
}

pub(crate) async fn nonce(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    count_sign_in(ctx)?;
    let wallet = Wallet::parse(ctx.required_query("wallet")?)
        .map_err(|error| FieldError::new("wallet", error.to_string()))?;
    let nonce = ctx.state.services.admin_auth.issue_nonce(wallet).await?;
    Ok(response::ok(&serde_json::json!({ "nonce": nonce.expose() })))
}

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
        roles: &granted.roles,
        csrf_token: granted.csrf_token.expose(),
    });
    admin::set_session_cookie(&mut reply, &granted.token, ctx.state.config.dev_mode);
    Ok(reply)
}

pub(crate) async fn logout(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let admin = ctx.admin_session(true).await?;
    ctx.state.services.admin_auth.logout(admin.session_id).await?;
    let mut reply = response::ok(&serde_json::json!({ "ok": true }));
    admin::clear_session_cookie(&mut reply, ctx.state.config.dev_mode);
    Ok(reply)
}

pub(crate) async fn me(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let AdminSession {
        wallet,
        roles,
        expires_at_ms,
        ..
    } = ctx.admin_session(false).await?;
    Ok(response::ok(&MeResponse {
        wallet,
        roles: &roles,
        expires_at: expires_at_ms,
    }))
}

pub(crate) async fn revoke_sessions(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let admin = ctx.admin_session(true).await?;
    let request: RevokeRequest = ctx.json().await?;
    let revoked = ctx
        .state
        .services
        .admin_auth
        .revoke_sessions(&admin.roles, request.wallet)
        .await?;
    Ok(response::ok(&serde_json::json!({
        "ok": true, "wallet": request.wallet, "revoked": revoked
    })))
}
