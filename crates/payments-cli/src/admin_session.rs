//! The stored admin session of `payments admin login`: where it lives, how it is written (mode 0600,
//! atomically) and how the admin commands load it back.
//!
//! The file holds two bearer credentials (the `cb_auth_token` cookie value and the CSRF token), so it is
//! treated like an SSH key: created readable by its owner only, refused when others can read it, and its
//! contents never appear in an error message (not even through a JSON parse error, which can quote
//! values).

use std::fs;
use std::io::{ErrorKind, Write as _};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context as _;
use clap::Args;
use payments_client::{AdminRole, AdminSession, Client, Error as ClientError};
use payments_core::Wallet;
use serde::{Deserialize, Serialize};

use crate::connection::ConnectionArgs;
use crate::report::failure;

/// What every "no usable session" message ends with.
const LOGIN_HINT: &str = "run `payments admin login`";

/// Where the admin session is kept.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Admin session")]
pub(crate) struct SessionArgs {
    /// The admin session file [default: $XDG_STATE_HOME/payments/admin-session.json, else
    /// ~/.local/state/payments/admin-session.json].
    #[arg(long, env = "PAYMENTS_ADMIN_SESSION", value_name = "FILE", global = true)]
    session_file: Option<PathBuf>,
}

impl SessionArgs {
    /// The session file: the flag or variable, else the XDG state directory (the session is state that
    /// should survive a reboot but is not configuration to back up or share).
    pub(crate) fn path(&self) -> anyhow::Result<PathBuf> {
        if let Some(path) = &self.session_file {
            return Ok(path.clone());
        }
        // The XDG spec says a relative value is invalid and must be ignored.
        let state = std::env::var_os("XDG_STATE_HOME")
            .map(PathBuf::from)
            .filter(|dir| dir.is_absolute())
            .or_else(|| {
                std::env::var_os("HOME")
                    .filter(|home| !home.is_empty())
                    .map(|home| PathBuf::from(home).join(".local/state"))
            })
            .ok_or_else(|| {
                failure(
                    "invalid_input",
                    "neither XDG_STATE_HOME nor HOME is set: pass --session-file or set PAYMENTS_ADMIN_SESSION",
                )
            })?;
        Ok(state.join("payments").join("admin-session.json"))
    }
}

/// The session file's contents. `Debug` is written by hand so the tokens can never be printed.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StoredSession {
    /// The `--url` the session was opened on: a session is only sent back to the server that issued it.
    pub(crate) url: String,
    pub(crate) wallet: Wallet,
    pub(crate) roles: Vec<AdminRole>,
    /// When the server ends the session, Unix ms.
    pub(crate) expires_at: i64,
    session_token: String,
    csrf_token: String,
}

impl std::fmt::Debug for StoredSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredSession")
            .field("url", &self.url)
            .field("wallet", &self.wallet)
            .field("roles", &self.roles)
            .field("expires_at", &self.expires_at)
            .finish_non_exhaustive()
    }
}

impl StoredSession {
    /// What to store for `session`, opened on `url`, ending at `expires_at` (Unix ms).
    pub(crate) fn new(url: &str, session: &AdminSession, expires_at: i64) -> Self {
        StoredSession {
            url: url.to_owned(),
            wallet: session.wallet(),
            roles: session.roles().to_vec(),
            expires_at,
            session_token: session.expose_session_token().to_owned(),
            csrf_token: session.expose_csrf_token().to_owned(),
        }
    }

    /// The session to send with admin requests.
    pub(crate) fn session(&self, path: &Path) -> anyhow::Result<AdminSession> {
        AdminSession::from_tokens(
            self.wallet,
            self.roles.clone(),
            &self.session_token,
            &self.csrf_token,
        )
        .map_err(|_| unusable(path, "its tokens are malformed"))
    }

    /// Whether the session has ended by this machine's clock.
    pub(crate) fn is_expired(&self) -> bool {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
        i64::try_from(now.as_millis()).unwrap_or(i64::MAX) >= self.expires_at
    }
}

/// A live session for the server of `connection`, with a client to use it: what every admin command
/// starts with.
///
/// # Errors
/// `not_signed_in` (no session file, an unreadable one, one for another server), `session_expired`,
/// `insecure_session_file`.
pub(crate) fn signed_in(
    connection: &ConnectionArgs,
    args: &SessionArgs,
) -> anyhow::Result<(Client, AdminSession)> {
    let path = args.path()?;
    let stored = load(&path, &connection.url)?;
    if stored.is_expired() {
        return Err(failure(
            "session_expired",
            format!(
                "the admin session in {} expired at {}; {LOGIN_HINT}",
                path.display(),
                crate::output::utc(stored.expires_at)
            ),
        ));
    }
    Ok((connection.client()?, stored.session(&path)?))
}

