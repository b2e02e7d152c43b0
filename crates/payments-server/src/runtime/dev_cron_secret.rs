//! The development server's cron secret: made at the first development start without `--cron-secret` and
//! kept beside the database in `<db file name>.dev-cron-secret` (mode 0600, 64 hex digits), as the admin key
//! is. With it the internal routes (`POST /api/cron/charge-subscriptions`, the test clock) work on the
//! README's dev server, and `payments subscriptions charge-due` / `payments test-clock advance` read it from
//! the file. Only development mode makes or reads it.

use std::path::{Path, PathBuf};

use thiserror::Error;
use zeroize::Zeroizing;

use crate::runtime::private_file::{beside, create_private};
use crate::secret::Secret;

/// The secret file could not be read or written, or holds something else.
#[derive(Debug, Error)]
pub enum DevCronSecretError {
    #[error("development cron secret file {path}: {source}")]
    File {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Empty or not one line of visible ASCII (its contents are never shown).
    #[error("development cron secret file {0} does not hold a secret; delete it to have a new one made")]
    Malformed(PathBuf),
}

/// The file beside a database: `<db file name>.dev-cron-secret`.
pub fn dev_cron_secret_file(db_path: &Path) -> PathBuf {
    beside(db_path, ".dev-cron-secret")
}

/// Reads the secret file, or creates it with a new random secret (0600).
///
/// # Errors
/// [`DevCronSecretError`].
pub fn load_or_create_dev_cron_secret(path: &Path) -> Result<Secret, DevCronSecretError> {
    let file_error = |source| DevCronSecretError::File {
        path: path.to_owned(),
        source,
    };
    match std::fs::read_to_string(path).map(Zeroizing::new) {
        Ok(text) => {
            let secret = text.trim();
            if secret.is_empty() || !secret.bytes().all(|byte| byte.is_ascii_graphic()) {
                return Err(DevCronSecretError::Malformed(path.to_owned()));
            }
            return Ok(Secret::new(secret));
        }
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => return Err(file_error(error)),
        Err(_) => {}
    }
    let secret = Zeroizing::new(hex::encode(rand::random::<[u8; 32]>()));
    create_private(path, format!("{}\n", secret.as_str()).as_bytes()).map_err(file_error)?;
    Ok(Secret::new(secret.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_secret_file_is_made_once_private_and_read_back_as_the_same_secret() {
        let dir = tempfile::tempdir().unwrap();
        let path = dev_cron_secret_file(&dir.path().join("payments.db"));

        let first = load_or_create_dev_cron_secret(&path).unwrap();
        let second = load_or_create_dev_cron_secret(&path).unwrap();

        assert!(path.ends_with("payments.db.dev-cron-secret"));
        assert_eq!(first.expose(), second.expose());
        assert_eq!(first.expose().len(), 64);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn an_empty_secret_file_is_refused_without_showing_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.dev-cron-secret");
        std::fs::write(&path, "\n").unwrap();

        let error = load_or_create_dev_cron_secret(&path).unwrap_err();

        assert!(matches!(error, DevCronSecretError::Malformed(_)), "{error}");
    }
}
