//! The `x-cron-secret` of the internal routes (`payments subscriptions charge-due`, `payments test-clock
//! advance`): `--cron-secret` / `PAYMENTS_CRON_SECRET`, else `--cron-secret-file`, else the development
//! server's `payments.db.dev-cron-secret` in the working directory (the README's dev server writes it there).

use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;
use zeroize::Zeroizing;

/// The file a development server on `payments.db` keeps its cron secret in.
const DEV_CRON_SECRET_FILE: &str = "payments.db.dev-cron-secret";

#[derive(Debug, Args)]
pub(crate) struct CronSecretArgs {
    /// The server's cron secret (--cron-secret of the server).
    #[arg(long, env = "PAYMENTS_CRON_SECRET", hide_env_values = true)]
    cron_secret: Option<String>,
    /// A file holding it [default: ./payments.db.dev-cron-secret, made by a development server].
    #[arg(long, conflicts_with = "cron_secret")]
    cron_secret_file: Option<PathBuf>,
}

impl CronSecretArgs {
    /// The secret to send.
    pub(crate) fn secret(&self) -> anyhow::Result<Zeroizing<String>> {
        if let Some(secret) = self.cron_secret.as_deref().filter(|secret| !secret.is_empty()) {
            return Ok(Zeroizing::new(secret.to_owned()));
        }
        let path = self
            .cron_secret_file
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEV_CRON_SECRET_FILE));
        let text = Zeroizing::new(std::fs::read_to_string(&path).with_context(|| {
            format!(
                "no cron secret: give --cron-secret (or PAYMENTS_CRON_SECRET) or --cron-secret-file; {} cannot be read",
                path.display()
            )
        })?);
        Ok(Zeroizing::new(text.trim().to_owned()))
    }
}
