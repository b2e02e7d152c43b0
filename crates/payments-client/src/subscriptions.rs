//! Recurring billing (`/api/subscriptions/*`, docs/subscriptions.md): a merchant's plans (list public;
//! writes with scope `subscriptions:write`), subscribing with a signed spend permission, status, cancel, and
//! the internal batch and test clock behind `x-cron-secret`.

use payments_core::{BillingPeriod, Cents, SpendPermissionData, Wallet};
use reqwest::Method;
use serde::{Deserialize, Serialize};

use crate::client::{Auth, Client};
use crate::error::Error;
use crate::session::AdminSession;
use crate::subscription_models::{
    BatchReport, CustomerSubscription, SubscriptionPlan, SubscriptionStatusReply,
};

const CRON_SECRET_HEADER: &str = "x-cron-secret";

/// What `GET /api/subscriptions/status` selects: exactly one of these.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SubscriptionSelector {
    /// One subscription (with its billing events).
    Id(String),
    /// A customer's subscriptions.
    Customer(Wallet),
    /// A merchant's subscriptions.
    Merchant(Wallet),
}

/// `POST /api/subscriptions/plans` body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreatePlan {
    /// Shown to subscribers.
    pub name: String,
    /// May be empty.
    pub description: String,
    /// Above zero.
    pub price_usd: Cents,
    /// How often.
    pub period: BillingPeriod,
    /// Free days (0 to 365) before a new subscription's first charge; `None` sends nothing (no trial).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trial_days: Option<u16>,
    /// HTTPS endpoint for `subscription.*` webhooks, signed with the API key of this request (so a client
    /// signed in with an admin session cannot set one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub webhook_url: Option<String>,
    /// Sent as the `Idempotency-Key` header (1 to 255 visible ASCII characters): the same key and body
    /// within 24 hours replays the first answer instead of creating a second plan. `None` with retries on
    /// ([`crate::RetryPolicy`]): the client makes one per call and reuses it across the retries.
    #[serde(skip)]
    pub idempotency_key: Option<String>,
}

impl CreatePlan {
    /// Makes the create safe to resend; see [`CreatePlan::idempotency_key`].
    #[must_use]
    pub fn idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }
}

/// `PUT /api/subscriptions/plans` body: `None` keeps the stored value.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UpdatePlan {
    /// The plan to change.
    pub plan_id: String,
    /// New name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// New description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// New price (existing subscriptions keep theirs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_usd: Option<Cents>,
    /// New period (existing subscriptions keep theirs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period: Option<BillingPeriod>,
    /// Reactivate or deactivate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
    /// `Some(Some(url))` sets a new webhook target (signed with this request's API key from now on),
    /// `Some(None)` removes it, `None` keeps it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub webhook_url: Option<Option<String>>,
}

/// `POST /api/subscriptions/create` body: the customer's signed spend permission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateSubscription {
    /// The plan.
    pub plan_id: String,
    /// The customer (the permission's account and signer).
    pub customer_wallet: Wallet,
    /// `0x` hex of the EIP-712 signature.
    pub permission_signature: String,
    /// The permission as signed.
    pub permission_data: SpendPermissionData,
    /// Sent as the `Idempotency-Key` header, kept per customer wallet: the same key and body within 24
    /// hours replays the first answer. `None` with retries on ([`crate::RetryPolicy`]): the client makes one
    /// per call and reuses it across the retries.
    #[serde(skip)]
    pub idempotency_key: Option<String>,
}

impl CreateSubscription {
    /// Makes the create safe to resend; see [`CreateSubscription::idempotency_key`].
    #[must_use]
    pub fn idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }
}

#[derive(Debug, Deserialize)]
struct PlansReply {
    plans: Vec<SubscriptionPlan>,
}

#[derive(Debug, Deserialize)]
struct PlanReply {
    plan: SubscriptionPlan,
}