/// The session stored at `path` for the server at `url`, expired or not.
pub(crate) fn load(path: &Path, url: &str) -> anyhow::Result<StoredSession> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == ErrorKind::NotFound => {
            return Err(failure(
                "not_signed_in",
                format!("no admin session in {}; {LOGIN_HINT}", path.display()),
            ));
        }
        Err(error) => {
            return Err(failure(
                "io_error",
                format!("cannot read {}: {error}", path.display()),
            ));
        }
    };
    refuse_if_shared(path, "insecure_session_file", "admin session file")?;
    // Only the position of a parse error is shown: serde's message can quote the (secret) values.
    let stored: StoredSession = serde_json::from_slice(&bytes).map_err(|error| {
        let place = format!(
            "not a session file (line {}, column {})",
            error.line(),
            error.column()
        );
        unusable(path, &place)
    })?;
    if same_server(&stored.url, url) {
        Ok(stored)
    } else {
        Err(failure(
            "not_signed_in",
            format!(
                "the admin session in {} is for {}, not {url}; {LOGIN_HINT} --url {url}",
                path.display(),
                stored.url
            ),
        ))
    }
}

/// Writes `stored` to `path` readable by its owner only: a temporary file created with mode 0600 is
/// renamed over the old one, so the tokens are never in a file others can read, even briefly, and an
/// interrupted write leaves the previous session intact.
pub(crate) fn save(path: &Path, stored: &StoredSession) -> anyhow::Result<()> {
    let io = |what: &str, error: std::io::Error| failure("io_error", format!("cannot {what}: {error}"));
    let dir = path
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(dir)
        .map_err(|error| io(&format!("create {}", dir.display()), error))?;
    let mut text = serde_json::to_vec_pretty(stored).context("cannot render the session")?;
    text.push(b'\n');
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&temp)?;
        file.write_all(&text)?;
        file.sync_all()?;
        fs::rename(&temp, path)
    };
    write().map_err(|error| {
        let _ = fs::remove_file(&temp);
        io(&format!("write {}", path.display()), error)
    })
}

/// Deletes the session file; one that is already gone is fine.
pub(crate) fn remove(path: &Path) -> anyhow::Result<()> {
    match fs::remove_file(path) {
        Err(error) if error.kind() != ErrorKind::NotFound => Err(failure(
            "io_error",
            format!("cannot delete {}: {error}", path.display()),
        )),
        _ => Ok(()),
    }
}

/// The error of an admin request: a 401 means the stored session no longer works (ended by a logout
/// elsewhere, revoked, or the server restarted in development mode), so it says how to get a new one.
pub(crate) fn refused(error: ClientError) -> anyhow::Error {
    match &error {
        ClientError::Api(api) if api.status == 401 => failure(
            "unauthorized",
            format!(
                "{}: the stored admin session no longer works; {LOGIN_HINT}",
                api.message
            ),
        ),
        _ => anyhow::Error::new(error),
    }
}

/// Refuses a file that group or others may read or write, the way ssh refuses such a private key:
/// a secret others could read is no longer a secret, and failing is the only way to get it noticed.
/// (No check off Unix, where file modes do not exist.)
pub(crate) fn refuse_if_shared(path: &Path, code: &'static str, what: &str) -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let metadata = fs::metadata(path)
            .map_err(|error| failure("io_error", format!("cannot read {}: {error}", path.display())))?;
        let mode = metadata.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(failure(
                code,
                format!(
                    "the {what} {} is accessible by other users (mode {mode:04o}); \
                     it must be private: chmod 600 {}",
                    path.display(),
                    path.display()
                ),
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = (path, code, what);
    Ok(())
}

fn unusable(path: &Path, why: &str) -> anyhow::Error {
    failure(
        "not_signed_in",
        format!(
            "the admin session file {} is unusable ({why}); {LOGIN_HINT}",
            path.display()
        ),
    )
}

/// URLs that differ only by a trailing slash name the same server.
fn same_server(stored: &str, given: &str) -> bool {
    stored.trim_end_matches('/') == given.trim_end_matches('/')
}

#[cfg(test)]
mod tests {
    use payments_client::{AdminRole, AdminSession};
    use payments_core::Wallet;

    use super::{StoredSession, same_server};

    #[test]
    fn debug_never_shows_the_tokens() {
        let wallet = Wallet::parse("0x2c7536e3605d9c16a7a3d7b1898e529396a65c23").unwrap();
        let session =
            AdminSession::from_tokens(wallet, vec![AdminRole::Merchant], "jwt-secret", "csrf-secret")
                .unwrap();

        let printed = format!("{:?}", StoredSession::new("http://x", &session, 1));

        assert!(!printed.contains("jwt-secret"), "{printed}");
        assert!(!printed.contains("csrf-secret"), "{printed}");
    }

    #[test]
    fn a_trailing_slash_is_the_same_server() {
        assert!(same_server("http://127.0.0.1:8080/", "http://127.0.0.1:8080"));
        assert!(!same_server("http://127.0.0.1:8080", "http://127.0.0.1:8081"));
    }
}
