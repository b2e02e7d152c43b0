//! Taking libpq's TLS parameters out of a connection string that `tokio-postgres` would otherwise refuse
//! (`verify-ca`, `verify-full`, `sslrootcert`, `sslcert`, `sslkey` are unknown to it). Both forms are read:
//! the URL (`postgres://host/db?sslmode=verify-full&sslrootcert=ca.pem`) and key=value
//! (`host=db sslmode=verify-full sslrootcert='/etc/ssl/ca.pem'`).

use std::path::PathBuf;

use percent_encoding::percent_decode_str;

use super::{TlsMode, TlsParameters};
use crate::StoreError;

const TLS_KEYS: [&str; 4] = ["sslmode", "sslrootcert", "sslcert", "sslkey"];

/// The connection string without its TLS parameters, and those parameters.
///
/// # Errors
/// [`StoreError::Unavailable`] for an unknown `sslmode` or an unterminated quote; the message never repeats
/// the connection string (it may hold a password).
pub(in crate::postgres) fn split_tls_parameters(
    connection: &str,
) -> Result<(String, TlsParameters), StoreError> {
    let (rest, taken) = split_parameters(connection, &TLS_KEYS)?;
    let mut parameters = TlsParameters::default();
    for (key, value) in taken {
        take(&mut parameters, &key, &value)?;
    }
    Ok((rest, parameters))
}

/// The connection string without the parameters named in `keys` (values decoded), and those parameters
/// in order: for the ones `tokio-postgres` does not know.
///
/// # Errors
/// [`StoreError::Unavailable`] for a value that is not UTF-8 or an unterminated quote; the message never
/// repeats the connection string.
pub(in crate::postgres) fn split_parameters(
    connection: &str,
    keys: &[&str],
) -> Result<(String, Vec<(String, String)>), StoreError> {
    let mut taken = Vec::new();
    let rest = if connection.starts_with("postgres://") || connection.starts_with("postgresql://") {
        split_url(connection, keys, &mut taken)?
    } else {
        split_key_values(connection, keys, &mut taken)?
    };
    Ok((rest, taken))
}

fn split_url(url: &str, keys: &[&str], taken: &mut Vec<(String, String)>) -> Result<String, StoreError> {
    let Some((base, query)) = url.split_once('?') else {
        return Ok(url.to_owned());
    };
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if keys.contains(&key) {
            let value = percent_decode_str(value)
                .decode_utf8()
                .map_err(|_| StoreError::Unavailable(format!("the PostgreSQL URL's {key} is not UTF-8")))?;
            taken.push((key.to_owned(), value.into_owned()));
        } else {
            kept.push(pair);
        }
    }
    Ok(if kept.is_empty() {
        base.to_owned()
    } else {
        format!("{base}?{}", kept.join("&"))
    })
}

fn split_key_values(
    connection: &str,
    keys: &[&str],
    taken: &mut Vec<(String, String)>,
) -> Result<String, StoreError> {
    let mut kept = Vec::new();
    for (key, value) in key_values(connection)? {
        if keys.contains(&key.as_str()) {
            taken.push((key, value));
        } else {
            kept.push(format!(
                "{key}='{}'",
                value.replace('\\', "\\\\").replace('\'', "\\'")
            ));
        }
    }
    Ok(kept.join(" "))
}

fn take(parameters: &mut TlsParameters, key: &str, value: &str) -> Result<(), StoreError> {
    match key {
        "sslmode" => parameters.mode = TlsMode::parse(value)?,
        "sslrootcert" => parameters.root_cert = Some(PathBuf::from(value)),
        "sslcert" => parameters.client_cert = Some(PathBuf::from(value)),
        _ => parameters.client_key = Some(PathBuf::from(value)),
    }
    Ok(())
}

/// libpq's key=value syntax: `key = value` pairs separated by spaces, a value either bare or in single
/// quotes with `\'` and `\\` escapes.
fn key_values(connection: &str) -> Result<Vec<(String, String)>, StoreError> {
    let malformed = || StoreError::Unavailable("malformed PostgreSQL connection string".to_owned());
    let mut pairs = Vec::new();
    let mut chars = connection.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            return Ok(pairs);
        }
        let mut key = String::new();
        while let Some(c) = chars.next_if(|c| *c != '=' && !c.is_whitespace()) {
            key.push(c);
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.next() != Some('=') {
            return Err(malformed());
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let mut value = String::new();
        if chars.next_if_eq(&'\'').is_some() {
            loop {
                match chars.next().ok_or_else(malformed)? {
                    '\'' => break,
                    '\\' => value.push(chars.next().ok_or_else(malformed)?),
                    c => value.push(c),
                }
            }
        } else {
            while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                value.push(if c == '\\' {
                    chars.next().ok_or_else(malformed)?
                } else {
                    c
                });
            }
        }
        pairs.push((key, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_loses_only_its_tls_parameters_with_their_values_decoded() {
        let (rest, parameters) = split_tls_parameters(
            "postgres://app:pw@db.example:5432/payments?application_name=x&sslmode=verify-full\
             &sslrootcert=%2Fetc%2Fssl%2Fca.pem&connect_timeout=3",
        )
        .unwrap();

        assert_eq!(
            rest,
            "postgres://app:pw@db.example:5432/payments?application_name=x&connect_timeout=3"
        );
        assert_eq!(parameters.mode, TlsMode::VerifyFull);
        assert_eq!(parameters.root_cert, Some(PathBuf::from("/etc/ssl/ca.pem")));
    }

    #[test]
    fn key_value_strings_keep_their_other_pairs_quoted() {
        let (rest, parameters) = split_tls_parameters(
            "host=db user = app password='it\\'s secret' sslmode=verify-ca sslrootcert='/a b/ca.pem' \
             sslcert=/c.pem sslkey=/c.key",
        )
        .unwrap();

        assert_eq!(rest, "host='db' user='app' password='it\\'s secret'");
        let reparsed: tokio_postgres::Config = rest.parse().unwrap();
        assert_eq!(reparsed.get_password(), Some(&b"it's secret"[..]));
        assert_eq!(parameters.mode, TlsMode::VerifyCa);
        assert_eq!(parameters.root_cert, Some(PathBuf::from("/a b/ca.pem")));
        assert_eq!(parameters.client_cert, Some(PathBuf::from("/c.pem")));
        assert_eq!(parameters.client_key, Some(PathBuf::from("/c.key")));
    }

    #[test]
    fn without_sslmode_the_mode_is_prefer_as_in_libpq() {
        let (rest, parameters) = split_tls_parameters("postgres://db/payments").unwrap();

        assert_eq!(rest, "postgres://db/payments");
        assert_eq!(parameters.mode, TlsMode::Prefer);
    }

    #[test]
    fn an_unknown_sslmode_is_refused_without_repeating_the_url() {
        let error = split_tls_parameters("postgres://app:hunter2@db/payments?sslmode=allow-ish").unwrap_err();

        assert!(
            error.to_string().contains("invalid sslmode `allow-ish`"),
            "{error}"
        );
        assert!(!error.to_string().contains("hunter2"));
    }

    #[test]
    fn an_unterminated_quote_is_refused() {
        let error = split_tls_parameters("host=db password='open").unwrap_err();

        assert!(error.to_string().contains("malformed"), "{error}");
    }
}
