//! The keys and `whsec_` secrets of `payments webhooks listen` and `payments webhooks verify`, taken as
//! plain text and checked here rather than by clap: clap's error for a value it cannot parse quotes the
//! value, and that value is a secret (a key with a stray newline from a file is the usual case).

use webhook_verify::{ApiKey, KeyError, WebhookSecret};

use crate::report::failure;

/// A key or secret as given on the command line or in the environment. `Debug` prints `[redacted]`.
#[derive(Clone)]
pub(crate) struct SecretText(String);

impl std::fmt::Debug for SecretText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[redacted]")
    }
}

impl SecretText {
    /// The text itself: the listener sends it to the service and derives its `whsec_` form from it.
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl std::str::FromStr for SecretText {
    type Err = std::convert::Infallible;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(SecretText(text.to_owned()))
    }
}

/// The API key of `--key` / `PAYMENTS_KEY`.
///
/// # Errors
/// `invalid_key`, naming what is wrong but never the key.
pub(crate) fn api_key(text: &SecretText) -> anyhow::Result<ApiKey> {
    crate::report::remember_secret(&text.0);
    ApiKey::new(&text.0).map_err(|error| {
        let why = match error {
            KeyError::Whitespace => {
                "starts or ends with whitespace (a line break from a file or a variable?)"
            }
            _ => "is empty",
        };
        failure("invalid_key", format!("the API key (--key / PAYMENTS_KEY) {why}"))
    })
}

/// The secret of `--secret` / `PAYMENTS_WEBHOOK_SECRET`.
///
/// # Errors
/// `invalid_secret`, naming what is wrong but never the secret.
pub(crate) fn webhook_secret(text: &SecretText) -> anyhow::Result<WebhookSecret> {
    crate::report::remember_secret(&text.0);
    WebhookSecret::new(&text.0).map_err(|error| {
        let why = match error {
            KeyError::MissingWhsecPrefix => "does not start with whsec_ (an API key goes to --key)",
            KeyError::InvalidBase64 => "is not whsec_ followed by base64",
            _ => "is empty",
        };
        failure(
            "invalid_secret",
            format!("the webhook secret (--secret / PAYMENTS_WEBHOOK_SECRET) {why}"),
        )
    })
}

/// The Standard Webhooks secret the service signs with for an API key: `whsec_` + base64 of the key's
/// bytes, so it is exactly as secret as the key itself.
pub(crate) fn whsec_for_api_key(key: &SecretText) -> String {
    payments_core::StandardWebhooksSecret::from_key_bytes(key.0.as_bytes()).to_whsec()
}

#[cfg(test)]
mod tests {
    use super::{SecretText, api_key, webhook_secret, whsec_for_api_key};

    #[test]
    fn errors_say_what_is_wrong_without_the_value() {
        let key = SecretText("sk_live_secret\n".to_owned());
        let secret = SecretText("sk_live_other".to_owned());

        let key_error = format!("{:#}", api_key(&key).err().unwrap());
        let secret_error = format!("{:#}", webhook_secret(&secret).err().unwrap());

        assert!(key_error.contains("whitespace"), "{key_error}");
        assert!(!key_error.contains("sk_live_secret"), "{key_error}");
        assert!(secret_error.contains("whsec_"), "{secret_error}");
        assert!(!secret_error.contains("sk_live_other"), "{secret_error}");
        assert_eq!(format!("{key:?}"), "[redacted]");
    }

    #[test]
    fn the_whsec_of_a_key_is_the_base64_of_its_bytes() {
        assert_eq!(
            whsec_for_api_key(&SecretText("sk_test".to_owned())),
            "whsec_c2tfdGVzdA=="
        );
    }
}