#[derive(Debug, Deserialize)]
struct SubscriptionReply {
    subscription: CustomerSubscription,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClockReply {
    now_ms: i64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PlanIdBody<'a> {
    plan_id: &'a str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CancelBody<'a> {
    subscription_id: &'a str,
    wallet: Wallet,
    #[serde(skip_serializing_if = "Option::is_none")]
    signature: Option<&'a str>,
}

impl Client {
    /// `GET /api/subscriptions/plans?wallet=` (public): the merchant's active plans.
    ///
    /// # Errors
    /// [`Error::Api`] or a transport error.
    pub async fn list_plans(&self, merchant: Wallet) -> Result<Vec<SubscriptionPlan>, Error> {
        let mut url = self.url("api/subscriptions/plans")?;
        url.query_pairs_mut().append_pair("wallet", &merchant.to_string());
        let reply: PlansReply = self.get_json(url, Auth::None).await?;
        Ok(reply.plans)
    }

    /// `POST /api/subscriptions/plans` (scope `subscriptions:write`) for the key's merchant, sent under
    /// [`CreatePlan::idempotency_key`]; retried per the client's [`crate::RetryPolicy`].
    ///
    /// # Errors
    /// [`Error::Api`]: `invalid_input` (400), `forbidden` (403), `idempotency_conflict` (409, the key was
    /// used with another body); or a transport error.
    pub async fn create_plan(&self, plan: &CreatePlan) -> Result<SubscriptionPlan, Error> {
        let request = self.http().post(self.url("api/subscriptions/plans")?).json(plan);
        let reply: PlanReply = self
            .send_keyed(
                self.authorize(request, Auth::Subscription),
                plan.idempotency_key.as_deref(),
            )
            .await?;
        Ok(reply.plan)
    }

    /// `PUT /api/subscriptions/plans` (scope `subscriptions:write`).
    ///
    /// # Errors
    /// As [`Client::create_plan`], plus `not_found` (404) for another merchant's or an unknown plan.
    pub async fn update_plan(&self, update: &UpdatePlan) -> Result<SubscriptionPlan, Error> {
        self.plan_write(Method::PUT, update).await
    }

    /// `DELETE /api/subscriptions/plans` (scope `subscriptions:write`): no new subscribers.
    ///
    /// # Errors
    /// As [`Client::update_plan`].
    pub async fn deactivate_plan(&self, plan_id: &str) -> Result<SubscriptionPlan, Error> {
        self.plan_write(Method::DELETE, &PlanIdBody { plan_id }).await
    }

    async fn plan_write(&self, method: Method, body: &impl Serialize) -> Result<SubscriptionPlan, Error> {
        let request = self
            .http()
            .request(method, self.url("api/subscriptions/plans")?)
            .json(body);
        let reply: PlanReply = self
            .send_json(self.authorize(request, Auth::Subscription))
            .await?;
        Ok(reply.plan)
    }

    /// `POST /api/subscriptions/create` (no key: the signature is the proof), sent under
    /// [`CreateSubscription::idempotency_key`]; retried per the client's [`crate::RetryPolicy`].
    ///
    /// # Errors
    /// [`Error::Api`] with the precise code (`signer_mismatch`, `spender_mismatch`, `permission_reused`, ...,
    /// docs/subscriptions.md; `idempotency_conflict` for a key used with another body); or a transport error.
    pub async fn subscribe(&self, subscription: &CreateSubscription) -> Result<CustomerSubscription, Error> {
        let request = self
            .http()
            .post(self.url("api/subscriptions/create")?)
            .json(subscription);
        let reply: SubscriptionReply = self
            .send_keyed(request, subscription.idempotency_key.as_deref())
            .await?;
        Ok(reply.subscription)
    }

    /// `GET /api/subscriptions/status`: by id and by customer public; by merchant with the client's key (of
    /// that merchant, with `subscriptions:read`), since the list names every subscriber.
    ///
    /// # Errors
    /// [`Error::Api`]: `not_found` for an unknown id; `unauthorized` / `forbidden` for a merchant list without
    /// that merchant's key; or a transport error.
    pub async fn subscription_status(
        &self,
        selector: &SubscriptionSelector,
    ) -> Result<SubscriptionStatusReply, Error> {
        let mut url = self.url("api/subscriptions/status")?;
        {
            let mut pairs = url.query_pairs_mut();
            match selector {
                SubscriptionSelector::Id(id) => pairs.append_pair("subscriptionId", id),
                SubscriptionSelector::Customer(wallet) => pairs.append_pair("customer", &wallet.to_string()),
                SubscriptionSelector::Merchant(wallet) => pairs.append_pair("merchant", &wallet.to_string()),
            };
        }
        let auth = match selector {
            SubscriptionSelector::Merchant(_) => Auth::Subscription,
            SubscriptionSelector::Id(_) | SubscriptionSelector::Customer(_) => Auth::None,
        };
        self.get_json(url, auth).await
    }

    /// `POST /api/subscriptions/cancel` with the customer's EIP-712 `CancelSubscription` signature (`0x` hex).
    ///
    /// # Errors
    /// [`Error::Api`]: `forbidden` (403) when `wallet` is not the customer or did not sign; or a transport
    /// error.
    pub async fn cancel_subscription_signed(
        &self,
        subscription_id: &str,
        wallet: Wallet,
        signature: &str,
    ) -> Result<CustomerSubscription, Error> {
        let request = self
            .http()
            .post(self.url("api/subscriptions/cancel")?)
            .json(&CancelBody {
                subscription_id,
                wallet,
                signature: Some(signature),
            });
        let reply: SubscriptionReply = self.send_json(request).await?;
        Ok(reply.subscription)
    }

    /// `POST /api/subscriptions/cancel` from a signed-in session of the customer (or of the merchant).
    ///
    /// # Errors
    /// As [`Client::cancel_subscription_signed`], plus `unauthorized` (401) for an ended session.
    pub async fn cancel_subscription(
        &self,
        session: &AdminSession,
        subscription_id: &str,
    ) -> Result<CustomerSubscription, Error> {
        let request = self
            .admin_request(session, Method::POST, "api/subscriptions/cancel")?
            .json(&CancelBody {
                subscription_id,
                wallet: session.wallet(),
                signature: None,
            });
        let reply: SubscriptionReply = self.send_json(request).await?;
        Ok(reply.subscription)
    }

    /// `POST /api/cron/charge-subscriptions` with `x-cron-secret`: charges every due subscription once.
    ///
    /// # Errors
    /// [`Error::Api`]: `not_found` (no secret configured), `unauthorized` (wrong secret); or a transport
    /// error.
    pub async fn charge_subscriptions(&self, cron_secret: &str) -> Result<BatchReport, Error> {
        let request = self
            .http()
            .post(self.url("api/cron/charge-subscriptions")?)
            .header(CRON_SECRET_HEADER, cron_secret);
        self.send_json(request).await
    }

    /// `POST /api/test-clock/advance` (development mode, `x-cron-secret`): moves the server's clock forward
    /// to `to_ms`; answers the new time.
    ///
    /// # Errors
    /// [`Error::Api`]: `not_found` outside development mode, `invalid_input` backwards; or a transport error.
    pub async fn advance_test_clock(&self, cron_secret: &str, to_ms: i64) -> Result<i64, Error> {
        self.move_test_clock(cron_secret, serde_json::json!({ "to": to_ms }))
            .await
    }

    /// `POST /api/test-clock/advance {"byMs"}` (development mode, `x-cron-secret`): moves the server's clock
    /// `by_ms` milliseconds forward from its own current time; answers the new time.
    ///
    /// # Errors
    /// As [`Client::advance_test_clock`].
    pub async fn advance_test_clock_by(&self, cron_secret: &str, by_ms: i64) -> Result<i64, Error> {
        self.move_test_clock(cron_secret, serde_json::json!({ "byMs": by_ms }))
            .await
    }

    async fn move_test_clock(&self, cron_secret: &str, body: serde_json::Value) -> Result<i64, Error> {
        let request = self
            .http()
            .post(self.url("api/test-clock/advance")?)
            .header(CRON_SECRET_HEADER, cron_secret)
            .json(&body);
        let reply: ClockReply = self.send_json(request).await?;
        Ok(reply.now_ms)
    }
}
