//! The development files kept beside the database (the master key, the admin key, the cron secret): made
//! once, readable by the owner only (0600), never overwritten.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The file `<db file name><suffix>` beside a database.
pub(crate) fn beside(db_path: &Path, suffix: &str) -> PathBuf {
    let mut name = db_path
        .file_name()
        .map(|name| name.to_os_string())
        .unwrap_or_default();
    name.push(suffix);
    db_path.with_file_name(name)
}

/// Creates `path` with `contents`, mode 0600; fails when it exists (a concurrent start made it first).
pub(crate) fn create_private(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    file.write_all(contents)?;
    file.sync_all()
}
