//! `POST /api/subscriptions/create`: the customer's signed spend permission is verified under the
//! configured manager's EIP-712 domain (ERC-1271 on chain for contract wallets, ERC-6492 for smart wallets
//! not deployed yet), checked against the plan and the platform, and stored once per permission hash.

use payments_core::{
    CounterfactualSignature, MAX_SIGNATURE_BYTES, PlanFitError, RecoverableSignature, SpendPermission,
    SpendPermissionData, SpendingConfig, Wallet, check_permission_fits_plan,
};

use crate::chain::ChainError;

use crate::domain::field_error::FieldError;
use crate::domain::recurring::{
    CreateSubscriptionRequest, CustomerSubscription, CustomerSubscriptionId, NewCustomerSubscription, PlanId,
    SubscriptionRefusal,
};
use crate::services::idempotency::Outcome;
use crate::services::receipts::IdempotencyRequest;
use crate::services::recurring::{RecurringError, RecurringService, SUBSCRIPTIONS_SCOPE};
use crate::store::{Committed, EarlierCall, IdempotencyClaim, Resource, StoreError, TxError};

/// A create request with its fields present and well-formed.
struct Parsed {
    plan_id: PlanId,
    customer: Wallet,
    signature: Vec<u8>,
    permission: SpendPermission,
}

fn parse(request: &CreateSubscriptionRequest) -> Result<Result<Parsed, RecurringError>, FieldError> {
    let plan_id = PlanId::parse("planId", request.plan_id.as_deref().unwrap_or(""))?;
    let customer = Wallet::parse(request.customer_wallet.as_deref().unwrap_or(""))
        .map_err(|_| FieldError::new("customerWallet", "must be a 0x address"))?;
    Ok(parse_signed_permission(
        request.permission_signature.as_deref(),
        request.permission_data.as_ref(),
    )?
    .map(|(signature, permission)| Parsed {
        plan_id,
        customer,
        signature,
        permission,
    }))
}

/// `permissionSignature` (hex) and `permissionData` of a create or change request: a missing field is a
/// [`FieldError`]; a signature that is too long or not hex, or data that does not parse, a refusal.
pub(super) fn parse_signed_permission(
    signature_hex: Option<&str>,
    data: Option<&SpendPermissionData>,
) -> Result<Result<(Vec<u8>, SpendPermission), RecurringError>, FieldError> {
    let signature_hex = signature_hex
        .filter(|text| !text.is_empty())
        .ok_or_else(|| FieldError::new("permissionSignature", "is required"))?;
    let data = data.ok_or_else(|| FieldError::new("permissionData", "is required"))?;
    let digits = signature_hex.strip_prefix("0x").unwrap_or(signature_hex);
    // Bounded before decoding: the signature is stored and replayed in every charge.
    if digits.len() > 2 * MAX_SIGNATURE_BYTES {
        return Ok(Err(RecurringError::InvalidSignature(format!(
            "longer than {MAX_SIGNATURE_BYTES} bytes"
        ))));
    }
    let signature = match hex::decode(digits) {
        Ok(bytes) if !bytes.is_empty() => bytes,
        _ => return Ok(Err(RecurringError::InvalidSignature("not hex".to_owned()))),
    };
    Ok(data
        .parse()
        .map_err(RecurringError::InvalidPermission)
        .map(|permission| (signature, permission)))
}

impl RecurringService {
    /// Verifies and stores a subscription; the first charge is due at once. The customer's signature is
    /// checked first, before the `Idempotency-Key` is consulted: a caller who cannot sign for the customer
    /// learns nothing about the customer's keys. With a key (claimed per customer wallet), an earlier create
    /// under it is then answered before the plan and permission checks run again (a replay must not depend on
    /// the plan as it is now): its kept response, or the subscription it committed when its response was
    /// lost. The create's transaction checks the key once more, so concurrent duplicates still create one
    /// subscription.
    ///
    /// # Errors
    /// [`SubscribeError::Field`] for a missing or malformed field, else [`SubscribeError::Refused`] with the
    /// reason (see [`RecurringError`]), [`RecurringError::IdempotencyConflict`] for a key used with
    /// another body.
    pub(crate) async fn subscribe(
        &self,
        request: &CreateSubscriptionRequest,
        idempotency: Option<IdempotencyRequest>,
    ) -> Result<Outcome<CustomerSubscription>, SubscribeError> {
        let parsed = parse(request)?.map_err(SubscribeError::Refused)?;
        let hash = self.signed_by_customer(&parsed).await?;
        let claim =
            idempotency.map(|request| request.claim(parsed.customer, SUBSCRIPTIONS_SCOPE, self.now_ms()));
        let committed = match self.earlier_call(claim.as_ref()).await? {
            Some(EarlierCall::Kept(kept)) => Committed::Replayed(kept),
            Some(EarlierCall::Committed { resource, .. }) => {
                Committed::Recovered(self.recovered_subscription(&resource).await?)
            }
            None => self.subscribe_parsed(parsed, hash, claim.clone()).await?,
        };
        Ok(Outcome::new(committed, claim))
    }

    /// The subscription an earlier create under the same key committed, as stored now.
    async fn recovered_subscription(
        &self,
        resource: &Resource,
    ) -> Result<CustomerSubscription, RecurringError> {
        let found = match resource {
            Resource::Subscription(id) => self.recurring.fetch_subscription(id).await?,
            _ => None,
        };
        found.ok_or_else(|| gone(resource))
    }

