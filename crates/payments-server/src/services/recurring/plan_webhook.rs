//! A plan's webhook target gets its signing key: the API key of the request that sets the URL, sealed with
//! the master key for this plan, exactly as a receipt seals the key that created it. An admin session (or
//! the edge path) presents no API key, so it cannot set a target: there would be nothing to sign with.

use crate::domain::recurring::{PlanId, PlanWebhook};
use crate::secret::Secret;
use crate::services::recurring::{RecurringError, RecurringService};

impl RecurringService {
    /// `webhook` with `key` sealed for plan `id`; `None` stays `None` (no target keeps no secret).
    ///
    /// # Errors
    /// [`RecurringError::WebhookRequiresKey`] without a key, [`RecurringError::NoMasterKey`] without a
    /// master key to seal it with.
    pub(super) fn seal_webhook(
        &self,
        id: &PlanId,
        webhook: Option<PlanWebhook>,
        key: Option<&Secret>,
    ) -> Result<Option<PlanWebhook>, RecurringError> {
        let Some(webhook) = webhook else {
            return Ok(None);
        };
        let key = key.ok_or(RecurringError::WebhookRequiresKey)?;
        let master = self.master_key.as_ref().ok_or(RecurringError::NoMasterKey)?;
        Ok(Some(PlanWebhook {
            url: webhook.url,
            sealed_key: Some(master.seal(key.expose().as_bytes(), &id.signing_context())),
        }))
    }
}
