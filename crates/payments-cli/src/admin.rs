//! `payments admin login | me | logout`: an admin session for the commands that need one (split deploy,
//! refunds, terminal sales, marking receipts paid), which a subscription key cannot authorize.
//!
//! Signing in once and storing the session (12 hours) spares each command the private key: only `login`
//! reads it. The tokens stay in the session file; nothing here prints them.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};
use payments_client::{AdminRole, Error as ClientError};
use payments_core::Wallet;
use serde::Serialize;

use crate::admin_key::read_signing_key;
use crate::admin_key_check::KeyCheck;
use crate::admin_session::{self, SessionArgs, StoredSession};
use crate::connection::{ConnectionArgs, block_on};
use crate::output::{Table, print_json, print_text, utc};
use crate::report::exit_code;

/// Admin session: sign in with a wallet key, show it, end it.
#[derive(Debug, Args)]
pub(crate) struct AdminArgs {
    #[command(subcommand)]
    command: AdminCommand,
    #[command(flatten)]
    connection: ConnectionArgs,
    #[command(flatten)]
    session: SessionArgs,
}

#[derive(Debug, Subcommand)]
enum AdminCommand {
    /// Sign in with a wallet's private key and save the session (mode 0600) for the admin commands.
    Login {
        /// File holding the wallet's private key as 0x and 64 hex digits; must not be readable by
        /// group or others (chmod 600).
        #[arg(long, env = "PAYMENTS_ADMIN_KEY_FILE", value_name = "FILE")]
        private_key_file: PathBuf,
    },
    /// Show the stored session's wallet, roles and expiry, as the server sees it.
    Me,
    /// End the session on the server and delete the session file.
    Logout,
}

/// A session as shown by `login` and `me` (never its tokens).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SessionView {
    wallet: Wallet,
    roles: Vec<AdminRole>,
    /// Unix ms.
    expires_at: i64,
    url: String,
    session_file: PathBuf,
    /// Whether the configured subscription key acts for this wallet.
    subscription_key: KeyCheck,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct LoggedOut {
    ok: bool,
    wallet: Wallet,
    session_file: PathBuf,
    /// `false` when the server had already ended the session (or it had expired).
    ended_by_this_logout: bool,
}

pub(crate) fn run(args: AdminArgs) -> ExitCode {
    exit_code(block_on(admin(args)).and_then(|result| result))
}

async fn admin(args: AdminArgs) -> anyhow::Result<ExitCode> {
    let AdminArgs {
        command,
        connection,
        session,
    } = args;
    let path = session.path()?;
    match command {
        AdminCommand::Login { private_key_file } => {
            let key = read_signing_key(&private_key_file)?;
            let client = connection.client()?;
            let session = client.sign_in_with_key(&key).await?;
            drop(key);
            // The sign-in answer has no expiry; `me` gives the server's.
            let identity = client.admin_me(&session).await?;
            let stored = StoredSession::new(&connection.url, &session, identity.expires_at);
            if let Err(error) = admin_session::save(&path, &stored) {
                // Nobody could use or end a session that was not stored: end it now (best effort).
                let _ = client.admin_logout(&session).await;
                return Err(error);
            }
            show(
                &connection,
                path,
                identity.wallet,
                identity.roles,
                identity.expires_at,
            )
            .await?;
        }
        AdminCommand::Me => {
            let (client, session) = admin_session::signed_in(&connection, &session)?;
            let identity = client.admin_me(&session).await.map_err(admin_session::refused)?;
            show(
                &connection,
                path,
                identity.wallet,
                identity.roles,
                identity.expires_at,
            )
            .await?;
        }
        AdminCommand::Logout => logout(&connection, path).await?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Ends the session server-side, then deletes the file. A session the server already ended (401) or
/// that expired is only deleted; on any other failure the file is kept, so the logout can be retried
/// rather than leaving a live session nobody can end.
async fn logout(connection: &ConnectionArgs, path: PathBuf) -> anyhow::Result<()> {
    let stored = admin_session::load(&path, &connection.url)?;
    let ended = if stored.is_expired() {
        false
    } else {
        let session = stored.session(&path)?;
        match connection.client()?.admin_logout(&session).await {
            Ok(()) => true,
            Err(ClientError::Api(api)) if api.status == 401 => false,
            Err(error) => return Err(error.into()),
        }
    };
    admin_session::remove(&path)?;
    if connection.json {
        return print_json(&LoggedOut {
            ok: true,
            wallet: stored.wallet,
            session_file: path,
            ended_by_this_logout: ended,
        });
    }
    let already = if ended {
        ""
    } else {
        " (the session had already ended)"
    };
    print_text(&format!(
        "signed out {}{already}; removed {}\n",
        stored.wallet,
        path.display()
    ))
}

/// The signed-in merchant, the session, and whether the configured subscription key acts for it.
async fn show(
    connection: &ConnectionArgs,
    session_file: PathBuf,
    wallet: Wallet,
    roles: Vec<AdminRole>,
    expires_at: i64,
) -> anyhow::Result<()> {
    let view = SessionView {
        wallet,
        roles,
        expires_at,
        url: connection.url.clone(),
        session_file,
        subscription_key: KeyCheck::of(connection, wallet).await,
    };
    if connection.json {
        return print_json(&view);
    }
    let mut table = Table::new(["FIELD", "VALUE"]);
    table.row(["wallet".to_owned(), view.wallet.to_string()]);
    table.row(["roles".to_owned(), role_names(&view.roles)]);
    table.row(["expires".to_owned(), utc(view.expires_at)]);
    table.row(["server".to_owned(), view.url.clone()]);
    table.row(["session file".to_owned(), view.session_file.display().to_string()]);
    table.row(["key".to_owned(), view.subscription_key.summary(wallet)]);
    let warning = view.subscription_key.warning(wallet).unwrap_or_default();
    print_text(&format!(
        "signed in as merchant {wallet}\n{}{warning}",
        table.render()
    ))
}

/// Roles as the server names them, comma-separated.
fn role_names(roles: &[AdminRole]) -> String {
    let names: Vec<&str> = roles
        .iter()
        .map(|role| match role {
            AdminRole::Merchant => "merchant",
            AdminRole::PlatformAdmin => "platform_admin",
            _ => "unknown",
        })
        .collect();
    names.join(", ")
}
