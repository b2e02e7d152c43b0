//! OpenAPI schemas of `payments-core`'s wire types, written here because core stays pure (no utoipa).
//!
//! Each item is documentation only: never built, it states the JSON that core's `Serialize` writes, under
//! the same schema name, and a field of a core type names it with `#[schema(value_type = ...)]`. Keep each in
//! step with its core type (the committed `docs/openapi.json` shows any drift in review).

// Read only by the `ToSchema` derives: their fields and variants are never built or read.
#![allow(dead_code, reason = "documentation-only schema types")]

use std::borrow::Cow;
use std::collections::BTreeMap;

use payments_core::ReceiptStatus as CoreReceiptStatus;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaType, Type};
use utoipa::{PartialSchema, ToSchema};

fn number(description: &str, minimum: Option<f64>, maximum: Option<f64>) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::Number))
        .description(Some(description))
        .minimum(minimum)
        .maximum(maximum)
        .into()
}

/// `Cents`: written as a JSON number of dollars by core's hand-written `Serialize`.
#[derive(Debug)]
pub(crate) struct Usd;

impl PartialSchema for Usd {
    fn schema() -> RefOr<Schema> {
        number(
            "A USD amount as a JSON number with at most 2 decimals (`12.65`); read exactly, never rounded.",
            None,
            None,
        )
    }
}

impl ToSchema for Usd {
    fn name() -> Cow<'static, str> {
        "Usd".into()
    }
}

/// `Wallet`.
#[derive(Debug)]
pub(crate) struct Wallet;

impl PartialSchema for Wallet {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::String))
            .description(Some(
                "A 0x-prefixed 40-hex-digit address; answers write it in lowercase, requests may mix case.",
            ))
            .pattern(Some("^0x[0-9a-fA-F]{40}$"))
            .examples(["0xdec0de0000000000000000000000000000000001"])
            .into()
    }
}

impl ToSchema for Wallet {}

/// `TaxRate`.
#[derive(Debug)]
pub(crate) struct TaxRate;

impl PartialSchema for TaxRate {
    fn schema() -> RefOr<Schema> {
        number(
            "A tax rate from 0 to 1 (`0.0725` is 7.25 %).",
            Some(0.0),
            Some(1.0),
        )
    }
}

impl ToSchema for TaxRate {}

/// `FeePct`.
#[derive(Debug)]
pub(crate) struct FeePct;

impl PartialSchema for FeePct {
    fn schema() -> RefOr<Schema> {
        number(
            "A fee as a percentage from 0 to 100 (`0.5` is 0.5 %).",
            Some(0.0),
            Some(100.0),
        )
    }
}

impl ToSchema for FeePct {}

/// `ReceiptStatus`: its values are read from core, so a new status is documented without a change here.
#[derive(Debug)]
pub(crate) struct ReceiptStatus;

impl PartialSchema for ReceiptStatus {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::String))
            .description(Some(
                "Every status a receipt can have (spec \"Status values seen on receipts\").\n\n\
                 The spec's nine webhook meanings map as: portal opened = `link_opened`, wallet connected =\n\
                 `buyer_logged_in`, checkout started = `checkout_initialized`, payment submitted = `checkout_success`,\n\
                 payment confirmed on chain = `paid`, funds verified and split executed = `completed` (then\n\
                 `reconciled`), failed = `failed`, refund requested = `refund_requested`, refund processed =\n\
                 `refund_partial` or `refunded`.",
            ))
            .enum_values(Some(CoreReceiptStatus::ALL.map(CoreReceiptStatus::as_str)))
            .into()
    }
}

impl ToSchema for ReceiptStatus {}

/// `FailureCategory`, whose schema the error envelope in `http/` names too, so it is written there.
pub(crate) use crate::http::error::FailureCategorySchema as FailureCategory;

/// Why a payment attempt failed, as carried by a `failed` receipt and its webhook.
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
pub(crate) struct Failure {
    /// A `PORTAL_...` code, e.g. `PORTAL_PAY_INSUFFICIENT_FUNDS`.
    failure_code: String,
    /// One of the six categories.
    failure_category: FailureCategory,
    /// What happened, for people.
    failure_reason: String,
    /// What the buyer can do about it.
    failure_action: String,
}

/// A receipt line as it appears on the wire.
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
pub(crate) struct LineItem {
    /// What the line is.
    label: String,
    /// The line total (unit price x qty for products).
    price_usd: Usd,
    /// Quantity (product lines only).
    qty: Option<u32>,
    /// Price of one unit (product lines only).
    unit_price_usd: Option<Usd>,
    /// Product id (product lines only).
    item_id: Option<String>,
    /// Product SKU (product lines only).
    sku: Option<String>,
    /// Thumbnail data URL (product lines only).
    thumb: Option<String>,
}

/// One recipient of a split and its share.
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
pub(crate) struct SplitRecipient {
    /// Who receives.
    address: Wallet,
    /// Share in basis points (1..=10000).
    shares_bps: u32,
}

/// One named part of a jurisdiction's tax (e.g. state, county, city).
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
pub(crate) struct TaxComponent {
    /// Code unique within the jurisdiction, compared case-insensitively (e.g. `state`).
    code: String,
    /// Human-readable name.
    name: String,
    /// The component's rate.
    rate: TaxRate,
}

