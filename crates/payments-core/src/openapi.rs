//! OpenAPI schemas of the value types whose JSON form is written by hand (feature `openapi`): the derive
//! cannot see through their custom `Serialize`, so each says here what its `Serialize` writes.

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaType, Type};
use utoipa::{PartialSchema, ToSchema};

use crate::{Cents, FeePct, TaxRate, Wallet};

fn number(description: &str, minimum: Option<f64>, maximum: Option<f64>) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(SchemaType::new(Type::Number))
        .description(Some(description))
        .minimum(minimum)
        .maximum(maximum)
        .into()
}

impl PartialSchema for Cents {
    fn schema() -> RefOr<Schema> {
        number(
            "A USD amount as a JSON number with at most 2 decimals (`12.65`); read exactly, never rounded.",
            None,
            None,
        )
    }
}

impl ToSchema for Cents {
    fn name() -> std::borrow::Cow<'static, str> {
        "Usd".into()
    }
}

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
