//! The API: the only layer that knows routes, JSON wire types, OpenAPI, GraphQL and HTML. [`routes`] is the
//! one route table; handlers are thin (extract, one service call, render).

pub(crate) mod graphql;
pub(crate) mod handlers;
pub(crate) mod openapi;
pub(crate) mod portal;
#[cfg(test)]
pub(crate) mod route_shapes;
pub(crate) mod routes;
