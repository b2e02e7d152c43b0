//! Schemas of optional flattened parts: a `#[serde(flatten)] Option<T>` field adds `T`'s fields only when it
//! is `Some`, so its schema is `T`'s with no field required (the derive would demand `T` or null instead).

use std::borrow::Cow;

use payments_core::Failure;
use utoipa::openapi::schema::Schema;
use utoipa::openapi::{RefOr, schema};
use utoipa::{PartialSchema, ToSchema};

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
