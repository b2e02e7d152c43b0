//! Subscription bodies (create, cancel, change of plan), decoded here and handed to the domain as its
//! requests.

use payments_core::SpendPermissionData;
use serde::Deserialize;

use crate::domain::recurring as domain;

/// `POST /api/subscriptions/change` body: the customer's signed permission for the new plan.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ChangeSubscriptionRequest {
    subscription_id: Option<String>,
    new_plan_id: Option<String>,
    permission_signature: Option<String>,
    #[schema(value_type = Option<crate::api::openapi::core_types::SpendPermissionData>)]
    permission_data: Option<SpendPermissionData>,
}

impl From<ChangeSubscriptionRequest> for domain::ChangeSubscriptionRequest {
    fn from(request: ChangeSubscriptionRequest) -> Self {
        domain::ChangeSubscriptionRequest {
            subscription_id: request.subscription_id,
            new_plan_id: request.new_plan_id,
            permission_signature: request.permission_signature,
            permission_data: request.permission_data,
        }
    }
}

/// `POST /api/subscriptions/create` body.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CreateSubscriptionRequest {
    plan_id: Option<String>,
    customer_wallet: Option<String>,
    permission_signature: Option<String>,
    #[schema(value_type = Option<crate::api::openapi::core_types::SpendPermissionData>)]
    permission_data: Option<SpendPermissionData>,
}

impl From<CreateSubscriptionRequest> for domain::CreateSubscriptionRequest {
    fn from(request: CreateSubscriptionRequest) -> Self {
        domain::CreateSubscriptionRequest {
            plan_id: request.plan_id,
            customer_wallet: request.customer_wallet,
            permission_signature: request.permission_signature,
            permission_data: request.permission_data,
        }
    }
}

/// `POST /api/subscriptions/cancel` body: `signature` is the customer's EIP-712 `CancelSubscription`
/// signature, needed unless the caller has a signed-in session of the customer or the merchant.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CancelRequest {
    subscription_id: Option<String>,
    wallet: Option<String>,
    signature: Option<String>,
}

impl From<CancelRequest> for domain::CancelRequest {
    fn from(request: CancelRequest) -> Self {
        domain::CancelRequest {
            subscription_id: request.subscription_id,
            wallet: request.wallet,
            signature: request.signature,
        }
    }
}
