//! Subscribing with one's own wallet: fetch the spend permission document of a plan
//! (`GET /api/subscriptions/plans/{planId}/permission`), and (feature `admin-signing`) sign it with a local
//! key into the body of `POST /api/subscriptions/create`.

use payments_core::{SubscriptionPermissionOffer, Wallet};

use crate::client::{Auth, Client};
use crate::error::Error;

impl Client {
    /// `GET /api/subscriptions/plans/{planId}/permission?customer=` (public): the EIP-712 document
    /// `customer` signs to subscribe to `plan_id`, and whether the token must first be approved for the
    /// spend permission manager (read on chain by the server).
    ///
    /// # Errors
    /// [`Error::Api`]: `not_found` (404) for an unknown plan, `plan_inactive` (400),
    /// `subscriptions_not_configured` (503); or a transport error.
    pub async fn subscription_permission(
        &self,
        plan_id: &str,
        customer: Wallet,
    ) -> Result<SubscriptionPermissionOffer, Error> {
        let mut url = self.url("api/subscriptions/plans/")?;
        url.path_segments_mut()
            .map_err(|()| Error::Config("the base URL cannot take a path".to_owned()))?
            .pop_if_empty()
            .push(plan_id)
            .push("permission");
        url.query_pairs_mut()
            .append_pair("customer", &customer.to_string());
        self.get_json(url, Auth::None).await
    }
}

#[cfg(feature = "admin-signing")]
mod signing {
    use alloy_primitives::hex;
    use k256::ecdsa::SigningKey;
    use payments_core::SpendPermissionTypedData;

    use crate::error::Error;
    use crate::signing::wallet_of_key;
    use crate::subscriptions::CreateSubscription;

    impl CreateSubscription {
        /// Signs `document` (checked first to be a spend permission of the manager, for `key`'s wallet)
        /// into the create body for `plan_id`.
        ///
        /// # Errors
        /// [`Error::Signing`] when the document is not a spend permission, names another account than
        /// `key`'s wallet, or the key cannot sign.
        pub fn sign(
            plan_id: &str,
            document: &SpendPermissionTypedData,
            key: &SigningKey,
        ) -> Result<CreateSubscription, Error> {
            let (permission, domain) = document
                .parse()
                .map_err(|error| Error::Signing(error.to_string()))?;
            let wallet = wallet_of_key(key);
            if permission.account != wallet.address() {
                return Err(Error::Signing(format!(
                    "the permission's account {} is not the key's wallet {wallet}",
                    permission.account
                )));
            }
            let hash = permission.signing_hash(&domain);
            let (signature, recovery) = key
                .sign_prehash_recoverable(hash.as_slice())
                .map_err(|error| Error::Signing(error.to_string()))?;
            let mut bytes = signature.to_bytes().to_vec();
            bytes.push(27 + recovery.to_byte());
            Ok(CreateSubscription {
                plan_id: plan_id.to_owned(),
                customer_wallet: wallet,
                permission_signature: hex::encode_prefixed(bytes),
                permission_data: document.message.clone(),
                idempotency_key: None,
            })
        }
    }
}
