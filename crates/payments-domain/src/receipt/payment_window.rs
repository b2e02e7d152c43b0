//! How long a receipt waits for its payment: `expiresInMins` on create, else the server's
//! `--payment-window-mins`. Unpaid when it ends, the receipt fails (`PORTAL_SESSION_EXPIRED`) and its order's
//! stock is released (docs/money.md).

use crate::field_error::FieldError;

/// A payment window in whole minutes, 5 to 10,080 (one week).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PaymentWindow {
    minutes: u32,
}

impl PaymentWindow {
    /// The shortest window: a buyer needs a few minutes to find a wallet and send.
    pub const MIN_MINUTES: u32 = 5;
    /// The longest window: one week.
    pub const MAX_MINUTES: u32 = 10_080;
    /// The server's default (`--payment-window-mins`).
    pub const DEFAULT: PaymentWindow = PaymentWindow { minutes: 60 };

    /// A window of `minutes`, refused outside 5..=10,080.
    pub fn of_minutes(minutes: i64) -> Option<PaymentWindow> {
        let minutes = u32::try_from(minutes).ok()?;
        (Self::MIN_MINUTES..=Self::MAX_MINUTES)
            .contains(&minutes)
            .then_some(PaymentWindow { minutes })
    }

    /// The request field `field`, when given.
    pub fn parse(field: &str, minutes: Option<i64>) -> Result<Option<PaymentWindow>, FieldError> {
        let Some(minutes) = minutes else {
            return Ok(None);
        };
        Self::of_minutes(minutes).map(Some).ok_or_else(|| {
            FieldError::new(
                field,
                format!(
                    "must be a whole number of minutes from {} to {}, got {minutes}",
                    Self::MIN_MINUTES,
                    Self::MAX_MINUTES
                ),
            )
        })
    }

    pub const fn minutes(self) -> u32 {
        self.minutes
    }

    /// When a receipt created at `now_ms` expires.
    pub const fn expires_at(self, now_ms: i64) -> i64 {
        now_ms.saturating_add(self.minutes as i64 * 60_000)
    }
}

#[cfg(test)]
mod tests {
    use super::PaymentWindow;

    #[test]
    fn windows_from_five_minutes_to_one_week_are_accepted_and_nothing_outside() {
        assert_eq!(PaymentWindow::of_minutes(5).map(PaymentWindow::minutes), Some(5));
        assert_eq!(
            PaymentWindow::of_minutes(10_080).map(PaymentWindow::minutes),
            Some(10_080)
        );
        assert_eq!(PaymentWindow::of_minutes(4), None);
        assert_eq!(PaymentWindow::of_minutes(10_081), None);
        assert_eq!(PaymentWindow::of_minutes(-60), None);
    }

    #[test]
    fn a_window_ends_its_minutes_after_creation() {
        let window = PaymentWindow::of_minutes(15).unwrap();
        assert_eq!(window.expires_at(1_000), 1_000 + 15 * 60_000);
    }

    #[test]
    fn a_refused_window_names_the_field() {
        let error = PaymentWindow::parse("expiresInMins", Some(3)).unwrap_err();
        assert!(error.to_string().contains("expiresInMins"), "{error}");
    }
}
