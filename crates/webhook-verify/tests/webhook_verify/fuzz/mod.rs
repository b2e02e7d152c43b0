//! Fuzz-style property tests (stable Rust, proptest): header, body and secret parsing never panic, stay
//! bounded, and fail only with typed errors. A few thousand cases per property by default;
//! `scripts/fuzz.sh` runs every `fuzz` module of the workspace with `PROPTEST_CASES` set high.

use proptest::test_runner::Config;

#[cfg(feature = "serde")]
mod bodies;
mod headers;
mod secrets;

/// Cases per property when `PROPTEST_CASES` is not set: enough to shake out shallow bugs in CI in about
/// a second per property.
const DEFAULT_CASES: u32 = 2_000;

/// proptest's defaults, with [`DEFAULT_CASES`] unless `PROPTEST_CASES` asks for another count.
pub(crate) fn config() -> Config {
    let mut config = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = DEFAULT_CASES;
    }
    config
}
