//! What the process runs with: configuration, clock, master key, limits, overload control, metrics and
//! telemetry. Knows no HTTP, route or service.

pub(crate) mod clock;
pub(crate) mod config;
pub(crate) mod dev_admin_key;
pub(crate) mod dev_cron_secret;
pub(crate) mod dev_mode;
pub(crate) mod limits;
pub(crate) mod log_writer;
pub(crate) mod master_key;
pub(crate) mod metrics;
pub(crate) mod onramp;
pub(crate) mod overload;
pub(crate) mod private_file;
pub(crate) mod telemetry;
