//! Moving a subscription to another plan of its merchant (`POST /api/subscriptions/change`,
//! docs/subscriptions.md "Plan changes"): fetch the permission document for the change, sign it with the
//! customer's key (feature `admin-signing`) and post it.

use payments_core::{PlanChangeFacts, SpendPermissionData, SubscriptionPermissionOffer};
use serde::{Deserialize, Serialize};

use crate::client::{Auth, Client};
use crate::error::Error;
use crate::subscription_models::CustomerSubscription;

/// `POST /api/subscriptions/change` body: the customer's signed permission for the new plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ChangeSubscription {
    /// The subscription (csub_...).
    pub subscription_id: String,
    /// The plan to move to: another active plan of the same merchant, with the same period.
    pub new_plan_id: String,
    /// `0x` hex of the customer's EIP-712 signature.
    pub permission_signature: String,
    /// The permission as signed (from [`Client::change_permission`]).
    pub permission_data: SpendPermissionData,
    /// Sent as the `Idempotency-Key` header, kept per customer: the same key and body within 24 hours
    /// replays the first answer. `None` with retries on ([`crate::RetryPolicy`]): the client makes one per
    /// call and reuses it across the retries.
    #[serde(skip)]
    pub idempotency_key: Option<String>,
}

impl ChangeSubscription {
    /// The body for an already signed permission.
    pub fn new(
        subscription_id: impl Into<String>,
        new_plan_id: impl Into<String>,
        permission_signature: impl Into<String>,
        permission_data: SpendPermissionData,
    ) -> Self {
        ChangeSubscription {
            subscription_id: subscription_id.into(),
            new_plan_id: new_plan_id.into(),
            permission_signature: permission_signature.into(),
            permission_data,
            idempotency_key: None,
        }
    }

    /// Makes the change safe to resend; see [`ChangeSubscription::idempotency_key`].
    #[must_use]
    pub fn idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }
}

/// The answer of a plan change: the subscription on its new plan and what the change charged or credited.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ChangedSubscription {
    /// The subscription on its new plan.
    pub subscription: CustomerSubscription,
    /// The prorated charge (an upgrade) or credit (a downgrade), exact in base units.
    pub change: PlanChangeFacts,
}

impl Client {
    /// `GET /api/subscriptions/plans/{planId}/permission?subscriptionId=` (public): the EIP-712 document the
    /// customer of `subscription_id` signs to move it to `plan_id` (its start on the subscription's charge
    /// slot), and whether a token approval is needed.
    ///
    /// # Errors
    /// [`Error::Api`]: `not_found` (404) for an unknown plan or subscription, `plan_inactive` (400); or a
    /// transport error.
    pub async fn change_permission(
        &self,
        plan_id: &str,
        subscription_id: &str,
    ) -> Result<SubscriptionPermissionOffer, Error> {
        let mut url = self.url("api/subscriptions/plans/")?;
        url.path_segments_mut()
            .map_err(|()| Error::Config("the base URL cannot take a path".to_owned()))?
            .pop_if_empty()
            .push(plan_id)
            .push("permission");
        url.query_pairs_mut()
            .append_pair("subscriptionId", subscription_id);
        self.get_json(url, Auth::None).await
    }

    /// `POST /api/subscriptions/change` (no key: the customer's signature is the proof).
    ///
    /// # Errors
    /// [`Error::Api`] with the precise code (`same_plan`, `plan_of_another_merchant`,
    /// `subscription_canceled`, `permission_misaligned`, `change_in_progress`, `change_refused_on_chain`,
    /// `signer_mismatch`, `forbidden`, ..., docs/subscriptions.md); or a transport error.
    pub async fn change_subscription(
        &self,
        change: &ChangeSubscription,
    ) -> Result<ChangedSubscription, Error> {
        let request = self
            .http()
            .post(self.url("api/subscriptions/change")?)
            .json(change);
        self.send_keyed(request, change.idempotency_key.as_deref()).await
    }
}

#[cfg(feature = "admin-signing")]
mod signing {
    use k256::ecdsa::SigningKey;
    use payments_core::SpendPermissionTypedData;

    use super::ChangeSubscription;
    use crate::error::Error;
    use crate::subscriptions::CreateSubscription;

    impl ChangeSubscription {
        /// Signs `document` (checked first to be a spend permission of the manager, for `key`'s wallet)
        /// into the change body moving `subscription_id` to `new_plan_id`.
        ///
        /// # Errors
        /// [`Error::Signing`], as [`CreateSubscription::sign`].
        pub fn sign(
            subscription_id: &str,
            new_plan_id: &str,
            document: &SpendPermissionTypedData,
            key: &SigningKey,
        ) -> Result<ChangeSubscription, Error> {
            let signed = CreateSubscription::sign(new_plan_id, document, key)?;
            Ok(ChangeSubscription::new(
                subscription_id,
                new_plan_id,
                signed.permission_signature,
                signed.permission_data,
            ))
        }
    }
}
