//! A tip under clap's "unexpected argument" error for flags people bring from other servers (`--port`,
//! `--database-url`): clap suggests only names spelled alike, and `--listen` is not spelled like `--port`.

use clap::error::{ContextKind, ContextValue, ErrorKind};

const LISTEN: &str = "the address and the port are one flag: --listen 127.0.0.1:9000 (PAYMENTS_LISTEN)";
const DATABASE: &str = "the database is --db: a SQLite file, or a postgres:// URL (PAYMENTS_DB)";

const TIPS: [(&str, &str); 6] = [
    ("--port", LISTEN),
    ("--host", LISTEN),
    ("--bind", LISTEN),
    ("--addr", LISTEN),
    ("--database-url", DATABASE),
    ("--database", DATABASE),
];

/// The tip for an unknown flag we know people try, if `error` is about one.
pub(crate) fn tip_for(error: &clap::Error) -> Option<&'static str> {
    if error.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(argument)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    let flag = argument.split('=').next()?;
    TIPS.iter().find(|(name, _)| *name == flag).map(|(_, tip)| *tip)
}

#[cfg(test)]
mod tests {
    use clap::{Arg, Command};

    use super::*;

    fn parse_error(args: &[&str]) -> clap::Error {
        Command::new("payments-server")
            .arg(Arg::new("listen").long("listen"))
            .try_get_matches_from(args)
            .unwrap_err()
    }

    #[test]
    fn port_and_database_url_get_a_tip_with_or_without_a_value() {
        assert_eq!(tip_for(&parse_error(&["x", "--port", "9000"])), Some(LISTEN));
        assert_eq!(
            tip_for(&parse_error(&["x", "--database-url=postgres://db"])),
            Some(DATABASE)
        );
    }

    #[test]
    fn other_unknown_flags_get_clap_s_message_alone() {
        assert_eq!(tip_for(&parse_error(&["x", "--colour"])), None);
    }
}
