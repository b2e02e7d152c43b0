//! Schemas of optional flattened parts: a `#[serde(flatten)] Option<T>` field adds `T`'s fields only when it
//! is `Some`, so its schema is `T`'s with no field required (the derive would demand `T` or null instead).

use std::borrow::Cow;

use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaType, Type};
use utoipa::openapi::{RefOr, schema};
use utoipa::{PartialSchema, ToSchema};

use super::core_types::Failure;

/// `schema` with no required property.
fn none_required(schema: RefOr<Schema>) -> RefOr<Schema> {
    match schema {
        RefOr::T(Schema::Object(mut object)) => {
            object.required.clear();
            RefOr::T(Schema::Object(object))
        }
        other => other,
    }
}

/// The failure fields of a failed receipt (`failureCode`, `failureCategory`, `failureReason`,
/// `failureAction`), absent on every other receipt.
#[derive(Debug)]
pub(crate) struct FailureFields;

impl PartialSchema for FailureFields {
    fn schema() -> RefOr<Schema> {
        none_required(Failure::schema())
    }
}

impl ToSchema for FailureFields {
    fn name() -> Cow<'static, str> {
        "FailureFields".into()
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<schema::Schema>)>) {
        <Failure as ToSchema>::schemas(schemas);
    }
}

/// The deposit balance of a receipt with a deposit address (`amountReceivedUsd`, `amountDueUsd`,
/// `overpaidUsd`, each with its `...BaseUnits`), absent on receipts without one.
#[derive(Debug)]
pub(crate) struct BalanceFields;

impl PartialSchema for BalanceFields {
    fn schema() -> RefOr<Schema> {
        let mut object = ObjectBuilder::new().description(Some(
            "What the receipt's deposit holds against its total, to the base unit of the 6-decimal token: \
             `<name>Usd` is the exact decimal amount as a JSON number (2 to 6 decimals), `<name>BaseUnits` the \
             same in base units as an integer string.",
        ));
        for (name, meaning) in [
            ("amountReceived", "confirmed at the deposit address"),
            ("amountDue", "still to send to pay the total (0 once paid)"),
            (
                "overpaid",
                "received beyond the total (the merchant may refund it)",
            ),
        ] {
            object = object
                .property(
                    format!("{name}Usd"),
                    ObjectBuilder::new()
                        .schema_type(SchemaType::new(Type::Number))
                        .minimum(Some(0.0))
                        .description(Some(format!("USD {meaning}."))),
                )
                .property(
                    format!("{name}BaseUnits"),
                    ObjectBuilder::new()
                        .schema_type(SchemaType::new(Type::String))
                        .pattern(Some("^[0-9]+$"))
                        .description(Some(format!("Token base units {meaning}."))),
                );
        }
        object.into()
    }
}

impl ToSchema for BalanceFields {
    fn name() -> Cow<'static, str> {
        "BalanceFields".into()
    }
}