    /// The permission is the customer's and signed by it (under the configured manager's domain); answers
    /// the hash it signed.
    async fn signed_by_customer(&self, parsed: &Parsed) -> Result<alloy_primitives::B256, RecurringError> {
        let domain = self.permission_domain()?;
        if parsed.permission.account != parsed.customer.address() {
            return Err(RecurringError::AccountMismatch);
        }
        let hash = parsed.permission.signing_hash(&domain);
        self.check_signer(&parsed.permission, &parsed.signature, parsed.customer, hash)
            .await?;
        Ok(hash)
    }

    async fn subscribe_parsed(
        &self,
        parsed: Parsed,
        hash: alloy_primitives::B256,
        claim: Option<IdempotencyClaim>,
    ) -> Result<Committed<CustomerSubscription>, RecurringError> {
        let spender = self.spender()?;
        let plan = self
            .recurring
            .fetch_plan(&parsed.plan_id)
            .await?
            .ok_or_else(|| RecurringError::PlanUnknown(parsed.plan_id.clone()))?;
        if !plan.active {
            return Err(RecurringError::PlanInactive(plan.id));
        }
        let permission = parsed.permission;
        let now_ms = self.now_ms();
        let config = SpendingConfig {
            token: self.terms.token.address(),
            spender: spender.address(),
        };
        // The first charge falls at the trial's end (now without a trial): the permission must still be
        // valid then, else the trial would end in a charge the manager refuses.
        let first_charge_at = plan.trial_days.first_charge_at(now_ms);
        check_permission_fits_plan(&permission, &plan.terms(), &config, first_charge_at, now_ms).map_err(
            |error| match error {
                PlanFitError::EndsBeforeNextCharge { end_secs, .. } if first_charge_at > now_ms => {
                    RecurringError::PermissionEndsBeforeTrialEnd {
                        end_secs,
                        trial_end_ms: first_charge_at,
                    }
                }
                other => RecurringError::PermissionDoesNotFit(other),
            },
        )?;
        let new = NewCustomerSubscription {
            id: CustomerSubscriptionId::generate(),
            plan_id: plan.id.clone(),
            merchant: plan.merchant,
            customer: parsed.customer,
            price: plan.price,
            period: plan.period,
            permission,
            signature: parsed.signature,
            permission_hash: hash.to_string(),
            anchor_ms: first_charge_at,
        };
        let created = self
            .recurring
            .create_subscription(&new, now_ms, claim)
            .await
            .map_err(|error| match error {
                TxError::Refused(SubscriptionRefusal::PermissionReused) => RecurringError::PermissionReused,
                TxError::Refused(SubscriptionRefusal::PlanUnavailable) => {
                    RecurringError::PlanInactive(plan.id)
                }
                TxError::IdempotencyConflict => RecurringError::IdempotencyConflict,
                TxError::Store(error) => RecurringError::Store(error),
            })?;
        // Its `subscription.created` webhook (if the plan has a target) committed with it.
        self.outbox_wakeup.notify_one();
        Ok(created)
    }

    /// An EOA's 65-byte signature must recover to the customer; anything else (or a signature by another
    /// key) is asked of the customer's contract through ERC-1271 when the customer has code. An ERC-6492
    /// signature (a smart wallet not deployed yet) is never an EOA's: it goes to the chain, which simulates
    /// the wallet's deployment and asks it (or asks the deployed wallet the inner signature).
    pub(super) async fn check_signer(
        &self,
        permission: &SpendPermission,
        signature: &[u8],
        customer: Wallet,
        hash: alloy_primitives::B256,
    ) -> Result<(), RecurringError> {
        let wrapped = CounterfactualSignature::parse(signature)
            .map_err(|error| RecurringError::InvalidSignature(error.to_string()))?;
        let recovered =
            RecoverableSignature::from_bytes(signature).and_then(|signature| signature.recover(&hash));
        if wrapped.is_none()
            && let Ok(signer) = recovered
            && signer == permission.account
        {
            return Ok(());
        }
        if wrapped.is_some() || self.chain.has_code(customer).await? {
            return match self
                .chain
                .is_valid_contract_signature(customer, hash, signature)
                .await
            {
                Ok(true) => Ok(()),
                Ok(false) => Err(RecurringError::SignerMismatch),
                Err(ChainError::NotConfigured(reason)) => {
                    Err(RecurringError::CounterfactualUnverifiable(reason))
                }
                Err(error) => Err(error.into()),
            };
        }
        match recovered {
            Ok(_) => Err(RecurringError::SignerMismatch),
            Err(error) => Err(RecurringError::InvalidSignature(error.to_string())),
        }
    }
}

/// A claim that names what the store no longer has, or not what its use case makes: a damaged row.
pub(super) fn gone(resource: &Resource) -> RecurringError {
    RecurringError::Store(StoreError::Corrupt(format!(
        "an idempotency key names {resource:?}, which is not there"
    )))
}

/// A create request refused for a malformed field (400 `invalid_input`) or for a reason of its own.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SubscribeError {
    #[error(transparent)]
    Field(#[from] FieldError),
    #[error(transparent)]
    Refused(#[from] RecurringError),
}