/// A tax jurisdiction: a code like `US-CA` and the components whose sum is its full rate.
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
pub(crate) struct Jurisdiction {
    /// Code compared case-insensitively (e.g. `US-CA`).
    code: String,
    /// Human-readable name.
    name: String,
    /// Components; the full rate is their sum.
    components: Vec<TaxComponent>,
}

/// The description of `SpendPermissionData`: its core doc, example included.
const SPEND_PERMISSION_DATA: &str =
    "A spend permission as it travels in JSON: addresses and big integers as strings, times as integer
unix seconds, `extraData` as `0x` hex.

```
# use payments_core::SpendPermissionData;
let data: SpendPermissionData = serde_json::from_str(r#\"{
    \"account\": \"0x4A2Bd4f4A39EC4541baD64e197b26471523B7D41\",
    \"spender\": \"0x013D66f00e046393cDA5fc85598ED045449DF2ED\",
    \"token\": \"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",
    \"allowance\": \"1000000\", \"period\": 604800, \"start\": 1769189627, \"end\": 1776447227,
    \"salt\": \"508\", \"extraData\": \"0x\"
}\"#)?;
let permission = data.parse()?;
assert_eq!(permission.period_secs(), 604_800);
# Ok::<(), Box<dyn std::error::Error>>(())
```";

/// The description of `SpendPermissionTypedData`: its core doc, example included.
const SPEND_PERMISSION_TYPED_DATA: &str =
    "A spend permission as an [EIP-712](https://eips.ethereum.org/EIPS/eip-712) typed-data document.

`message` is the permission in its wire form, so it is also the `permissionData` of the create request.

```
# use payments_core::{SpendPermissionData, SpendPermissionDomain, SpendPermissionTypedData};
let data = SpendPermissionData {
    account: \"0x4A2Bd4f4A39EC4541baD64e197b26471523B7D41\".into(),
    spender: \"0x013D66f00e046393cDA5fc85598ED045449DF2ED\".into(),
    token: \"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\".into(),
    allowance: \"1000000\".into(), period: 604_800, start: 1_769_189_627, end: 1_776_447_227,
    salt: \"508\".into(), extra_data: \"0x\".into(),
};
let document = SpendPermissionTypedData::new(&data.parse()?, &SpendPermissionDomain::BASE_MAINNET);
assert_eq!(document.primary_type, \"SpendPermission\");
assert_eq!(document.parse()?.1, SpendPermissionDomain::BASE_MAINNET);
# Ok::<(), Box<dyn std::error::Error>>(())
```";

#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase", description = SPEND_PERMISSION_DATA)]
pub(crate) struct SpendPermissionData {
    /// The granting wallet address.
    account: String,
    /// The spender address.
    spender: String,
    /// The token contract address.
    token: String,
    /// Allowance per period in token base units, as a decimal string.
    allowance: String,
    /// Period length in seconds.
    period: u64,
    /// Start, unix seconds.
    start: u64,
    /// End, unix seconds.
    end: u64,
    /// Salt as a decimal string.
    salt: String,
    /// Extra data as `0x`-prefixed hex (`"0x"` when empty).
    extra_data: String,
}

#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase", description = SPEND_PERMISSION_TYPED_DATA)]
pub(crate) struct SpendPermissionTypedData {
    /// The signing domain: the spend permission manager on its chain.
    domain: TypedDataDomain,
    /// `EIP712Domain` and `SpendPermission`, each as its ordered list of fields.
    types: BTreeMap<String, Vec<TypedDataField>>,
    /// Always `SpendPermission`.
    primary_type: String,
    /// The permission to sign (also the create request's `permissionData`).
    message: SpendPermissionData,
}

/// The `domain` of a spend permission document.
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
pub(crate) struct TypedDataDomain {
    /// `Spend Permission Manager`.
    name: String,
    /// `1`.
    version: String,
    /// The chain the permission is valid on.
    chain_id: u64,
    /// The spend permission manager contract (checksummed).
    verifying_contract: String,
}

/// One field of an EIP-712 struct type.
#[derive(Debug, ToSchema)]
pub(crate) struct TypedDataField {
    /// The field's name.
    name: String,
    /// Its Solidity type (`address`, `uint48`, ...).
    #[schema(rename = "type")]
    kind: String,
}

/// What a customer must do to subscribe: approve the token if needed, sign `typed_data`, then post both
/// to `POST /api/subscriptions/create` (`permissionData` = `typedData.message`).
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
pub(crate) struct SubscriptionPermissionOffer {
    /// The EIP-712 document to sign (`eth_signTypedData_v4`).
    typed_data: SpendPermissionTypedData,
    /// The ERC-20 approval the manager needs to pull the charges.
    approval: TokenApproval,
}

/// An ERC-20 `approve(spender, amount)` on `token`, and whether the customer still has to send it.
#[derive(Debug, ToSchema)]
#[schema(rename_all = "camelCase")]
pub(crate) struct TokenApproval {
    /// The token contract.
    token: Wallet,
    /// The spend permission manager, which pulls each charge with `transferFrom`.
    spender: Wallet,
    /// The amount to approve, in token base units as decimal text (the largest `uint256`: the signed
    /// permission, enforced by the manager, is what limits each period's charge).
    amount: String,
    /// Whether the customer's current allowance for the manager is below one charge.
    needed: bool,
}
