//! Pure domain of the merchant payments platform.
//!
//! No I/O, no clock, no randomness: callers pass `now` and ids in. Money is integer cents ([`Cents`]),
//! rates are exact decimals ([`TaxRate`], [`FeePct`]), and every rule that decides money or state lives
//! here so the server, the client and the tests share one definition.

mod admin_login;
mod deposit;
mod deposit_balance;
mod erc6492;
mod error_code;
mod json_number;
mod ledger;
mod money;
mod money_serde;
mod onchain;
mod onramp;
mod payment_block;
mod payment_request;
mod platform_fees;
mod pricing;
mod rate;
mod receipt_authority;
mod receipt_event;
mod receipt_status;
mod receipt_transition;
mod reconcile;
mod refund_proof;
mod reserve;
mod spend_permission;
mod split;
mod subscription;
mod tax;
mod tax_catalog;
mod token_usd;
mod user_xp;
mod utc_time;
mod wallet;
mod webhook;
mod webhook_amount;
mod webhook_endpoint;

pub use admin_login::{
    ADMIN_LOGIN_DOMAIN_NAME, ADMIN_LOGIN_DOMAIN_VERSION, ADMIN_LOGIN_MAX_SKEW_SECS, AdminLogin, LoginError,
};
pub use deposit::{DepositAssessment, assess_deposit};
pub use deposit_balance::ReceiptBalance;
pub use erc6492::{
    CounterfactualSignature, CounterfactualSignatureError, ERC6492_SUFFIX, MAX_SIGNATURE_BYTES,
    SIGNATURE_VALIDATOR_6492_CREATION_CODE, stored_signature_fits,
};
pub use error_code::{ErrorCode, UnknownErrorCode};
pub use json_number::first_inexact_number;
pub use ledger::{
    LedgerAccount, LedgerLeg, LedgerMovement, charge_legs, deposit_legs, refund_leg, settlement_legs,
};
pub use money::{Cents, MAX_USD_CENTS, MoneyError, TOKEN_UNITS_PER_CENT, TokenAmount};
pub use onchain::{
    DEPOSIT_FACTORY_CREATION_CODE, ReceiptSalt, SPEND_PERMISSION_MANAGER_CREATION_CODE,
    SPLIT_FACTORY_CREATION_CODE, SPLIT_RUNTIME_CODE, TEST_TOKEN_CREATION_CODE, deposit_address,
    split_address, split_constructor_args,
};
pub use onramp::{
    OnrampAnswer, OnrampFailure, OnrampProviderKind, UnknownOnrampProvider, classify_onramp_refusal,
};
pub use payment_block::{FINALITY_FALLBACK_DEPTH, PaymentBlock, finality_line};
pub use payment_request::PaymentRequest;
pub use platform_fees::{FeeBalance, split_fee_balance};
pub use pricing::{
    FEE_LINE_LABEL, FeeSchedule, LineItem, MAX_ORDER_ITEMS, MAX_QUANTITY, PricedOrder, PricingError,
    PricingItem, TAX_LINE_LABEL, price_order, price_terminal,
};
pub use rate::{FeePct, RateError, TaxRate};
pub use receipt_authority::{Authority, AuthorityError, UnknownAuthority, authorize_request};
pub use receipt_event::{PaymentProof, ReceiptEvent, TrackingStatus};
pub use receipt_status::{Failure, FailureCategory, FailureError, ReceiptStatus, UnknownStatus};
pub use receipt_transition::{ReceiptState, Transition, TransitionError, apply_event, apply_event_as};
pub use reconcile::{
    ABSENT, Difference, Expected, LoggedTransfer, MinedMovement, deposit_differences, movement_differences,
    settlement_differences,
};
pub use refund_proof::{
    ClaimedRefund, MinedRefund, RefundProofError, SeenTransfer, is_confirmed, verify_refund,
};
pub use reserve::{ReserveBasis, ReserveRecommendation, ReserveRule, ReserveVolume};
pub use spend_permission::{
    BASE_MAINNET_CHAIN_ID, PermissionError, PermissionField, RecoverableSignature,
    SPEND_PERMISSION_DOMAIN_NAME, SPEND_PERMISSION_DOMAIN_VERSION, SPEND_PERMISSION_MANAGER,
    SPEND_PERMISSION_PRIMARY_TYPE, SignatureError, SpendPermission, SpendPermissionData,
    SpendPermissionDomain, SpendPermissionTypedData, TypedDataDomain, TypedDataError, TypedDataField,
    eip712_signing_hash, recover_address,
};
pub use split::{BPS_TOTAL, MAX_SPLIT_RECIPIENTS, Split, SplitError, SplitRecipient};
pub use subscription::{
    BillingPeriod, CANCEL_DOMAIN_NAME, CANCEL_DOMAIN_VERSION, CancelError, CancelSubscription,
    ChangeAlignmentError, ChargeProgress, DEFAULT_SUBSCRIPTION_FEE_BPS, FailurePolicy,
    PERMISSION_START_SLACK_SECS, PlanChangeFacts, PlanFitError, PlanTerms, Proration, ProrationError,
    ScheduleAfter, SpendingConfig, SubscriptionCharge, SubscriptionChargeFacts, SubscriptionChargeUnits,
    SubscriptionEventKind, SubscriptionPermissionOffer, SubscriptionStatus, SubscriptionWebhook,
    TokenApproval, UnknownBillingPeriod, UnknownSubscriptionStatus, UpcomingCharge, aligned_permission_start,
    check_change_alignment, check_permission_fits_plan, credited_charge, due_slot, next_charge_at,
    plan_permission, prorate, slot_at, subscription_fee_at, subscription_merchant_net,
    subscription_platform_fee,
};
pub use tax::{
    Jurisdiction, TaxComponent, TaxError, TaxSelection, find_jurisdiction, resolve_tax_rate,
    resolve_tax_rate_in,
};
pub use tax_catalog::{STATE_COMPONENT_CODE, builtin_tax_catalog};
pub use user_xp::{CENTS_PER_XP, purchase_credit, xp_for_spending};
pub use utc_time::{parse_utc_time, utc_iso8601};
pub use wallet::{Wallet, WalletError};
pub use webhook::{
    RECEIPT_STATUS_UPDATED, ReceiptStatusUpdated, STANDARD_WEBHOOKS_SECRET_PREFIX, SecretError,
    StandardWebhooksSecret, x_service_signature,
};
pub use webhook_amount::{
    AmountField, AmountName, FeeField, GrossField, NetField, PriceField, WebhookAmount,
};
pub use webhook_endpoint::{
    DISABLE_AFTER_FAILING_MS, EventEnvelope, EventFilter, EventFilterError, EventFilters,
    MAX_ENDPOINTS_PER_MERCHANT, MAX_EVENT_FILTERS, ROTATION_OVERLAP_MS, WEBHOOK_ENDPOINT_DISABLED,
    default_endpoint_retry_schedule, signature_header,
};

/// Exact decimals used by the rate types, re-exported so callers need no direct dependency.
pub use rust_decimal::Decimal;
