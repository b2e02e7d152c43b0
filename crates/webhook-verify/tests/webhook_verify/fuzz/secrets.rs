//! Key and secret parsing: any text yields a key or a typed error.

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
use proptest::prelude::*;
use webhook_verify::{ApiKey, KeyError, WebhookSecret};

use super::config;

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_secret_text_gives_a_secret_or_a_typed_error(text in prop_oneof![
        "\\PC{0,80}",
        "whsec_\\PC{0,80}",
        "whsec_[A-Za-z0-9+/=]{0,90}",
        "whsec_[A-Za-z0-9+/]{1,20}".prop_map(|short| short.repeat(80)),
    ]) {
        match WebhookSecret::new(&text) {
            Ok(_) => {
                prop_assert!(text.starts_with("whsec_"));
                prop_assert!(text.len() <= 1024);
            }
            Err(err) => prop_assert!(
                matches!(err, KeyError::MissingWhsecPrefix | KeyError::InvalidBase64 | KeyError::Empty | KeyError::TooLong),
                "{:?}", err
            ),
        }
    }

    #[test]
    fn any_key_bytes_written_as_whsec_with_or_without_padding_are_one_secret(
        key in proptest::collection::vec(any::<u8>(), 1..=64),
    ) {
        let padded = WebhookSecret::new(format!("whsec_{}", STANDARD.encode(&key)));
        let unpadded = WebhookSecret::new(format!("whsec_{}", STANDARD_NO_PAD.encode(&key)));

        prop_assert!(padded.is_ok(), "{:?}", padded);
        prop_assert!(unpadded.is_ok(), "{:?}", unpadded);
        #[cfg(feature = "test-helpers")]
        {
            let (padded, unpadded) = (padded.unwrap(), unpadded.unwrap());
            prop_assert_eq!(
                webhook_verify::testing::sign_standard_webhooks(&padded, "msg_1", 1, b"{}"),
                webhook_verify::testing::sign_standard_webhooks(&unpadded, "msg_1", 1, b"{}")
            );
        }
    }

    #[test]
    fn any_api_key_text_is_accepted_exactly_when_it_is_trimmed_non_empty_and_bounded(text in prop_oneof![
        "\\PC{0,60}",
        "[ \t\n]{0,2}[a-z_0-9]{0,40}[ \t\n]{0,2}",
        "sk_[a-z0-9]{1,20}".prop_map(|key| key.repeat(100)),
    ]) {
        let acceptable = !text.is_empty() && text.trim() == text && text.len() <= 1024;

        let key = ApiKey::new(&text);
        let derived = WebhookSecret::from_api_key(&text);

        prop_assert_eq!(key.is_ok(), acceptable, "{:?}", key);
        prop_assert_eq!(derived.is_ok(), acceptable, "{:?}", derived);
    }
}
